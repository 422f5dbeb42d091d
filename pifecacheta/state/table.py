"""The events of one browser tab showing one table (``TableState``).

``TableState`` is private to one browser tab; its ``ui`` var, this viewer's projection of
the table, and the fallback for a failed read are in ``state/table_view.py`` (the mixin
:class:`~pifecacheta.state.table_view.TableView`).

Every action is one service call in a worker thread (:func:`_in_thread`). A change made
here is published on the live feed (``pifecacheta.live``) by the handler itself
(:meth:`TableState._changed`): this tab gets the table's new change count in its own delta,
every other tab watching the table through the feed's push. Changes made outside any event
(bots, sweeps) are published by the feed's service link (``live/service_link.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import reflex as rx

from pifecacheta import live
from pifecacheta.live.service_link import handler_call
from pifecacheta.rules import Phase, PlayerView
from pifecacheta.rules.cards import Card
from pifecacheta.service import (
    BOT_NAMES,
    MAX_SEATS,
    AccessReplaced,
    ChatEmpty,
    ChatRateLimited,
    ChatTooLong,
    Refusal,
    SpectatorCannotChat,
    get_service,
)
from pifecacheta.state import browser_scripts, unanswered
from pifecacheta.state.discard_guard import DiscardGuard, must_confirm
from pifecacheta.state.invite import Invite
from pifecacheta.state.name_limit import TOO_LONG as NAME_TOO_LONG
from pifecacheta.state.name_limit import fits as name_fits
from pifecacheta.state.seating import Seating
from pifecacheta.state.snapshots import CACHE, discard_action, is_refusal
from pifecacheta.state.table_view import TableView
from pifecacheta.state.viewer import ViewerState

log = logging.getLogger(__name__)


def error_key(exc: BaseException) -> str:
    """The catalog key of a refused action's message: ``"err." + exc.code`` when known.

    >>> from pifecacheta.rules.errors import IllegalActionError
    >>> error_key(IllegalActionError("taken_card"))
    'err.taken_card'
    >>> error_key(IllegalActionError("no_such_code"))
    'err.generic'
    """
    from pifecacheta import i18n

    key = "err." + str(getattr(exc, "code", "generic"))
    return key if key in i18n.catalog("pt") else "err.generic"


def _has_drawn(view: PlayerView) -> bool:
    """The viewer has drawn this turn: it is its own discard turn."""
    return view.phase is Phase.DISCARD and view.seat is not None and view.turn == view.seat


def _round_ended(view: PlayerView) -> bool:
    """The round is over (someone went out): a second BATER has nothing left to do."""
    return view.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def _round_left(view: PlayerView) -> bool:
    """The round the viewer pressed PRÓXIMA RODADA on is no longer showing its end."""
    return view.phase is not Phase.ROUND_OVER


# The refusals the chat box shows under the chat (the others float over the top of the page).
CHAT_REFUSALS: frozenset[str] = frozenset(
    "err." + refusal.CODE for refusal in (ChatEmpty, ChatTooLong, ChatRateLimited, SpectatorCannotChat)
)


def bots_to_add(seats: Any) -> list[str]:
    """The bots that fill the free seats: Carmen, Tito, Luna not yet seated, one per free seat.

    ``seats``: the snapshot's ``SeatInfo`` tuple (occupied seats only).
    """
    seated_bots = {s.name for s in seats if s.is_bot}
    free = MAX_SEATS - len(seats)
    return [n for n in BOT_NAMES if n not in seated_bots][: max(0, free)]


async def _in_thread(fn: Any, *args: Any) -> Any:
    """Run a blocking service call in a worker thread, marked as made by an event handler.

    ``asyncio.to_thread`` copies the context, so the call is marked in the thread too and the
    feed's service link does not publish the change a second time (the handler publishes it).
    """
    with handler_call():
        return await asyncio.to_thread(fn, *args)


class TableState(TableView, Seating, Invite, DiscardGuard, rx.State):
    """One tab's view of one table: which table, who I am, my pending selection, messages."""

    table_code: str = ""
    # The card tapped and waiting for a tap on the pile lives in the browser only
    # (components/table/shared.py: SELECTED): a tap costs no round trip, and a double-click's two clicks
    # do not queue two events ahead of the discard.
    dragging: str = ""  # card id being dragged
    message: str = ""  # catalog key of the last refusal, "" when none
    # a new refusal's number: the page shows it until the viewer dismisses that number or
    # acts again (components/table/messages.py: no timer, WCAG 2.2.1)
    message_serial: int = 0
    # The live feed's change count of the table (``LiveFeed.changes``) as this tab last heard
    # it: set by its own actions and by the feed's push. A new value makes a delta, which
    # re-evaluates ``ui``. Not the database's GameTable.version (``ui.version``).
    table_version: int = 0
    join_name: str = ""
    invite_url: str = ""
    me: str = ""  # my player id (not secret)
    _secret: str = ""
    _name: str = ""

    # ---- loading and seating ------------------------------------------------------------
    @rx.event
    async def load(self) -> Any:
        """on_load of ``/mesa/<code>``: identify, watch the table on the live feed (Reflex runs
        on_load again on every reconnect, so a reconnected tab watches again). Nobody is seated
        without pressing SENTAR À MESA (:meth:`sit`), even a browser that has a name. Then ask
        the page for a move it sent as its connection dropped (``state/unanswered.py``), and set
        the table's cookie ``pc_table``, so that a reconnect goes to the table's backend in a
        cluster (``pifecacheta/proxy_conf.py``)."""
        await self._open_table()
        if not self.table_code:
            return None
        ask = rx.call_script(unanswered.ASK_SCRIPT, callback=TableState.replay_unanswered)
        cookie = browser_scripts.table_cookie(self.table_code)  # the cluster's route to this table
        return [rx.call_script(cookie), ask] if cookie else ask

    async def _open_table(self) -> None:
        """The work of :meth:`load`: the table of this event's path, this browser's identity."""
        path = str(self.router.url.path or "")
        code = path.rstrip("/").rsplit("/", 1)[-1] if "/mesa/" in path else ""
        self.table_code = code
        origin = str(getattr(self.router.url, "origin", "") or "")
        self.invite_url = f"{origin}/mesa/{code}" if code else ""
        self.dragging = self.message = ""
        if not code:
            return None
        session = await self.get_state(ViewerState)
        who = await session._identity()
        self.me, self._secret, self._name = who.player_id, who.secret, who.name
        self.table_version = live.current().watch(code, live.tab_of(self))
        self._keep_token()
        self.join_name = session.name
        CACHE.forget_viewer(code, self._who())  # a (re)load shows the table as it is now
        self._reread_view()  # ... even when the table's change count did not move
        await self._refresh_rounds()
        # A load changes nothing: nothing published, the other tabs stay as they are (this
        # tab's ``ui`` is evaluated and sent with this event's delta anyway).

    async def _ensure_open(self) -> None:
        """Before an action (each handler that names the table calls it first): a tab state
        with no table yet opens the table of the event's path.
        After a reconnect the page sends the clicks it queued while offline before its on_load
        runs again, and a fresh state (a restarted process, a new token) has no table yet."""
        if not self.table_code:
            await self._open_table()

    @rx.event
    async def replay_unanswered(self, sent: Any = None) -> Any:
        """The page's answer to :data:`~pifecacheta.state.unanswered.ASK_SCRIPT`: a move it sent
        on an earlier connection with no answer seen. Already made (the action log says so):
        nothing. The table still at that move's version: the move is made now. Else the player
        is told it was not made (``err.lost_in_drop``); the page shows the table as it is."""
        move = unanswered.parse(sent)
        if move is None or not self.table_code or not self.me:
            return None
        kind, args = move
        version = int(args["version"])
        log_rows = await _in_thread(get_service().action_log, self.table_code)
        if unanswered.made(log_rows, self.me, version):
            return None
        if (await self._snapshot()).version != version:
            return await self._refused(Refusal("lost_in_drop", "a move sent as the connection dropped"))
        return await self._replay(kind, args, version)

    async def _replay(self, kind: str, args: dict[str, Any], version: int) -> Any:
        """Make the move ``kind`` (one of ``unanswered.REPLAYABLE``) as its handler would."""
        from pifecacheta.rules import AnnounceOneAway, Draw, GoOut, NextRound, TakeDiscard

        if kind == "draw":
            return await self._act_unless_done(Draw(), version, _has_drawn)
        if kind == "take" or (kind == "pile_click" and args.get("phase") == "draw"):
            return await self._act_unless_done(TakeDiscard(), version, _has_drawn)
        if kind in ("card_double", "pile_click"):
            return await self._discard(str(args.get("card_id") or args.get("selected") or ""), version)
        if kind == "next_round":
            return await self._act_unless_done(NextRound(), version, _round_left)
        return await self._act(GoOut() if kind == "go_out" else AnnounceOneAway(), version)

    async def _join(self) -> int | None:
        """service.join: my seat, or None (a spectator, or refused: the message says why)."""
        try:
            seat = await _in_thread(get_service().join, self.table_code, self._who())
            return None if seat is None else int(seat)
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            if getattr(exc, "code", "") != "table_not_found":
                await self._refused(exc)
        return None

    @rx.event
    def set_join_name(self, name: str) -> None:
        """The name typed by someone arriving through the invite link. A name longer than
        ``NAME_MAX`` (a forged event) is refused with ``err.name_too_long``, nothing changed."""
        if not name_fits(name):
            self.message = NAME_TOO_LONG
            self.message_serial += 1
            return
        self.join_name = name

    @rx.event
    async def sit(self) -> Any:
        """SENTAR À MESA: sit with the typed name (seed 000 line 46: whoever opens the link may sit)."""
        from pifecacheta.service import Refusal

        session = await self.get_state(ViewerState)
        typed = self.join_name.strip()
        if not typed and not session.name:
            # the same rule as CRIAR MESA: a name is needed (no made-up "Jogador NNN" in pt)
            return await self._refused(Refusal("bad_name"))
        try:
            who = await session._identity(typed or None)
        except Exception as exc:  # noqa: BLE001
            if is_refusal(exc):
                return await self._refused(exc)
            raise
        self.me, self._secret, self._name = who.player_id, who.secret, who.name
        self.message = ""
        if await self._join() is None and not self.message:
            # the last seat went (or the match began) after the form was shown: say so
            await self._refused(Refusal("no_seat"))
        return await self._changed()

    @rx.event
    async def start(self) -> Any:
        """COMEÇAR: the creator starts the match (>= 2 seated). A press after the match began
        (the second click of a double click, or another of the creator's tabs) says nothing:
        the table already shows the match."""
        await self._ensure_open()
        code = self.table_code
        await self._call(lambda svc, who: svc.start(code, who))
        if self.message == "err.already_started":
            self.message = ""
        return None

    @rx.event
    async def add_bots(self) -> Any:
        """Fill the free seats with Carmen, Tito and Luna (seed 000 line 70)."""
        await self._ensure_open()
        code = self.table_code

        def fill(svc: Any, who: Any) -> None:
            snap = svc.snapshot(code, who)
            names = bots_to_add(snap.seats)
            if names:
                svc.add_bots(code, who, names)

        return await self._call(fill)

    # ---- playing --------------------------------------------------------------------------
    @rx.event
    async def draw(self, version: int) -> Any:
        """COMPRAR / ROBAR, or a click on the stock."""
        from pifecacheta.rules import Draw

        return await self._act_unless_done(Draw(), version, _has_drawn)

    @rx.event
    async def take(self, version: int) -> Any:
        """PEGAR DO LIXO / TOMAR DEL POZO."""
        from pifecacheta.rules import TakeDiscard

        return await self._act_unless_done(TakeDiscard(), version, _has_drawn)

    @rx.event
    async def pile_click(self, version: int, phase: str, selected: str = "") -> Any:
        """A tap on the discard pile: in the draw phase it takes the top card (PEGAR DO LIXO,
        whatever card was tapped before: that tap only looked); in the discard phase it
        discards the ``selected`` card (the one tapped before, as the browser holds it)."""
        if phase == "draw":
            from pifecacheta.rules import TakeDiscard

            return await self._act(TakeDiscard(), version)
        if selected:
            return await self._discard(str(selected), version)
        return None

    @rx.event
    async def card_double(self, card_id: str, version: int) -> Any:
        """Double-click / double-tap a card: discard it (or go out with it as the leftover)."""
        return await self._discard(card_id, version)

    @rx.event
    def drag_start(self, card_id: str) -> None:
        """A card starts being dragged."""
        self.dragging = card_id

    @rx.event
    async def drop_on_pile(self, version: int) -> Any:
        """A card dropped on the discard pile."""
        card, self.dragging = self.dragging, ""
        if not card:
            return None
        return await self._discard(card, version)

    @rx.event
    async def go_out(self, version: int) -> Any:
        """BATER / CERRAR: the engine picks the best go-out (seed 000 line 56). The second press
        of a double click or a repeated key, made before the round's end reached the page, is
        not refused aloud once the round is over."""
        from pifecacheta.rules import GoOut

        return await self._act_unless_done(GoOut(), version, _round_ended)

    @rx.event
    async def announce(self, version: int) -> Any:
        """NA BOA / ME FALTA UNA (seed 000 line 64)."""
        from pifecacheta.rules import AnnounceOneAway

        return await self._act(AnnounceOneAway(), version)

    @rx.event
    async def next_round(self, version: int) -> Any:
        """PRÓXIMA RODADA / SIGUIENTE RONDA: any player of the match, even FORA (seed 000 line 68)."""
        from pifecacheta.rules import NextRound

        return await self._act_unless_done(NextRound(), version, _round_left)

    # ---- leaving a match -------------------------------------------------------------------
    @rx.event
    async def resign(self, version: int) -> Any:
        """DESISTIR / SAIR DO JOGO (seed 000 line 72)."""
        from pifecacheta.rules import Resign

        return await self._act(Resign(), version)

    @rx.event
    async def claim_absence(self, version: int) -> Any:
        """ENCERRAR POR AUSÊNCIA (seed 000 line 72; the service checks the 48 hours)."""
        from pifecacheta.rules import ClaimAbsence

        return await self._act(ClaimAbsence(), version)

    @rx.event
    async def leave_table(self, version: int) -> Any:
        """SAIR DA MESA, for a player who is FORA in Cacheta (seed 000 line 72)."""
        from pifecacheta.rules import LeaveTable

        return await self._act(LeaveTable(), version)

    @rx.event
    async def vote_rematch(self) -> Any:
        """REVANCHE: this player agrees to a rematch at the same table (seed 000 line 70)."""
        await self._ensure_open()
        code = self.table_code
        return await self._call(lambda svc, who: svc.vote_rematch(code, who))

    @rx.event
    async def send_chat(self, form: dict[str, Any]) -> Any:
        """Send a chat line (seated players only, seed 000 line 74)."""
        text = str(form.get("text", "")).strip()
        await self._ensure_open()
        code = self.table_code  # a blank line is refused by the service (chat_empty), and said
        await self._call(lambda svc, who: svc.chat(code, who, text))
        # clear the input only when the line was accepted (a refused line stays to be fixed)
        return None if self.message else rx.set_value("chat-input", "")

    @rx.var
    def message_in_chat(self) -> bool:
        """True when the refusal in ``message`` is about the chat (:data:`CHAT_REFUSALS`): the
        chat box shows it instead of the floating callout."""
        return self.message in CHAT_REFUSALS

    @rx.event
    def clear_message(self, serial: int) -> None:
        """Hide the refusal message, unless a newer one replaced it."""
        if serial == self.message_serial:
            self.message = ""

    # ---- helpers --------------------------------------------------------------------------
    async def _discard(self, card_id: str, version: int, confirmed: bool = False) -> Any:
        """Drop ``card_id`` on the pile: GoOut(card) when that is a valid go-out, else Discard.

        Decided on this viewer's own view (:func:`discard_action`), so it is ONE service call.
        With Dicas on, a discard that breaks a meld waits for the player's answer unless
        ``confirmed`` (``state/discard_guard.py``).
        """
        await self._ensure_open()
        try:
            card = Card.parse(card_id)
        except ValueError:  # not a card at all (a forged event): said like another seat's card
            from pifecacheta.rules.errors import IllegalActionError

            return await self._refused(IllegalActionError("card_not_in_hand"))
        view, hints = None, False
        if self.table_code:
            try:
                snap = await self._snapshot()
                view, hints = snap.view, snap.hints
            except Exception as exc:  # noqa: BLE001
                if not is_refusal(exc):
                    raise
        action = discard_action(view, card)
        self.hint_confirm = card_id if not confirmed and must_confirm(view, hints, action) else ""
        if self.hint_confirm:
            return None
        return await self._act(action, version)

    async def _act_unless_done(self, action: Any, version: int, done: Callable[[PlayerView], bool]) -> Any:
        """:meth:`_act`, but a stale-version refusal is not said when the table, read again,
        already shows what the viewer asked for (``done(view)``): the second click of a
        double click on COMPRAR, or a PRÓXIMA RODADA that another player pressed first."""
        out = await self._act(action, version)
        if self.message == "err.stale_version":
            snap = await self._snapshot()
            if snap.view is not None and done(snap.view):
                self.message = ""
        return out

    async def _act(self, action: Any, version: int) -> Any:
        if type(version) is not int:  # a forged event's version: refused before the service
            return await self._refused(Refusal("bad_event", f"version {version!r} is not a number"))
        await self._ensure_open()
        code = self.table_code
        return await self._call(lambda svc, who: svc.act(code, who, action, expected_version=version))

    async def _call(self, fn: Any) -> Any:
        """Run ``fn(service, identity)`` in a worker thread; a refusal becomes a message, a
        success notifies the table. ``fn`` must not read the state (it runs off the loop)."""
        if not self.table_code:
            return None
        try:
            await self._run_as_me(fn)
        except Exception as exc:  # noqa: BLE001
            if is_refusal(exc):
                await self._refused(exc)
                # a key replaced elsewhere: Meu acesso says so; one replaced in another tab of
                # this browser and synced after this event was sent: the table reloads with it
                return ViewerState.check_access if isinstance(exc, AccessReplaced) else None
            raise
        self.message = ""
        return await self._changed()

    async def _run_as_me(self, fn: Any) -> None:
        """``fn(service, identity)`` in a worker thread; refused ``access_replaced`` while this
        browser holds a newer key for the player (:meth:`_take_synced_key`), the same call
        once more with that key. Raises what ``fn`` raises."""
        try:
            await _in_thread(fn, get_service(), self._who())
        except AccessReplaced:
            if not await self._take_synced_key():
                raise
            await _in_thread(fn, get_service(), self._who())

    async def _take_synced_key(self) -> bool:
        """After an ``access_replaced`` refusal: True (and this tab now uses it) when this
        browser holds a newer key for the same player, replaced in another of its tabs (Meu
        acesso, TROCAR MINHA CHAVE: "this browser stays you") and synced here through
        localStorage (``ViewerState.secret``); else False. The service still checks the key."""
        viewer = await self.get_state(ViewerState)
        if not self.me or viewer.player_id != self.me or not viewer.secret or viewer.secret == self._secret:
            return False
        self._secret = viewer.secret
        return True

    async def _refused(self, exc: BaseException) -> Any:
        self.message = error_key(exc)
        self.message_serial += 1
        return None

    async def _changed(self) -> None:
        """Publish a change of this table on the live feed, for every other tab watching it.

        This tab gets the new change count in this event's own delta; the others through the
        feed's pushes, not awaited here (each tab's update takes that tab's lock only).
        """
        delivery = await live.current().apublish(self.table_code, skip=self._token())
        await self._hear(delivery.count)
