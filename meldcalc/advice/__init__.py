"""What a player is told: the bid (`bidding`, with the strong check of `strong`), odds in words,
the hint for the card to play, the review of a deal played, and replaying a deal's record.

Imports the engines and everything below them.
"""
