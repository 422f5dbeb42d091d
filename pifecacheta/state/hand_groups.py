"""The viewer's hand as the melds the game sees (issue 11, item 3: JOGOS / JUEGOS beside the
two sorts): its best arrangement, from the viewer's own ``PlayerView`` only, then the loose
cards.

The arrangement is the engine's: when the hand goes out (seed 000 line 56), the solver's own
plan (``rules.solver.best_go_out``: its melds, the discard loose); otherwise as many cards as
disjoint melds can hold (``bots.hand.HandIndex.max_cover``, the count the Dicas use), those
cards laid out by the solver in melds (sets and runs, seed 000 line 52; a wild standing in for
one card, line 62; a wild taken from the pile counts only as itself). Nothing but the
viewer's own cards, the public wild faces and the table's rules is read.

:class:`HandGroupsState` sends the groups to the page only while the viewer has JOGOS on
(``HandOrderState.grouped``, kept in localStorage): the others' tabs compute nothing.
The pure functions are unit-tested in ``tests/state/test_hand_groups.py``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

import reflex as rx

from pifecacheta.bots.hand import HandIndex
from pifecacheta.rules.cards import Card, Face, parse_hand, rank_text, sort_by_rank, sort_by_suit  # noqa: F401 (doctests)
from pifecacheta.rules.config import Rules
from pifecacheta.rules.melds import Meld, MeldKind, meld_of
from pifecacheta.rules.solver import best_go_out
from pifecacheta.rules.views import PlayerView
from pifecacheta.state.hand_order import HandOrderState
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import CardUi, card_ui
from pifecacheta.state.view_model import just_drawn
from pifecacheta.state.viewer import ViewerState

log = logging.getLogger(__name__)


@dataclasses.dataclass
class GroupUi:
    """One group of the hand as the page shows it.

    ``kind``: "set" (trinca), "run" (sequência) or "loose" (the cards in no meld, last);
    ``rank``: a set's rank ("7", "A"); ``suit``: a run's suit ("H"); ``low`` / ``high``: a
    run's first and last rank as laid out ("4", "6"; "Q" to "A" for Q-K-A), a wild counted at
    the place it stands in; ``start``: the position of the group's first card in the hand as
    shown (the groups one after the other); ``cards``: its cards in display order.
    """

    kind: str = ""
    rank: str = ""
    suit: str = ""
    low: str = ""
    high: str = ""
    start: int = 0
    cards: list[CardUi] = dataclasses.field(default_factory=list)


def _cover_melds(idx: HandIndex) -> list[int]:
    """Disjoint melds (bitmasks over ``idx.cards``) holding as many cards as any can, chosen
    the same way every time: at the lowest card left, the first meld of ``idx.melds`` that
    keeps the best count, else that card left out."""
    mask, chosen = idx.full, []
    while mask:
        best = idx.max_cover(mask)
        if best == 0:
            break
        low = mask & -mask
        take = next(
            (
                m
                for m in idx.melds
                if m & low and m & mask == m and m.bit_count() + idx.max_cover(mask ^ m) == best
            ),
            None,
        )
        if take is None:
            mask ^= low
        else:
            chosen.append(take)
            mask ^= take
    return chosen


def arrange(
    hand: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    rules: Rules,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """The melds of ``hand`` in its best arrangement under ``rules`` and the wild faces
    ``wilds`` (``plain``: wilds that count only as themselves), and the cards left out of
    them in hand order, as the module docstring says.

    >>> from pifecacheta.rules import PIFE
    >>> melds, loose = arrange(parse_hand("5H 6H 7H 9C 9D 9S KS 2C 3D 8S"), rules=PIFE)
    >>> [str(m) for m in melds], [str(c) for c in loose]
    (['5H 6H 7H', '9C 9D 9S'], ['KS', '2C', '3D', '8S'])
    >>> melds, loose = arrange(parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S"), rules=PIFE)  # goes out
    >>> [str(m) for m in melds], [str(c) for c in loose]
    (['AH 2H 3H', 'QS KS AS', '7C 7D 7H'], ['9S'])
    """
    cards = tuple(hand)
    if not cards:
        return (), ()
    plan = best_go_out(cards, wilds=wilds, plain=plain, rules=rules)
    if plan is None:
        idx = HandIndex.of(cards, wilds=wilds, plain=plain, rules=rules)
        masks = _cover_melds(idx)
        held = [c for i, c in enumerate(cards) if any(m >> i & 1 for m in masks)]
        plan = best_go_out(held, wilds=wilds, plain=plain, rules=rules) if len(held) >= 3 else None
        if plan is None or plan.discard is not None:  # the solver saw them otherwise: each meld alone
            picked = ([c for i, c in enumerate(cards) if m >> i & 1] for m in masks)
            found = (meld_of(p, wilds=wilds, plain=plain, rules=rules) for p in picked)
            melds: tuple[Meld, ...] = tuple(m for m in found if m is not None)
        else:
            melds = plan.melds
    else:
        melds = plan.melds
    in_melds = {c for m in melds for c in m.cards}
    return melds, tuple(c for c in cards if c not in in_melds)


def _run_ends(meld: Meld) -> tuple[str, str]:
    """The first and last rank of a run as laid out ("4", "6"; "Q", "A" for Q-K-A), a wild
    counted as the card it stands in for."""
    size = len(meld.cards)
    j, card = next((j, c) for j, c in enumerate(meld.cards) if c != meld.wild)
    pos = 14 if card.rank == 1 and j > 0 else card.rank  # the ace after the king
    low = pos - j
    return rank_text(low if low <= 13 else 1), rank_text(low + size - 1 if low + size - 1 <= 13 else 1)


def group_of(meld: Meld, cards: list[CardUi], start: int) -> GroupUi:
    """The :class:`GroupUi` of ``meld`` whose cards, as shown, are ``cards`` from ``start``."""
    natural = next(c for c in meld.cards if c != meld.wild)
    if meld.kind is MeldKind.SET:
        return GroupUi(kind="set", rank=rank_text(natural.rank), start=start, cards=cards)
    low, high = _run_ends(meld)
    return GroupUi(kind="run", suit=natural.code[-1], low=low, high=high, start=start, cards=cards)


def hand_groups(view: PlayerView, *, by_rank: bool = False) -> list[GroupUi]:
    """``view``'s own hand as groups: its melds (:func:`arrange`), then one "loose" group
    of the other cards sorted by rank (``by_rank``) or by suit; [] for an empty hand (a
    spectator's view). Each card as the hand shows it (``card_ui``: wild, taken, drawn)."""
    melds, loose = arrange(
        view.hand, wilds=frozenset(view.wilds), plain=frozenset(view.plain), rules=view.rules
    )
    if not melds and not loose:
        return []
    wilds, plain, drawn = frozenset(view.wilds), frozenset(view.plain), just_drawn(view)

    def shown(cards: Sequence[Card]) -> list[CardUi]:
        return [card_ui(c, wilds=() if c in plain else wilds, taken=view.taken, drawn=drawn) for c in cards]

    groups, start = [], 0
    for meld in melds:
        groups.append(group_of(meld, shown(meld.cards), start))
        start += len(meld.cards)
    if loose:
        order = sort_by_rank(loose) if by_rank else sort_by_suit(loose)
        groups.append(GroupUi(kind="loose", start=start, cards=shown(order)))
    return groups


class HandGroupsState(rx.State):
    """The ``groups`` var: this tab's viewer's hand as :func:`hand_groups`, while JOGOS is on."""

    @rx.var
    async def groups(self) -> list[GroupUi]:
        """The viewer's own hand as groups, read again at each change of the table the tab
        hears; [] while JOGOS is off, on a spectator's or a lobby's tab, or when the table
        cannot be read (the page then shows the hand in its sort)."""
        order = await self.get_state(HandOrderState)
        table = await self.get_state(TableState)
        # the dependencies that read the groups again (Reflex tracks them across states)
        _heard = (order.grouped, table.table_code, table.table_version, table.me)
        if (
            not order.grouped
            or not table.table_code
            or not table.me
            or table.table_code.startswith("player:")
        ):
            return []  # JOGOS off (most tabs): the viewer's state is not even read
        viewer = await self.get_state(ViewerState)
        try:
            snap = await table._snapshot()
        except Exception:  # noqa: BLE001 - ``ui`` reports a failed read; the sort shows meanwhile
            log.debug("table %s: no groups (snapshot failed)", table.table_code, exc_info=True)
            return []
        view = snap.view
        if view is None or view.seat is None:
            return []
        return hand_groups(view, by_rank=viewer.sort_rank == "1")
