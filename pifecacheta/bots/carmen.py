"""Carmen: careful. Values pairs by their live outs (copies of the completing faces she cannot
see), prefers one-away hands with many live outs, takes the discard only when it really pays,
and discards defensively against the next player and anyone who announced NA BOA (faces next
to what they picked up are dangerous, faces they threw away are safe)."""

from __future__ import annotations

import random

from pifecacheta.rules.actions import Action
from pifecacheta.rules.views import PlayerView

from .strategy import Style, decide

__all__ = ["STYLE", "choose_action"]

STYLE = Style(live_weight=2.0, outs_bonus=20.0, outs_weight=4.0, defence=3.0, take_margin=2.0)


def choose_action(view: PlayerView, *, rng: random.Random) -> Action | None:
    """Carmen's action for ``view`` (None: nothing to do now). See :mod:`.strategy`."""
    return decide(view, STYLE, rng)
