"""A bid's deals simulated in seeded chunks, spread over processes (`--jobs`).

Deals are drawn in fixed chunks of `CHUNK`, each from its own seed derived from (seed,
chunk number, stream), so a bid's numbers depend on its seed alone, never on how many
processes ran them. Each chunk's deals are made ready every way the bid judges (a setup:
a trump, with a burial, a pass-back or an ask) and played in one lock-step batch; where
there are fewer chunks than processes, a chunk's setups are split between them, each part
dealing what the whole deals (`meldcalc.dealing.ready.ready_hands`), so the split changes
nothing either.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from meldcalc.advice.tableplay import Spread
from meldcalc.dealing.knowledge import TableKnowledge
from meldcalc.dealing.ready import Sample, Setup, melded_planes, ready_hands
from meldcalc.engines.exact_endgame import play_out
from meldcalc.engines.policies import DEFAULT as DEFAULT_POLICY
from meldcalc.engines.policies import policy_class
from meldcalc.engines.simulate import Table
from meldcalc.engines.solve import Deadline
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.variant import Variant
from meldcalc.workers import worker_count, worker_map

CHUNK = 2000


def run_chunks(
    hand: Hand,
    variant: Variant,
    deals: int,
    seed: int,
    trumps: list[Suit],
    jobs: int,
    progress: Callable[[int, int], None] | None,
    knowledge: TableKnowledge | None = None,
    setups: list[Setup] | None = None,
    stream: int = 0,
    exact: tuple[int, Deadline | None] = (0, None),
    policy: str = DEFAULT_POLICY,
    spread: Spread | None = None,
) -> dict[Setup, Sample]:
    """Every setup's samples, chunk by chunk; ``stream`` 1 draws deals independent of
    stream 0's (to judge what stream 0 chose without the luck that chose it); ``exact``:
    the tricks of each deal's endgame played exactly, and by when; ``spread``: each deal's
    trick points moved as a strong table's play moves them (`meldcalc.advice.tableplay`),
    by the same draw under every setup."""
    setups = setups or [Setup(trump) for trump in trumps]
    sizes = [min(CHUNK, deals - start) for start in range(0, deals, CHUNK)]
    keys = [(number, stream) if stream else (number,) for number in range(len(sizes))]
    groups = _setup_groups(len(setups), len(sizes), worker_count(jobs, jobs))
    tasks = [
        (hand, variant, size, seed, key, trumps, knowledge, setups, group, exact, policy)
        for key, size in zip(keys, sizes)
        for group in groups
    ]
    with worker_map(jobs, len(tasks)) as run:
        parts: list[dict[Setup, Sample]] = []
        done = 0
        for number, part in enumerate(run(_chunk_task, tasks)):  # in order, whatever ends first
            if number % len(groups) == 0:
                parts.append({})
            parts[-1].update(part)
            done += len(next(iter(part.values())).tricks) * len(part)
            if progress:
                progress(done // len(setups), deals)

    def joined(setup: Setup, name: str) -> np.ndarray | None:
        pieces = [getattr(part[setup], name) for part in parts]
        return None if pieces[0] is None else np.concatenate(pieces)

    moves = None if spread is None else spread.chunk_draws(seed, keys, sizes)
    return {
        s: Sample(
            joined(s, "meld"),
            joined(s, "partner_meld"),
            joined(s, "tricks") if moves is None else spread.moved(joined(s, "tricks"), moves),
            sum(part[s].tried for part in parts),
            joined(s, "tricks_taken"),
            joined(s, "counters_taken"),
        )
        for s in setups
    }


#: Cards played in all (deals x setups x cards a deal) from which ``jobs`` None spreads a
#: bid over every CPU: about half a second of play on one core, where a pool's start
#: (0.05-0.1 s) pays. A default single-deck bid (8,000 deals of 48 cards) stays in one.
AUTO_JOBS_FROM = 1_000_000


def auto_jobs(variant: Variant, deals: int) -> int:
    """The processes a bid of ``deals`` deals (every setup's) is worth: every CPU when
    it plays `AUTO_JOBS_FROM` cards or more, else one."""
    cards = deals * variant.players * variant.hand_size
    return (os.cpu_count() or 1) if cards >= AUTO_JOBS_FROM else 1


def _setup_groups(setups: int, chunks: int, workers: int) -> list[range]:
    """The setups each task of a chunk plays: all of them in one, unless there are fewer
    chunks than workers (a bid of one 2,000-deal chunk readied 16 ways, say); then split
    into as many groups as keep every worker busy. Each group deals what the whole would
    (`ready_hands`), so the numbers are the same however the setups are split."""
    count = max(1, min(setups, -(-workers // chunks)))
    bounds = [setups * k // count for k in range(count + 1)]
    return [range(bounds[k], bounds[k + 1]) for k in range(count)]


def _chunk_task(task: tuple) -> dict[Setup, Sample]:
    hand, variant, size, seed, key, trumps, knowledge, setups, group, exact, policy = task
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    return simulate_chunk(
        hand, variant, size, rng, trumps, knowledge, setups, *exact, policy, group
    )


def simulate_chunk(
    hand: Hand,
    variant: Variant,
    size: int,
    rng: np.random.Generator,
    trumps: list[Suit],
    knowledge: TableKnowledge | None = None,
    setups: list[Setup] | None = None,
    endgame: int = 0,
    deadline: Deadline | None = None,
    policy: str = DEFAULT_POLICY,
    group: range | None = None,
) -> dict[Setup, Sample]:
    """Deal ``size`` deals (consistent with what the table knows), make them ready for
    play under each setup (by default one a trump; ``group``: only those setups, the deals
    dealt as for all), and play them all out in one batch by ``policy`` (the last
    ``endgame`` tricks exactly, up to the ``deadline``)."""
    setups = setups or [Setup(trump) for trump in trumps]
    played = setups if group is None else [setups[i] for i in group]
    knowledge = knowledge or TableKnowledge()
    ready = ready_hands(hand, variant, size, rng, played, knowledge, setups)
    hands, remaining = ready.planes(variant.deck.copies)
    trump_of_deal = np.repeat([setup.trump.index for setup in played], size)
    table = Table.of(variant, trump_of_deal)
    shown = melded_planes(variant, ready.seats, [setup.trump for setup in played])
    game = policy_class(policy)(table, hands, remaining, shown=shown)
    points = play_out(game, variant, endgame, deadline)
    return ready.samples(points, None if endgame else game.side_taken())
