"""Tito: the friendly level. Simple and fast: keeps the melds and the pairs (any pair is as
good as another, live or dead), takes the discard only when it puts more cards in melds,
goes out and announces NA BOA as soon as he can, and never thinks about what the others hold.
A little randomness among near-equal discards makes him human and beatable."""

from __future__ import annotations

import random

from pifecacheta.rules.actions import Action
from pifecacheta.rules.views import PlayerView

from .strategy import Style, decide

__all__ = ["STYLE", "choose_action"]

STYLE = Style(outs_bonus=15.0, noise=3.0)


def choose_action(view: PlayerView, *, rng: random.Random) -> Action | None:
    """Tito's action for ``view`` (None: nothing to do now). See :mod:`.strategy`."""
    return decide(view, STYLE, rng)
