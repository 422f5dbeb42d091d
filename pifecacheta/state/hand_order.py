"""The viewer's own arrangement of its hand (issue 11, item 3), beside the two sorts.

A player drags a card before another one (mouse, or a finger: components/table/hand.py), or
moves it one place with Alt+Left / Alt+Right. The order is kept in this browser's localStorage
(``pc_hand_order``), so it survives a reload, for one table and one round: ``"<code>:<round>|
<id>,<id>,..."`` (card ids with the deck mark, "7H'"). Cards not in it (the card just drawn)
come after the arranged ones, in the chosen sort. Pressing POR NAIPE or POR VALOR goes back to
that sort. The server never reads it: only the page orders the viewer's own cards with it.

JOGOS (``grouped``, localStorage ``pc_hand_groups``, "1" when on) shows the hand as the melds
the game sees instead (``state/hand_groups.py``), for every table until turned off; a sort
pressed, or a card moved by hand, turns it off.

The pure functions are unit-tested in ``tests/state/test_hand_order.py``.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.state.viewer import ViewerState

MAX_CARDS = 16  # more than any hand holds (Pife and Cacheta: 9, 10 after a draw)
MAX_ID = 4  # "10H'"
MAX_KEY = 48  # "<table code>:<round>"


def _clean(shown: Any) -> list[str] | None:
    """``shown`` as a list of distinct short card ids, or None when it is not one (a forged
    event): bad input changes nothing."""
    if not isinstance(shown, list) or not 0 < len(shown) <= MAX_CARDS:
        return None
    if not all(isinstance(c, str) and 0 < len(c) <= MAX_ID for c in shown) or len(set(shown)) != len(shown):
        return None
    return list(shown)


def move_before(shown: Any, card: Any, target: Any) -> list[str] | None:
    """``shown`` (the hand's ids as the page shows them) with ``card`` moved to ``target``'s
    place; the cards between shift by one toward where ``card`` was, as cards slide in a held
    hand. None when nothing changes or the input is not a hand (unknown ids, a forged payload).

    >>> move_before(["A", "B", "C", "D"], "A", "C")
    ['B', 'C', 'A', 'D']
    >>> move_before(["A", "B", "C", "D"], "D", "B")
    ['A', 'D', 'B', 'C']
    >>> move_before(["A", "B"], "A", "A") is None
    True
    """
    ids = _clean(shown)
    if ids is None or card not in ids or target not in ids or card == target:
        return None
    to = ids.index(target)
    ids.remove(card)
    ids.insert(to, card)
    return ids


def nudge(shown: Any, card: Any, step: Any) -> list[str] | None:
    """``shown`` with ``card`` moved ``step`` places (-1: left, 1: right), or None at an end,
    for a step other than ±1, or for input that is not a hand.

    >>> nudge(["A", "B", "C"], "B", 1)
    ['A', 'C', 'B']
    >>> nudge(["A", "B", "C"], "A", -1) is None
    True
    """
    ids = _clean(shown)
    if ids is None or card not in ids or type(step) is not int or step not in (-1, 1):
        return None
    i = ids.index(card)
    j = i + step
    if not 0 <= j < len(ids):
        return None
    ids[i], ids[j] = ids[j], ids[i]
    return ids


def encode(key: Any, ids: list[str]) -> str:
    """The stored form of an arrangement: ``"<key>|<id>,<id>"``; "" for a bad ``key``.

    >>> encode("AB12:3", ["7H", "7H'"])
    "AB12:3|7H,7H'"
    """
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or "|" in key:
        return ""
    return key + "|" + ",".join(ids)


class HandOrderState(rx.State):
    """This browser's arrangement of its hand (localStorage ``pc_hand_order``, see the module
    docstring). ``order_key`` and ``order`` are what the page reads."""

    arranged: str = rx.LocalStorage("", name="pc_hand_order")
    grouped: str = rx.LocalStorage("", name="pc_hand_groups")  # "1": JOGOS on

    @rx.var
    def order_key(self) -> str:
        """The table and round the arrangement is for ("<code>:<round>"), "" for none."""
        return self.arranged.split("|", 1)[0] if "|" in self.arranged else ""

    @rx.var
    def order(self) -> list[str]:
        """The arranged card ids, left to right."""
        return [c for c in self.arranged.split("|", 1)[1].split(",") if c] if "|" in self.arranged else []

    @rx.event
    def drop(self, card: str, target: str, shown: list[str], key: str) -> None:
        """``card`` dropped on ``target`` in a hand shown as ``shown`` at ``key``'s table and
        round: ``card`` takes ``target``'s place (:func:`move_before`)."""
        self._keep(key, move_before(shown, card, target))

    @rx.event
    def nudge(self, card: str, step: int, shown: list[str], key: str) -> None:
        """Alt+Left / Alt+Right on ``card``: one place left (``step`` -1) or right (1)."""
        self._keep(key, nudge(shown, card, step))

    @rx.event
    async def sort_by(self, rank: bool) -> None:
        """POR NAIPE (``rank`` False) or POR VALOR (True): that sort, the arrangement dropped.
        Anything but a bool (a forged event) changes nothing."""
        if not isinstance(rank, bool):
            return
        self.arranged, self.grouped = "", ""
        viewer = await self.get_state(ViewerState)
        viewer.sort_rank = "1" if rank else ""

    @rx.event
    def toggle_groups(self) -> None:
        """JOGOS: show the hand as its melds, or (pressed again) as before."""
        self.grouped = "" if self.grouped else "1"

    def _keep(self, key: Any, ids: list[str] | None) -> None:
        if ids is not None:
            stored = encode(key, ids)
            if stored:
                self.arranged, self.grouped = stored, ""
