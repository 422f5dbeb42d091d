"""This browser's viewer state: language, deck design, hand order and the private player identity.

Everything here is remembered in the browser's localStorage (not ``client_token``, which is
per tab): a random player id + secret handed out by ``service.identify`` and a display name
(docs/ARCHITECTURE.md "Identity"). A secret the player replaced on another browser (Meu acesso,
``service.replace_secret``) sets ``replaced``: this browser's pages send it to ``/acesso``,
which says the access was replaced, instead of making it a new player. The language follows the
browser on the first visit (pt or es, default pt) and then whatever the player picks; the deck
design changes only what this viewer sees (seed 000 line 75).
"""

from __future__ import annotations

import asyncio
import builtins
from typing import Any

import reflex as rx
from reflex_base.constants.state import FIELD_MARKER

from pifecacheta import i18n
from pifecacheta.components.reflex_private import override_base_method
from pifecacheta.service import get_service
from pifecacheta.state.browser_scripts import LANG_STORAGE

SECRET_KEY = "secret" + FIELD_MARKER  # the secret's name in a delta (Reflex's field marker)

DECKS: tuple[str, ...] = ("classic", "four", "large")  # two-colour, four-colour, large index


class ViewerState(rx.State):
    """Per-browser preferences and identity (all in localStorage).

    The secret goes to the browser only when it changes (a new player, a replaced secret, a
    personal link opened here): the full state sent on every page load and every other delta
    leave it out (:meth:`dict`, :meth:`get_delta`), so a page's frames carry it only then.
    The browser still sends it with each page load (Reflex hydrates localStorage values).
    """

    lang: str = rx.LocalStorage("", name=LANG_STORAGE, sync=True)
    deck: str = rx.LocalStorage("", name="pc_deck", sync=True)
    sort_rank: str = rx.LocalStorage("", name="pc_sort")  # "1": by rank, else by suit
    player_id: str = rx.LocalStorage("", name="pc_player")
    # sync: a key replaced in one tab reaches this browser's other tabs (state/access.py)
    secret: str = rx.LocalStorage("", name="pc_secret", sync=True)
    name: str = rx.LocalStorage("", name="pc_name")
    replaced: bool = False  # this browser's secret was replaced on another one (Meu acesso)
    _verified: tuple[str, str, str] | None = None  # (player_id, secret, name) identify accepted
    _verified_name: str = ""
    _send_secret: bool = False  # the secret changed: the next delta writes it to localStorage

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
    async def init(self) -> Any:
        """On every page load: pick the language on the first visit, then get an identity.

        A replaced secret (``replaced``) sends every page but ``/acesso`` there."""
        self.pick_language()
        self._verified = None  # each page load asks the service again (the secret may be replaced)
        await self._identity()
        if self.replaced and not str(self.router.url.path or "").startswith("/acesso"):
            return rx.redirect("/acesso", replace=True)
        return None

    def pick_language(self) -> None:
        """On the first visit: the browser's language (pt or es), then whatever the player picks."""
        if self.lang not in i18n.LANGUAGES:
            self.lang = i18n.pick_language(self.router.headers.accept_language or "")

    def known_name(self) -> str:
        """The player's name as the service last gave it in this page load ("Jogador NNN" for a
        new player who typed none), else the name this browser remembers."""
        return self._verified_name or self.name

    async def renew_secret(self) -> None:
        """A new secret for this player, kept here; every other browser and every earlier
        personal link is cut off (``service.replace_secret``). A secret already replaced
        elsewhere sets ``replaced`` instead."""
        from pifecacheta.service import Identity, Refusal

        who = Identity(player_id=self.player_id, secret=self.secret, name=self.name)
        try:
            new = await asyncio.to_thread(get_service().replace_secret, who)
        except Refusal:
            self.replaced = True
            return
        self._keep_secret(new.secret)
        self._verified = (self.player_id, self.secret, self.name)
        self._verified_name = new.name

    @rx.event
    async def start_fresh(self) -> Any:
        """After a replaced access: forget the old identity, become a new player, go home."""
        self.player_id = ""
        self._keep_secret("")
        self.replaced = False
        self._verified = None
        await self._identity()
        return rx.redirect("/")

    @rx.event
    async def check_access(self) -> Any:
        """A table tab that stopped showing this viewer's seat asks whether the secret was
        replaced on another browser; if so it goes to ``/acesso``, which says so. A key
        replaced in another tab of this browser (synced here) reloads the table with it."""
        from pifecacheta.service import AccessReplaced
        from pifecacheta.state.table import TableState

        if not self.player_id or not self.secret:
            return None
        try:
            await asyncio.to_thread(get_service().recognise, self.player_id, self.secret)
        except AccessReplaced:
            self.replaced = True
            return rx.redirect("/acesso", replace=True)
        table = await self.get_state(TableState)
        if table.me == self.player_id and table._secret != self.secret:
            return TableState.load
        return None

    def adopt(self, player_id: str, secret: str, name: str) -> None:
        """Make this browser the player of a personal link (already recognised by the service)."""
        self.player_id, self.name = player_id, name
        self._keep_secret(secret)
        self.replaced = False
        self._verified = (player_id, secret, name)
        self._verified_name = name

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
        ``Identity``. Raises ``Refusal("bad_name")`` for a bad name. A replaced secret sets
        ``replaced`` and returns an identity with no secret (every service call then refuses it,
        a snapshot shows the table as to a spectator).
        """
        if not name and self._verified and self._verified == (self.player_id, self.secret, self.name):
            # already checked in this page load (the table page's on_load asks twice; init
            # clears the check on every load, so a secret replaced meanwhile is seen there)
            from pifecacheta.service import Identity

            return Identity(player_id=self.player_id, secret=self.secret, name=self._verified_name)
        from pifecacheta.service import AccessReplaced, Identity

        try:
            who = await asyncio.to_thread(
                get_service().identify,
                self.player_id or None,
                self.secret or None,
                name or self.name or None,
                lang=self.language,
            )
        except AccessReplaced:
            self.replaced = True
            self._verified = None
            return Identity(player_id=self.player_id, secret="", name=self.name)
        self.replaced = False
        self.player_id = who.player_id
        self._keep_secret(who.secret)
        if name or self.name:
            self.name = who.name
        self._verified = (self.player_id, self.secret, self.name)
        self._verified_name = who.name
        return who

    @override_base_method
    def dict(
        self, include_computed: bool = True, initial: bool = False, **kwargs: Any
    ) -> builtins.dict[str, Any]:
        """The state as Reflex sends it whole (a page load's hydrate), without the secret."""
        d = super().dict(include_computed=include_computed, initial=initial, **kwargs)
        d.get(self.get_full_name(), {}).pop(SECRET_KEY, None)
        return d

    @override_base_method
    def get_delta(self) -> Any:
        """This state's delta (Reflex's documented override point), with the secret only when it
        changed since the browser last got it (:meth:`_keep_secret`)."""
        delta = super().get_delta()
        if not self._send_secret:
            delta.get(self.get_full_name(), {}).pop(SECRET_KEY, None)
        self._send_secret = False
        return delta

    def _keep_secret(self, secret: str) -> None:
        """Set the secret; a change is written to this browser's localStorage by the next delta."""
        if secret != self.secret:
            self.secret = secret
            self._send_secret = True
