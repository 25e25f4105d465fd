"""meldcalc: the pinochle meld and bid calculator."""

__version__ = "0.3.0"
