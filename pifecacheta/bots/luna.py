"""Luna: the strongest. Everything Carmen does, plus a one-draw lookahead: each possible discard
is valued by the expected number of extra melded cards after the next draw, over the cards she
cannot see (weighted by unseen copies). Defends against every opponent in Pife (anyone can go
out on a discard) and the next / announced players in Cacheta, and announces NA BOA only when
an out is still live (announcing a dead hand only tells the table to be careful)."""

from __future__ import annotations

import random

from pifecacheta.rules.actions import Action
from pifecacheta.rules.views import PlayerView

from .strategy import Style, decide

__all__ = ["STYLE", "choose_action"]

STYLE = Style(
    live_weight=2.0,
    outs_bonus=20.0,
    outs_weight=5.0,
    lookahead=2.0,
    defence=3.0,
    defend_all=True,
    take_margin=2.0,
    announce_needs_live=True,
)


def choose_action(view: PlayerView, *, rng: random.Random) -> Action | None:
    """Luna's action for ``view`` (None: nothing to do now). See :mod:`.strategy`."""
    return decide(view, STYLE, rng)
