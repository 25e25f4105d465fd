"""Odds checked against strong play: a few deals played twice, as a control variate.

The fast policy plays every simulated deal, and strong players take a few points from it
that it would give away (README "How strong it is"). ``bid --strong N`` corrects the odds
of the best trump for that: N fresh deals, made ready as every simulated deal is, are
played once by the fast policy and once by the look-ahead player (`meldcalc.engines.lookahead`:
the reference's perfect-information Monte Carlo with fewer layouts, within a few trick
points of the reference and a tenth of its cost) in every seat. On those deals the
share of totals reaching a bid under strong play less the share under the fast policy is
added to the fast policy's P(make) of that bid over all the simulated deals: the paired
difference is a control variate, so the odds are the strong player's in expectation, at
the fast player's cost plus the N deals, with the noise of the N pairs rather than of N
strong deals alone (the two plays of a deal agree far more often than two deals do).

The N deals are drawn from their own stream of the seed, so the same seed gives the same
numbers whatever ``--jobs``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.dealing.knowledge import TableKnowledge
from meldcalc.dealing.ready import Sample, Setup, melded_planes, ready_hands
from meldcalc.engines.policies import DEFAULT as DEFAULT_POLICY
from meldcalc.engines.policies import policy_class
from meldcalc.rules.variant import Variant

#: The seed stream of the strong check's deals (the bid's chunks use 0 and 1).
STREAM = 2


@dataclass(frozen=True)
class StrongCheck:
    """The side's totals (meld and tricks, as the odds count them) in the deals played
    twice: by the look-ahead player, and by the fast policy."""

    strong: np.ndarray
    fast: np.ndarray

    @property
    def deals(self) -> int:
        return len(self.fast)

    @property
    def shift(self) -> float:
        """What strong play changed the side's total by, on average."""
        return float((self.strong - self.fast).mean())

    @property
    def shift_se(self) -> float:
        differences = self.strong - self.fast
        return float(differences.std(ddof=1) / np.sqrt(len(differences))) if self.deals > 1 else 0.0


def play_twice(
    hand: object,
    variant: Variant,
    setup: Setup,
    knowledge: TableKnowledge,
    deals: int,
    seed: int,
    endgame: int = 0,
    policy: str = DEFAULT_POLICY,
) -> tuple[Sample, Sample]:
    """The outcomes of ``deals`` fresh deals of ``hand`` under ``setup``, played by the
    fast ``policy`` (as the bid played every deal: its last ``endgame`` tricks exactly) and
    by the look-ahead player in every seat (its layouts played out by the rules: the
    learned policy's play-outs would cost it 6 times the time)."""
    from meldcalc.engines.exact_endgame import play_out
    from meldcalc.engines.lookahead import LookAhead
    from meldcalc.engines.reference import play
    from meldcalc.engines.simulate import Game, Table

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM,)))
    ready = ready_hands(hand, variant, deals, rng, [setup], knowledge)
    hands, remaining = ready.planes(variant.deck.copies)
    shown = melded_planes(variant, ready.seats, [setup.trump])

    def game(players: type[Game]) -> Game:
        table = Table.of(variant, np.full(deals, setup.trump.index))
        return players(table, hands, remaining, shown=shown)

    fast_game, strong_game = game(policy_class(policy)), game(Game)
    fast = play_out(fast_game, variant, endgame)
    player = LookAhead(variant, seed=seed)
    strong = play(strong_game, dict.fromkeys(range(variant.players), player))[:, 0]
    fast_taken = None if endgame else fast_game.side_taken()
    return (
        ready.samples(fast, fast_taken)[setup],
        ready.samples(strong, strong_game.side_taken())[setup],
    )
