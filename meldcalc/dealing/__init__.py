"""What the table knows and the deals consistent with it: dealing a deck, what each seat has
shown (`knowledge`), unseen cards laid out to agree with it (`layouts`), the widow, the pass,
and making simulated deals ready for play (`ready`).

Imports `meldcalc.rules` and the infrastructure only.
"""
