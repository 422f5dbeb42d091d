"""The bots Carmen, Tito and Luna (seed 000 line 70): pure policies on a PlayerView.

A bot is a function ``choose_action(view, *, rng) -> Action | None``; it receives only its own
:class:`~pifecacheta.rules.views.PlayerView` (from ``player_view(match, seat)``), never a
Match, so it cannot see other hands. None means "nothing to do now" (not its turn, no NA BOA
to announce). Levels: Tito (friendly, simple), Carmen (careful), Luna (strongest: a
determinized search over the cards she cannot see, :mod:`.luna`); see :mod:`.strategy` for
how Carmen and Tito decide and ``bench/bench_bots.py`` for their win rates.

>>> from pifecacheta.rules import CACHETA_7, new_match, player_view
>>> m = new_match(CACHETA_7, 3, seed=5)
>>> v = player_view(m, m.round.turn)
>>> type(bot_action("Luna", v, random.Random(0))).__name__ in ("Draw", "AnnounceOneAway")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pifecacheta.rules.actions import Action
from pifecacheta.rules.views import PlayerView

from . import carmen, luna, tito

__all__ = ["BOTS", "BotFn", "bot_action"]

#: ``choose_action(view, *, rng)``
BotFn = Callable[..., "Action | None"]

BOTS: dict[str, BotFn] = {
    "Carmen": carmen.choose_action,
    "Tito": tito.choose_action,
    "Luna": luna.choose_action,
}


def bot_action(name: str, view: PlayerView, rng: random.Random) -> Action | None:
    """The action bot ``name`` ("Carmen", "Tito" or "Luna") takes for ``view``, or None.

    Raises:
        KeyError: unknown bot name.
    """
    return BOTS[name](view, rng=rng)
