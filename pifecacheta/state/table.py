"""One table as seen by one viewer, kept live for everyone at it.

``TableState`` is private to one browser tab. Its computed var ``ui`` is this viewer's own
projection of the table (its own snapshot, its own identity), so each hand reaches only its
owner. A reload gives the same view: everything comes from the database through the service.

Live updates: ``state/tabs.py`` knows which tabs show which table. After every change the
service commits - a player's action here (:meth:`TableState._changed`), a bot's move or a
sweep (:func:`bump_table`) - the table's counter is bumped and :func:`push_change` sets the
new counter in each other open tab's ``table_version``, each under that tab's own lock only;
the resulting delta re-evaluates the tab's ``ui`` and Reflex sends it if it changed. The
counter is public (a number, nothing secret).

Live-update cost (issue 3 item 10): a move is one service call; then ONE read of the table
serves every tab (``state/snapshots.py``: per-viewer cache keyed by the table's counter and
change generation, ``service.snapshots``), off the event loop, and the tabs' pushes run side by
side (measured in ``bench/README.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Iterator
from typing import Any

import reflex as rx

from pifecacheta.rules.cards import Card
from pifecacheta.state.backend import get_service
from pifecacheta.state.session import Session
from pifecacheta.state.snapshots import CACHE, discard_action, is_refusal, snapshot_for
from pifecacheta.state.tabs import TABS, tab_token
from pifecacheta.state.view_model import TableUi, table_ui

log = logging.getLogger(__name__)

# True while an event handler calls the service: the handler bumps the version itself, so the
# service's on_change listener (pifecacheta.py) skips those changes.
IN_HANDLER: contextvars.ContextVar[bool] = contextvars.ContextVar("pifecacheta_in_handler", default=False)


@contextlib.contextmanager
def _handler_call() -> Iterator[None]:
    token = IN_HANDLER.set(True)
    try:
        yield
    finally:
        IN_HANDLER.reset(token)


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


BOT_NAMES: tuple[str, ...] = ("Carmen", "Tito", "Luna")  # seed 000 line 70
MAX_SEATS = 4


def bots_to_add(seats: Any) -> list[str]:
    """The bots that fill the free seats: Carmen, Tito, Luna not yet seated, one per free seat.

    ``seats``: the snapshot's ``SeatInfo`` tuple (occupied seats only).
    """
    seated_bots = {s.name for s in seats if s.is_bot}
    free = MAX_SEATS - len(seats)
    return [n for n in BOT_NAMES if n not in seated_bots][: max(0, free)]


async def _in_thread(fn: Any, *args: Any) -> Any:
    """Run a blocking service call in a worker thread, marked as made by an event handler.

    ``asyncio.to_thread`` copies the context, so ``IN_HANDLER`` is True in the thread and the
    service's ``on_change`` does not bump the version a second time (the handler bumps it).
    """
    with _handler_call():
        return await asyncio.to_thread(fn, *args)


REFRESH_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds before each re-read after a failed one
_failed_rereads: dict[str, int] = {}  # client token -> re-reads in a row that failed again
_rereads_pending: dict[str, asyncio.Task[None]] = {}  # client token -> its scheduled re-read


def _schedule_refresh(token: str, app: Any = None) -> bool:
    """Re-evaluate tab ``token``'s ``ui`` a little later (after a failed snapshot read).

    ``ui`` is otherwise evaluated only when this tab gets a delta, i.e. after the next change
    at the table: a read failing on this player's own turn would leave the page stale until
    the player gave up. The re-read is an empty ``app.modify_state`` on the tab's token (its
    delta re-evaluates ``ui``, sent only if it changed). One re-read is pending per tab at a
    time; while they keep failing the delays grow (``REFRESH_DELAYS``), and after the last
    one the tab waits for the table's next change. ``app``: the Reflex app (default: the
    running one). Returns True when a re-read was scheduled; never raises.
    """
    if not token or token in _rereads_pending:
        return False
    tries = _failed_rereads.get(token, 0)
    if tries >= len(REFRESH_DELAYS):
        log.error("tab %s: snapshot still failing after %d re-reads; waiting for a change", token, tries)
        _failed_rereads.pop(token, None)
        return False
    app = app if app is not None else _running_app()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no running loop: nothing to re-read
        return False
    if app is None:
        return False

    async def reread() -> None:
        from reflex.istate.manager.token import BaseStateToken

        await asyncio.sleep(REFRESH_DELAYS[tries])
        del _rereads_pending[token]
        _failed_rereads[token] = tries + 1  # a failure in this re-read schedules the next one
        try:
            async with app.modify_state(BaseStateToken(ident=token, cls=TableState)):
                pass
        except Exception:  # noqa: BLE001
            log.exception("tab %s: re-read after a failed snapshot failed", token)
        if token not in _rereads_pending:  # this re-read went through: start afresh next time
            _failed_rereads.pop(token, None)

    _rereads_pending[token] = loop.create_task(reread())
    return True


class TableState(rx.State):
    """One tab's view of one table: which table, who I am, my pending selection, messages."""

    table_code: str = ""
    # The card tapped and waiting for a tap on the pile lives in the browser only
    # (pages/table.py: SELECTED): a tap costs no round trip, and a double-click's two clicks
    # no longer queue two events ahead of the discard.
    dragging: str = ""  # card id being dragged
    message: str = ""  # catalog key of the last refusal, "" when none
    message_serial: int = 0
    # table_version when the message was given: the page hides the message once the table
    # changes (table_version moves on), or on the viewer's next action.
    message_version: int = -1
    # The table's change counter (state/tabs.py) as this tab last heard it: set by its own
    # actions and by push_change. A new value makes a delta, which re-evaluates ``ui``.
    table_version: int = 0
    join_name: str = ""
    invite_url: str = ""
    me: str = ""  # my player id (not secret)
    _secret: str = ""
    _name: str = ""

    # ---- the view -------------------------------------------------------------------------
    @rx.var(cache=False)
    async def ui(self) -> TableUi:
        """This viewer's projection of the table, sent to this tab only when it changed.

        ``cache=False``: Reflex re-evaluates it for every delta of this tab (its own events, and
        the push of each change, :func:`push_change`) and sends it only when its serialized
        value differs from the last one sent to this tab. An evaluation is a
        :class:`~pifecacheta.state.snapshots.SnapshotCache` hit except the first one per tab
        and table change, and one batch read serves all the table's tabs, off the loop.

        A read that fails (not a missing table) never blanks the page: see
        :meth:`_view_after_failure` (last view kept, error logged, the tab re-read shortly).
        """
        version = self.table_version
        if not self.table_code or not self.me:
            return TableUi()
        who = self._who()
        try:
            snap = await snapshot_for(get_service(), self.table_code, who, version)
            return table_ui(snap, bots_available=hasattr(get_service(), "add_bots"))
        except Exception as exc:  # noqa: BLE001 - see _view_after_failure
            return self._view_after_failure(exc, who)

    def _view_after_failure(self, exc: Exception, who: Any) -> TableUi:
        """What ``ui`` shows when this viewer's snapshot could not be read (``exc``).

        Only ``ServiceError("table_not_found")`` means there is no such table ("not found").
        Anything else - a database error that outlived ``snapshot_for``'s retries, a bug in a
        projection - is logged with its traceback, and the page keeps the table as this viewer
        last saw it (its own last snapshot, :meth:`SnapshotCache.last_good`) instead of going
        blank; a re-read of this tab is scheduled (:func:`_schedule_refresh`), so the view
        catches up even when nothing else changes at the table (e.g. on this player's turn).
        """
        if getattr(exc, "code", None) == "table_not_found":
            return TableUi()
        log.error(
            "table %s: snapshot for player %s failed; showing the last view and retrying",
            self.table_code,
            self.me,
            exc_info=exc,
        )
        _schedule_refresh(tab_token(self))
        last = CACHE.last_good(self.table_code, who)
        if last is None:
            return TableUi()
        try:
            return table_ui(last, bots_available=hasattr(get_service(), "add_bots"))
        except Exception:  # noqa: BLE001 - the projection itself fails: logged above
            return TableUi()

    async def _snapshot(self) -> Any:
        """This viewer's current snapshot (the one ``ui`` was built from: a cache hit)."""
        return await snapshot_for(get_service(), self.table_code, self._who(), self.table_version)

    def _who(self) -> Any:
        from pifecacheta.service import Identity

        return Identity(player_id=self.me, secret=self._secret, name=self._name)

    # ---- loading and seating ------------------------------------------------------------
    @rx.event
    async def load(self) -> Any:
        """on_load of ``/mesa/<code>``: identify, register this tab for the table's live updates
        (``state/tabs.py``; Reflex runs on_load again on every reconnect), sit if a seat is free."""
        path = str(self.router.url.path or "")
        code = path.rstrip("/").rsplit("/", 1)[-1] if "/mesa/" in path else ""
        self.table_code = code
        origin = str(getattr(self.router.url, "origin", "") or "")
        self.invite_url = f"{origin}/mesa/{code}" if code else ""
        self.dragging = self.message = ""
        if not code:
            return None
        session = await self.get_state(Session)
        who = session._identity()
        self.me, self._secret, self._name = who.player_id, who.secret, who.name
        self.table_version = TABS.open(code, tab_token(self))
        self.join_name = session.name
        CACHE.forget_viewer(code, self._who())  # a (re)load shows the table as it is now
        before = CACHE.generation(code)
        if session.name:
            await self._join()
        if CACHE.generation(code) != before:  # the join seated us: the others must see it
            return await self._changed()
        # A reload or a spectator changes nothing: no bump, so the other tabs are not refreshed
        # (this tab's ``ui`` is evaluated and sent with this event's delta anyway).
        return None

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
        """The name typed by someone arriving through the invite link."""
        self.join_name = name[:24]

    @rx.event
    async def sit(self) -> Any:
        """Sit at the table with the typed name (seed 000 line 46: whoever opens the link sits)."""
        from pifecacheta.service import ServiceError

        session = await self.get_state(Session)
        typed = self.join_name.strip()
        if not typed and not session.name:
            # the same rule as CRIAR MESA: a name is needed (no made-up "Jogador NNN" in pt)
            return await self._refused(ServiceError("bad_name"))
        try:
            who = session._identity(typed or None)
        except Exception as exc:  # noqa: BLE001
            if is_refusal(exc):
                return await self._refused(exc)
            raise
        self.me, self._secret, self._name = who.player_id, who.secret, who.name
        self.message = ""
        if await self._join() is None and not self.message:
            # the last seat went (or the match began) after the form was shown: say so
            await self._refused(ServiceError("no_seat"))
        return await self._changed()

    @rx.event
    async def start(self) -> Any:
        """COMEÇAR: the creator starts the match (>= 2 seated)."""
        code = self.table_code
        return await self._call(lambda svc, who: svc.start(code, who))

    @rx.event
    async def add_bots(self) -> Any:
        """Fill the free seats with Carmen, Tito and Luna (seed 000 line 70)."""

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

        return await self._act(Draw(), version)

    @rx.event
    async def take(self, version: int) -> Any:
        """PEGAR DO LIXO / TOMAR DEL POZO."""
        from pifecacheta.rules import TakeDiscard

        return await self._act(TakeDiscard(), version)

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
        """BATER / CERRAR: the engine picks the best go-out (seed 000 line 56)."""
        from pifecacheta.rules import GoOut

        return await self._act(GoOut(), version)

    @rx.event
    async def announce(self, version: int) -> Any:
        """NA BOA / ME FALTA UNA (seed 000 line 64)."""
        from pifecacheta.rules import AnnounceOneAway

        return await self._act(AnnounceOneAway(), version)

    @rx.event
    async def next_round(self, version: int) -> Any:
        """PRÓXIMA RODADA / SIGUIENTE RONDA: any player of the match, even FORA (seed 000 line 68)."""
        from pifecacheta.rules import NextRound, Phase

        await self._act(NextRound(), version)
        if self.message == "err.stale_version":
            # someone else pressed it first: the round this player wanted to leave is over,
            # which is what they asked for, so "the table changed" would only confuse
            snap = await self._snapshot()
            if snap.view is not None and snap.view.phase is not Phase.ROUND_OVER:
                self.message = ""
        return None

    # ---- issue 4 slots: wired to the engine actions the service accepts ---------------------
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
        code = self.table_code
        return await self._call(lambda svc, who: svc.vote_rematch(code, who))

    @rx.event
    async def send_chat(self, form: dict[str, Any]) -> Any:
        """Send a chat line (seated players only, seed 000 line 74)."""
        text = str(form.get("text", "")).strip()
        code = self.table_code  # a blank line is refused by the service (chat_empty), and said
        await self._call(lambda svc, who: svc.chat(code, who, text))
        # clear the input only when the line was accepted (a refused line stays to be fixed)
        return None if self.message else rx.set_value("chat-input", "")

    @rx.event
    def clear_message(self, serial: int) -> None:
        """Hide the refusal message, unless a newer one replaced it."""
        if serial == self.message_serial:
            self.message = ""

    # ---- helpers --------------------------------------------------------------------------
    async def _discard(self, card_id: str, version: int) -> Any:
        """Drop ``card_id`` on the pile: GoOut(card) when that is a valid go-out, else Discard.

        Decided on this viewer's own view (:func:`discard_action`), so it is ONE service call.
        """
        try:
            card = Card.parse(card_id)
        except ValueError:  # not a card at all (a forged event): said like another seat's card
            from pifecacheta.rules.errors import IllegalActionError

            return await self._refused(IllegalActionError("card_not_in_hand"))
        view = None
        if self.table_code:
            try:
                view = (await self._snapshot()).view
            except Exception as exc:  # noqa: BLE001
                if not is_refusal(exc):
                    raise
        return await self._act(discard_action(view, card), version)

    async def _act(self, action: Any, version: int) -> Any:
        code = self.table_code
        return await self._call(lambda svc, who: svc.act(code, who, action, expected_version=version))

    async def _call(self, fn: Any) -> Any:
        """Run ``fn(service, identity)`` in a worker thread; a refusal becomes a message, a
        success notifies the table. ``fn`` must not read the state (it runs off the loop)."""
        if not self.table_code:
            return None
        try:
            await _in_thread(fn, get_service(), self._who())
        except Exception as exc:  # noqa: BLE001
            if is_refusal(exc):
                return await self._refused(exc)
            raise
        self.message = ""
        return await self._changed()

    async def _refused(self, exc: BaseException) -> Any:
        self.message = error_key(exc)
        self.message_serial += 1
        self.message_version = self.table_version
        return None

    async def _changed(self) -> None:
        """Count a change of this table and push it to every other open tab of it.

        This tab gets the new counter in this event's own delta; the others through
        :func:`push_change`, which does not wait here (each tab's update takes that tab's lock).
        Bots, FIM DA RODADA closing by itself and expiry are driven by the service's sweeper
        (``pifecacheta.sweeper``); their changes reach the tabs through ``on_change`` and
        :func:`bump_table`.
        """
        code = self.table_code
        self.table_version = TABS.bump(code)
        push_change(None, code, self.table_version, skip=tab_token(self))


_pushes: set[asyncio.Task[None]] = set()  # running pushes (a reference keeps each task alive)


def _running_app() -> Any:
    """The Reflex app of this process, or None outside a running app (unit tests)."""
    try:
        from reflex_base.registry import RegistrationContext

        return RegistrationContext.get().app
    except Exception:  # noqa: BLE001
        return None


def push_change(app: Any, code: str, version: int, skip: str = "") -> list[asyncio.Task[None]]:
    """Give every open tab of table ``code`` (but ``skip``) the counter ``version``.

    One task per tab (:func:`_push_to`), started now and not awaited; each takes only that
    tab's lock, so a slow tab delays nobody else. ``app``: the Reflex app (default: the running
    one). Returns the tasks (empty outside a running app or loop); a failed push is logged.
    """
    app = app if app is not None else _running_app()
    if app is None:
        return []
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return []
    tasks = []
    for token in TABS.tokens(code):
        if token == skip:
            continue
        task = loop.create_task(_push_to(app, code, token, version))
        _pushes.add(task)
        task.add_done_callback(_pushed)
        tasks.append(task)
    return tasks


def _pushed(task: asyncio.Task[None]) -> None:
    _pushes.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("live update of a tab failed", exc_info=task.exception())


async def _push_to(app: Any, code: str, token: str, version: int) -> None:
    """Set ``table_version`` of tab ``token`` to ``version`` if it still shows table ``code``.

    A tab whose socket is gone is dropped from the table's tabs (it registers again on its
    reconnect, through ``load``); a tab that moved to another table is dropped too.
    """
    from reflex.istate.manager.token import BaseStateToken

    namespace = getattr(app, "event_namespace", None)
    if namespace is None or token not in namespace.token_to_sid:
        TABS.close(token, code)
        return
    async with app.modify_state(BaseStateToken(ident=token, cls=TableState)) as root:
        tab = await root.get_state(TableState)
        if tab.table_code != code:
            TABS.close(token, code)
        elif tab.table_version < version:
            tab.table_version = version


async def bump_table(app: Any, code: str) -> None:
    """Count a change made outside any event (bots, sweeper, expiry) and push it to every
    open tab of table ``code``; raises the first failed push (the caller retries once)."""
    tasks = push_change(app, code, TABS.bump(code))
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException):
            raise result
