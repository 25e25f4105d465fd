"""What the rules say: cards and their notation, the variant model (its schema, loading and
cache), the meld engine, the trick rules, the scoring of a hand, and cards as bitmasks.

The lowest layer above the infrastructure (`meldcalc.errors`, `meldcalc.files`): a module here
imports nothing else of meldcalc. Everything above reads the rules from here.
"""
