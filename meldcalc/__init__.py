"""meldcalc: the pinochle meld and bid calculator."""

__version__ = "0.1.0"
