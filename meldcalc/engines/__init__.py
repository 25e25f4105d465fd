"""How seats play: the vectorised policy (`simulate`), the exact solver (`solve`, over the C
extension `_solver`) and its plain reference (`minimax`), the reference and look-ahead players,
exact endgames of simulated deals, and realistic random endgames for testing the solver.

Imports `meldcalc.dealing`, `meldcalc.rules` and the infrastructure.
"""
