"""Strong players' spread: `bid`'s odds as a table of strong players makes them.

`bid` plays its simulated deals by the fast learned policy in every seat. A table of strong
players (the yardstick's reference in every seat: bench/calibration.py) takes about as
many trick points from the same hand on average, but more variably: its players' choices
differ from deal to deal where self-play makes the same one. Judged against such a table,
the self-play's odds leaned optimistic in the bands from 0.5 up (12 fresh deals a hand,
pooled: single deck, 1,500 hands, 1.2 ± 0.8 points; double deck, 900, 1.9 ± 0.5;
three-handed, 899, 2.1 ± 0.9), the lean of a distribution too narrow; with the spread,
each run of hands judged by the fit of the others: +0.3, -0.1 and -0.3 (README "How far
the odds can be trusted").

So each simulated deal's trick points are moved by a draw from a normal distribution,
rounded to the game's trick step and kept within the deal's trick points, its mean and
standard deviation fitted a family of games (`family_of`: the copies of each card, the
seats, a widow, a pass before play) by maximum likelihood to calibration runs
(`bench/fit_spread.py`, which names the runs and their seeds in the file it writes), in
fractions of the game's trick points so that a house file of the family takes it at its
own scale. The draws come from a stream of their own beside each chunk's deals, so the
deals, and the same seed's numbers whatever ``--jobs``, are as before.

The spread is fitted to the self-play of the shipped network its game plays (single deck's
own or the shared one: `meldcalc.engines.learned.OWN`), so it applies where `bid` plays
that (the default ``--policy learned``, no ``--endgame``); ``--strong N`` measures the
table's play on the hand itself instead. A family with no fit yet gets none: the fitted
ones are single deck, double deck, three-handed, cutthroat and the Toby Thomas exchange
(with their house files); double-deck three-handed needs none (its self-play's odds, 900
hands, within 1 point in every band: its fit would move a deal's points by -0.2 ± 0.05).
The fits are a small file in the package (`tableplay.json`), read on first use and checked:
its format, its numbers, and for each family the network it was fitted to (a new network
needs a new fit).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from meldcalc.errors import MeldcalcError
from meldcalc.rules.variant import Variant

FORMAT = 2
FITS = "tableplay.json"
#: The most the fits file may hold (the shipped one is under 1 KB).
MAX_BYTES = 1 << 16
#: The seed stream of the draws, appended to a chunk's key (`meldcalc.advice.chunks`).
STREAM = 7
#: The largest mean or standard deviation a fit may give, as a share of the trick points.
LARGEST = 0.25


@dataclass(frozen=True)
class Spread:
    """How far a strong table's trick points fall from the fast policy's self-play on a
    deal: a normal distribution, in trick points of one game."""

    family: str
    mean: float
    sd: float
    step: int
    total: int

    def chunk_draws(self, seed: int, keys: list[tuple[int, ...]], sizes: list[int]) -> np.ndarray:
        """The moves of a bid's deals, chunk by chunk (``keys``: the chunks' seed keys, each
        drawing from a `STREAM` of its own beside its deals), each rounded to the game's
        trick step."""
        drawn = [
            np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(*key, STREAM))).normal(
                self.mean, self.sd, size
            )
            for key, size in zip(keys, sizes)
        ]
        return np.rint(np.concatenate(drawn) / self.step).astype(np.int64) * self.step

    def moved(self, tricks: np.ndarray, draws: np.ndarray) -> np.ndarray:
        """``tricks`` (one deal's trick points each) moved by ``draws``, kept between none
        and all of a deal's trick points."""
        return np.clip(tricks + draws, 0, self.total)

    def sentence(self) -> str:
        return (
            "as a table of strong players makes them: each deal's trick points moved by a draw"
            f" of mean {self.mean:+.1f} and standard deviation {self.sd:.1f}"
        )

    def json(self) -> dict[str, object]:
        return {"family": self.family, "mean": round(self.mean, 2), "sd": round(self.sd, 2)}


def spread_for(variant: Variant, policy: str, endgame: int, strong: int) -> Spread | None:
    """The spread `bid` applies to ``variant``'s deals played by ``policy``, or None: for
    another policy, exact endgames, a strong check, or a family with no fit."""
    from meldcalc.engines.policies import DEFAULT

    if policy != DEFAULT or endgame or strong:
        return None
    key = family_of(variant)
    fitted = _load().get(key)
    if fitted is None:
        return None
    mean, sd, network, digest = fitted
    if network != network_played(variant) or digest != network_digest(network):
        raise MeldcalcError(
            f"{FITS}: family {key!r} was fitted to another network than"
            f" meldcalc/engines/{network_played(variant)}: reinstall meldcalc (or fit it"
            " again: bench/fit_spread.py)"
        )
    total = variant.trick_total
    return Spread(key, mean * total, sd * total, variant.trick_step, total)


def network_played(variant: Variant) -> str:
    """The file of the shipped network ``variant``'s table plays."""
    from meldcalc.engines.learned import network_file

    return network_file(variant.deck.copies, variant.players, variant.paired)


def family_of(variant: Variant) -> str:
    """The family of games a fit serves: the bid model's (`meldcalc.dealing.bidmodel.family`:
    the copies of each card, the seats, a widow), and ``+pass`` where cards are passed
    before play (the Toby Thomas exchange plays double deck's hands, but not as dealt)."""
    from meldcalc.dealing.bidmodel import family

    return family(variant) + ("+pass" if variant.passing is not None else "")


@cache
def network_digest(name: str) -> str:
    """The SHA-256 of the shipped network ``name``'s weights as JSON (keys sorted, so a file
    saved with other spacing or line ends is the same network), which a fit names. The
    network's own loader reads them: a damaged weights file is its error, not the spread's."""
    from meldcalc.engines.learned import shipped, shipped_data

    shipped(name)  # checked as the network, first
    canonical = json.dumps(shipped_data(name), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


#: A fit: its mean and sd (shares of the trick points), and the network it was fitted to
#: (its file and SHA-256).
Fit = tuple[float, float, str, str]


@cache
def _load() -> dict[str, Fit]:
    """The shipped fits, checked: a regular file of at most `MAX_BYTES` (never a FIFO,
    which would block, or a link to a device), JSON nested no deeper than Python parses."""
    from meldcalc.files import read_shipped_json

    where = Path(str(resources.files("meldcalc.advice") / FITS))
    data = read_shipped_json(where, MAX_BYTES, "the strong table's spread", "reinstall meldcalc")
    return fits_from(data, str(where))


def fits_from(data: object, where: str) -> dict[str, Fit]:
    """Each family's fit from a fits file's content, checked: a damaged file is one clear
    error. Whether a fit's network is the one its game plays is `spread_for`'s to check."""
    if (
        not isinstance(data, dict)
        or type(data.get("format")) is not int
        or data["format"] != FORMAT
    ):
        raise MeldcalcError(f"{where}: not a spread file of format {FORMAT}: reinstall meldcalc")
    families = data.get("families")
    if not isinstance(families, dict) or not families:
        raise MeldcalcError(f"{where}: no families of fits: reinstall meldcalc")
    fits = {}
    for key, fitted in families.items():
        fitted = fitted if isinstance(fitted, dict) else {}
        mean, sd = fitted.get("mean"), fitted.get("sd")
        if not (_number(mean) and _number(sd) and abs(mean) <= LARGEST and 0 <= sd <= LARGEST):
            raise MeldcalcError(
                f"{where}: family {key!r}: expected a mean within ±{LARGEST} and a standard"
                f" deviation from 0 to {LARGEST}, shares of the trick points: reinstall meldcalc"
            )
        network, digest = fitted.get("network"), fitted.get("network_sha256")
        if not (isinstance(network, str) and isinstance(digest, str)):
            raise MeldcalcError(
                f"{where}: family {key!r}: expected the network it was fitted to (its file"
                " and SHA-256): reinstall meldcalc"
            )
        fits[key] = (float(mean), float(sd), network, digest)
    return fits


def _number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
