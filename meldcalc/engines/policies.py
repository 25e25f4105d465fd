"""The fast policies a play-out may be played by, by name (`--policy`).

- ``learned``: the rules corrected by the network of `meldcalc.engines.learned`, trained
  on the look-ahead player's choices, the default (imported, and its weights read, only
  when played);
- ``rules``: the rules of `meldcalc.engines.simulate` alone, for comparison.
"""

from __future__ import annotations

from meldcalc.engines.simulate import Game
from meldcalc.errors import MeldcalcError

POLICIES = ("learned", "rules")
DEFAULT = "learned"


def policy_class(name: str) -> type[Game]:
    """The `Game` class whose seats play the policy ``name``."""
    if name == "rules":
        return Game
    if name == "learned":
        from meldcalc.engines.learned import OWN, SHARED_NETWORK, Learned, shipped

        for weights in (SHARED_NETWORK, *OWN.values()):  # checked now: a damaged file is an error
            shipped(weights)  # before any play, whichever table plays it
        return Learned
    raise MeldcalcError(f"policy {name!r}: expected one of {', '.join(POLICIES)}")
