"""This browser's viewer state: language, deck design, hand order and the private player identity.

Everything here is remembered in the browser's localStorage (not ``client_token``, which is
per tab): a random player id + secret handed out by ``service.identify`` and a display name
(docs/ARCHITECTURE.md "Identity"). The language follows the browser on the first visit (pt or
es, default pt) and then whatever the player picks; the deck design changes only what this
viewer sees (seed 000 line 75).
"""

from __future__ import annotations

import asyncio
from typing import Any

import reflex as rx

from pifecacheta import i18n
from pifecacheta.service import get_service

DECKS: tuple[str, ...] = ("classic", "four", "large")  # two-colour, four-colour, large index


class ViewerState(rx.State):
    """Per-browser preferences and identity (all in localStorage)."""

    lang: str = rx.LocalStorage("", name="pc_lang", sync=True)
    deck: str = rx.LocalStorage("", name="pc_deck", sync=True)
    sort_rank: str = rx.LocalStorage("", name="pc_sort")  # "1": by rank, else by suit
    player_id: str = rx.LocalStorage("", name="pc_player")
    secret: str = rx.LocalStorage("", name="pc_secret")
    name: str = rx.LocalStorage("", name="pc_name")
    _verified: tuple[str, str, str] | None = None  # (player_id, secret, name) identify accepted
    _verified_name: str = ""

    @rx.var
    def t(self) -> dict[str, str]:
        """The interface strings of the current language (``{key: text}``)."""
        return i18n.catalog(i18n.normalise_language(self.lang))

    @rx.var
    def language(self) -> str:
        """The effective language code, "pt" or "es"."""
        return i18n.normalise_language(self.lang)

    @rx.var
    def deck_design(self) -> str:
        """The effective deck design: classic, four or large."""
        return self.deck if self.deck in DECKS else "classic"

    @rx.var
    def by_rank(self) -> bool:
        """True when the hand is sorted by rank rather than by suit."""
        return self.sort_rank == "1"

    @rx.event
    async def init(self) -> None:
        """On every page load: pick the language on the first visit, then get an identity."""
        if self.lang not in i18n.LANGUAGES:
            self.lang = i18n.pick_language(self.router.headers.accept_language or "")
        await self._identity()

    @rx.event
    def set_language(self, lang: str) -> None:
        """Switch the interface language ("pt" or "es"); remembered in this browser."""
        self.lang = i18n.normalise_language(lang)

    @rx.event
    def set_deck(self, deck: str) -> None:
        """Choose the deck design (classic, four, large); affects only this viewer."""
        if deck in DECKS:
            self.deck = deck

    @rx.event
    def toggle_sort(self) -> None:
        """Switch the hand order between by suit and by rank."""
        self.sort_rank = "" if self.sort_rank == "1" else "1"

    async def _identity(self, name: str | None = None) -> Any:
        """Ask the service who this browser is (a new identity if unknown) and remember it.

        ``name``: a new display name (sanitised by the service, 1-24 characters). The service
        call (a write transaction) runs in a worker thread. Returns the service's
        ``Identity``. Raises ``Refusal("bad_name")`` for a bad name.
        """
        if not name and self._verified and self._verified == (self.player_id, self.secret, self.name):
            # already checked by this tab (the table page's on_load asks twice): a player row is
            # never deleted and its secret never changes, so the answer cannot have changed
            from pifecacheta.service import Identity

            return Identity(player_id=self.player_id, secret=self.secret, name=self._verified_name)
        who = await asyncio.to_thread(
            get_service().identify, self.player_id or None, self.secret or None, name or self.name or None
        )
        self.player_id, self.secret = who.player_id, who.secret
        if name or self.name:
            self.name = who.name
        self._verified = (self.player_id, self.secret, self.name)
        self._verified_name = who.name
        return who
