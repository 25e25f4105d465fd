"""The last tricks of simulated deals played exactly.

`bid --endgame K`: the policy of `simulate` plays each deal down to its last K tricks, the
exact solver plays those, both sides at their best with every hand seen (where the
policy's mistakes cost most).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldcalc.errors import MeldcalcError
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np

    from meldcalc.engines.simulate import Game
    from meldcalc.engines.solve import Deadline

#: Exact endgames are worth it up to here: a 4-trick endgame solves in about 0.1 ms, an
#: 8-trick one in milliseconds (bench/solve.py), and a bid plays 8,000 of them.
MAX_ENDGAME = 8


def check_endgame(variant: Variant, endgame: int) -> None:
    """Refuse an endgame longer than the hands hold after the first trick (the policy's)
    or than the solver is quick enough for in every deal, naming the bound broken."""
    if endgame < 0:  # the last -N tricks: a play that never ends
        raise MeldcalcError(f"--endgame {endgame}: expected 0 (none) to {MAX_ENDGAME} tricks")
    left = variant.hand_size - 1
    if endgame > left and left <= MAX_ENDGAME:
        hands = f"{variant.name} deals {left + 1}-card hands and the first trick is the policy's"
        most = f"--endgame must be at most {left}" if left else "no trick is left to solve"
        raise MeldcalcError(f"--endgame {endgame}: {hands}, so {most}")
    if endgame > MAX_ENDGAME:
        too_slow = "longer ones are too slow to solve exactly"
        raise MeldcalcError(f"--endgame {endgame}: expected 1 to {MAX_ENDGAME} tricks ({too_slow})")
    if not endgame:
        return
    from meldcalc.engines.solve import check_solver

    check_solver(variant)


def play_out(
    game: Game, variant: Variant, endgame: int = 0, deadline: Deadline | None = None
) -> np.ndarray:
    """Seat 0's side's trick points in every deal of ``game``: the policy's play, with the
    last ``endgame`` tricks played exactly (both sides at their best, every hand seen),
    stopping with `TimeLimitError` past the ``deadline`` (None: none)."""
    if not endgame:
        return game.play().team_points[:, 0]
    from meldcalc.engines.solve import solve_many

    played = game.play(leave=endgame).team_points[:, 0]
    held, trumps, leaders = game.held(), game.t.trump, game.leader
    return played + solve_many(held, trumps, leaders, variant, deadline=deadline)
