"""The home page: create a table (Pife, or Cacheta with 7 or 10 lives) under your name.

Seed 000 line 48: the creator picks Pife or Cacheta with 7 or 10 lives; line 46: the creator
sends the invite link. Creating sits the creator at seat 0 and opens ``/mesa/<code>``.
Under the game, the house rules (seed 000 "Variações" and lines 33-38: ``service.HOUSE_RULES``,
only those that fit the game) and Dicas, all off until ticked.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import reflex as rx

from pifecacheta import live
from pifecacheta.live.redis_feed import redis_url
from pifecacheta.service import HOUSE_RULES, get_service, house_rules_for
from pifecacheta.state import browser_scripts
from pifecacheta.state.name_limit import TOO_LONG, fits
from pifecacheta.state.viewer import ViewerState

MODES: tuple[str, ...] = ("pife", "cacheta7", "cacheta10")


def rules_for(mode: str, house: Sequence[str] = ()) -> Any:
    """The engine ``Rules`` of a lobby choice, "pife", "cacheta7" or "cacheta10", with the
    house rules ``house`` that fit that game turned on (a wild rule ticked before switching to
    Pife is left out: Pife has no wild, seed 000 line 60).

    >>> rules_for("cacheta10").lives
    10
    >>> r = rules_for("pife", ["wild_same_colour", "set_may_repeat_suit"])
    >>> r.set_may_repeat_suit, r.wild_same_colour
    (True, False)

    Raises:
        ValueError: unknown choice.
    """
    from pifecacheta.rules import CACHETA_7, CACHETA_10, PIFE

    try:
        base = {"pife": PIFE, "cacheta7": CACHETA_7, "cacheta10": CACHETA_10}[mode]
    except KeyError:
        raise ValueError(f"unknown mode {mode!r}") from None
    fits = house_rules_for(base.mode)
    on: dict[str, Any] = {name: True for name in house if name in fits}
    return dataclasses.replace(base, **on)


def house_choices(mode: str) -> list[str]:
    """The house rules the lobby offers for ``mode`` (a lobby choice; unknown: none).

    >>> house_choices("pife")
    ['set_may_repeat_suit', 'discard_only_to_go_out', 'rebuild_without_shuffle']
    """
    try:
        return list(house_rules_for(rules_for(mode).mode))
    except ValueError:
        return []


def stored_choice(text: str) -> tuple[str, list[str], bool] | None:
    """The form's choices kept in the browser (``LobbyState.choice``): ``(mode, house, hints)``,
    the mode one of ``MODES``, the house rules known names in ``HOUSE_RULES``' order; None when
    ``text`` is empty or not such a JSON object (another version's value, a hand-edited one).

    >>> stored_choice('{"mode": "pife", "house": ["x", "set_may_repeat_suit"], "hints": true}')
    ('pife', ['set_may_repeat_suit'], True)
    >>> stored_choice('{"mode": "poker"}') is None, stored_choice("[") is None
    (True, True)
    """
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("mode") not in MODES:
        return None
    house = data.get("house")
    chosen = house if isinstance(house, list) else []
    return data["mode"], [r for r in HOUSE_RULES if r in chosen], data.get("hints") is True


class LobbyState(rx.State):
    """The create-a-table form. Its choices (the game, the house rules, Dicas) are kept in the
    browser's storage, so the form shows them again on the next visit, after a reload or a
    table, until changed."""

    mode: str = "cacheta7"
    name_input: str = ""
    message: str = ""
    house: list[str] = []  # the house rules ticked (names of ``service.HOUSE_RULES``)
    hints: bool = False  # Dicas ticked
    choice: str = rx.LocalStorage("", name="pc_lobby")  # JSON: see stored_choice
    # the table this visit of the lobby created (server only): a second CRIAR MESA of the same
    # visit (a double click; the page has not left yet) opens it instead of creating another
    _created: str = ""

    @rx.var
    def house_offered(self) -> list[str]:
        """The house rules listed for the chosen game (the wild ones only for Cacheta)."""
        return house_choices(self.mode)

    @rx.var
    def house_applies(self) -> list[str]:
        """The ticked house rules that the chosen game offers: what "Regras da casa (n)" counts
        and what CRIAR MESA turns on. A Cacheta-only rule ticked before picking Pife stays in
        ``house`` (ticked again on going back to Cacheta) but is not counted for Pife."""
        offered = house_choices(self.mode)
        return [r for r in self.house if r in offered]

    @rx.event
    async def load(self) -> None:
        """Prefill the name this browser used last time and the choices it made last (the game,
        the house rules, Dicas); this tab shows no table any more, so it stops watching the one
        it came from on the live feed."""
        live.current().unwatch(live.tab_of(self).token)
        session = await self.get_state(ViewerState)
        self.name_input = self.name_input or session.name
        self.message = ""
        self._created = ""
        kept = stored_choice(self.choice)
        if kept is not None:
            self.mode, self.house, self.hints = kept

    def _keep_choice(self) -> None:
        """Store the form's choices in the browser (``choice``) for its next visit."""
        self.choice = json.dumps({"mode": self.mode, "house": self.house, "hints": self.hints})

    @rx.event
    def set_mode(self, mode: str | list[str]) -> None:
        """Pick Pife / Cacheta 7 / Cacheta 10."""
        mode = mode[0] if isinstance(mode, list) else mode
        if mode in MODES:
            self.mode = mode
            self._keep_choice()

    @rx.event
    def set_house(self, name: str, on: bool) -> None:
        """Tick or untick the house rule ``name``; an unknown name or a value that is not a
        bool changes nothing."""
        if name not in HOUSE_RULES or type(on) is not bool:
            return
        chosen = [r for r in self.house if r != name]
        self.house = [r for r in HOUSE_RULES if r in chosen or (on and r == name)]
        self._keep_choice()

    @rx.event
    def set_hints(self, on: bool) -> None:
        """Tick or untick Dicas (a value that is not a bool changes nothing)."""
        if type(on) is bool:
            self.hints = on
            self._keep_choice()

    @rx.event
    def set_name_input(self, name: str) -> None:
        """The name field. A name longer than ``NAME_MAX`` (only a forged event: the box stops
        at 24) is refused with ``err.name_too_long`` and the name typed so far is kept."""
        if not fits(name):
            self.message = TOO_LONG
            return
        self.name_input = name
        if self.message == TOO_LONG:
            self.message = ""

    @rx.event
    async def create(self) -> Any:
        """CRIAR MESA: create the table, sit at seat 0 and open its page (the service calls run
        in a worker thread). In a cluster (``REFLEX_REDIS_URL``) the page is loaded anew rather
        than reached in the app: its load gets the table cookie and its new websocket goes to
        the table's backend (``pifecacheta/proxy_conf.py``), where the invited players' tabs go;
        the lobby's socket would have stayed on whichever backend the lobby had. A second press
        in the same visit of the lobby (a double click) opens the table the first one created."""
        from pifecacheta.state.table import error_key

        if self._created:
            return self._open(self._created)
        if not self.name_input.strip():
            self.message = "err.bad_name"
            return None
        session = await self.get_state(ViewerState)
        try:
            who = await session._identity(self.name_input.strip())
            rules = rules_for(self.mode, self.house)
            code = await asyncio.to_thread(get_service().create_table, who, rules, hints=self.hints)
        except ValueError as exc:
            if not hasattr(exc, "code"):
                raise
            self.message = error_key(exc)
            return None
        self.message = ""
        self._created = code
        return self._open(code)

    @staticmethod
    def _open(code: str) -> Any:
        """The event that opens table ``code``'s page (a page load in a cluster, see
        :meth:`create`)."""
        if redis_url():  # a cluster: a page load, so the proxy puts the tab on the table's backend
            return rx.call_script(browser_scripts.load_page(f"/mesa/{code}"))
        return rx.redirect(f"/mesa/{code}")
