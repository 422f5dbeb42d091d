"""Luna: the strongest. Everything Carmen does, plus a one-draw lookahead: each possible discard
is valued by the expected number of extra melded cards after the next draw, over the cards she
cannot see (weighted by unseen copies). In Cacheta she values live outs more (most rounds
are won by jumping the queue on someone's discard after NA BOA, so the number of live outs
is what wins). Defends against every opponent in Pife (anyone can go out
on a discard, "louca"), but in Cacheta only against announced players, who can jump on the
discard (the face an announced player last threw is safe against them); holding back cards
for the next player's plain pick cost her more races than it saved (bench: 45% -> 51% vs 3
greedy over the same 400 seeds). Announces NA BOA only when an out is still live (announcing
a dead hand only tells the table to be careful)."""

from __future__ import annotations

import random
from dataclasses import replace

from pifecacheta.rules.actions import Action
from pifecacheta.rules.config import Mode
from pifecacheta.rules.views import PlayerView

from .strategy import Style, decide

__all__ = ["STYLE", "STYLE_CACHETA", "choose_action"]

STYLE = Style(
    live_weight=2.0,
    outs_bonus=20.0,
    outs_weight=5.0,
    lookahead=2.0,
    defence=3.0,
    defend_all=True,
    take_margin=2.0,
    announce_needs_live=True,
    cacheta_announced_only=True,
)

#: Cacheta: live outs weigh more (jumping the queue after NA BOA wins most rounds).
STYLE_CACHETA = replace(STYLE, live_weight=3.0, outs_weight=8.0)


def choose_action(view: PlayerView, *, rng: random.Random) -> Action | None:
    """Luna's action for ``view`` (None: nothing to do now). See :mod:`.strategy`."""
    return decide(view, STYLE if view.rules.mode is Mode.PIFE else STYLE_CACHETA, rng)
