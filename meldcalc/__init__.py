"""meldcalc: the pinochle meld and bid calculator."""

__version__ = "0.2.0"
