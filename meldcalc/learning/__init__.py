"""Learning the game: the scoring tables as a reader sees them, explanations of a meld count,
and the quiz (its questions, the diagnosis of a wrong answer, the study file that remembers).

Imports `meldcalc.advice` and everything below it (today it needs only the rules and the
dealer: deals to ask about, the pass policy, the burial rule of thumb).
"""
