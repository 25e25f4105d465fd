"""Learning the game: the scoring tables as a reader sees them, explanations of a meld count,
and the quiz.

Imports `meldcalc.advice` and everything below it (today it needs only the rules and the
dealer).
"""
