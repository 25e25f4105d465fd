"""The game across hands: the ledger of a game's scores.

The top layer below the command line: it may import every other layer.
"""
