"""Luna v1: rules plus a one-draw lookahead, the Luna before the search one (:mod:`.luna`),
kept as ``luna_v1`` for the head-to-head in ``bench/bench_bots.py``. Every 9-card hand left
after a discard is valued by the expected number of extra melded cards after the next draw,
over the cards she cannot see (weighted by unseen copies).

- Cacheta: live outs weigh more (:data:`STYLE_CACHETA`), since most rounds are won by jumping
  the queue on someone's discard after NA BOA (seed 000 line 64). She defends only against
  announced players, who can jump on any discard of an out (the face an announced player last
  threw is safe against them), and keeps no cards back from the next player's plain pick.
- Pife: defends against every opponent, since anyone can go out on a discard ("louca", seed
  000 line 60).
- Announces NA BOA only when an out is still live: announcing a dead hand only tells the
  table to be careful.

``bench/bench_bots.py`` measures her win rate against the baselines."""

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
