"""One viewer's view of one table: the ``ui`` var of ``TableState`` and its failure fallback.

:class:`TableView` is a Reflex state mixin that ``TableState`` (``state/table.py``) inherits:
its computed var ``ui`` is this viewer's own projection of the table (its own snapshot, its
own identity), so each hand reaches only its owner. A reload gives the same view: everything
comes from the database through the service.

``ui`` and ``history`` are cached computed vars (:data:`VIEW_DEPS`): Reflex evaluates them
again only when the tab hears a change of the table (``table_version``), its viewer changes, or
:meth:`TableView._reread_view` asks (a page load, a re-read after a failed read), and sends
them only then; any other event of the tab (a drag, a hidden message, the turn notices'
``on_mount``) costs neither a read nor a serialisation of them.

``past_rounds`` (the rounds of the table's current match that ended with a go-out, then the
newest ``PIFECACHETA_PAST_ROUNDS`` of its earlier matches; the older ones come only to a tab that
asks, ``state/older_rounds.py``) is a plain field, set by :meth:`TableView._hear` only when the
list changed, i.e. when a round ends or a match begins: an uncached var of it cost a
serialisation and a digest of the whole list at every delta of every tab (a third of the
server's CPU after ten minutes at 200 tables, bench/README.md).

The chat lines are not in ``ui`` (a move would send them all again): ``chat_lines`` is uncached
too, evaluated once per tab and table change from the same cached snapshot, and sent only when
its serialised value changed, i.e. when a line was added.

An evaluation is one :func:`~pifecacheta.state.snapshots.snapshot_for` read, a cache hit
except the first one per tab and table change, and one batch read serves all the table's
tabs, off the event loop. A read that fails (not a missing table) keeps this viewer's last
view and schedules a re-read of the tab (:func:`schedule_reread`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import itertools
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import reflex as rx

from pifecacheta import live
from pifecacheta.components.reflex_private import override_base_method, without_cached_values
from pifecacheta.service import get_service
from pifecacheta.state import wire  # noqa: F401 - registers the views' serializers
from pifecacheta.state.history_ui import HistoryUi, RoundUi, history_for, last_kept
from pifecacheta.state.snapshots import CACHE, DEFAULT_TTL, is_refusal, snapshot_for
from pifecacheta.state.ui_values import ChatUi, TableUi
from pifecacheta.state.view_model import chat_ui, table_ui

log = logging.getLogger(__name__)
T = TypeVar("T")

REREAD_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds before each re-read after a failed one
_failed_rereads: dict[str, int] = {}  # client token -> re-reads in a row that failed again
_rereads_pending: dict[str, asyncio.Task[None]] = {}  # client token -> its scheduled re-read
_stale_views: set[str] = set()  # client tokens whose cached ui/history must be read again
# client token -> (the table state it was evaluated for, its history evaluation), newest last
_histories: OrderedDict[str, tuple[tuple[Any, ...], asyncio.Future[tuple[HistoryUi, bool]]]] = OrderedDict()
# client token -> (the table state it was evaluated for, its chat lines' evaluation), newest last
_chats: OrderedDict[str, tuple[tuple[Any, ...], asyncio.Future[tuple[list[ChatUi], bool]]]] = OrderedDict()
# table code -> (the snapshot's chat, its lines as ChatUi) as last read, newest last: one list
# for all the table's tabs, and the fallback of a failed read
_table_chats: OrderedDict[str, tuple[tuple[Any, ...], list[ChatUi]]] = OrderedDict()
# client token -> (the tab's _rounds_sent mark, the very list of past rounds it was last given)
_sent_rounds: OrderedDict[str, tuple[int, list[RoundUi]]] = OrderedDict()
# The marks of _sent_rounds: never 0, and from a random start, so that two processes serving
# one tab in turn (a cluster) do not hand it the same mark for different lists.
_round_sends = itertools.count(1 + secrets.randbits(48) * 2**16)
KEPT_HISTORIES = 4096  # tabs (of _histories, _chats and _sent_rounds)
KEPT_CHATS = 1024  # tables (of _table_chats)

# What the cached ``ui`` and ``history`` depend on: the table, the change count the tab heard,
# the viewer (id and secret), and the tab's re-read counter (``TableView._reread_view``).
VIEW_TTL = DEFAULT_TTL  # seconds after which the tab's next delta reads ``ui`` again anyway
VIEW_DEPS: list[str | rx.Var[Any]] = ["table_code", "table_version", "me", "_secret", "_view_serial"]
# The cached views a Redis state manager does not store with the tab (:meth:`TableView.__getstate__`).
VIEWS_NOT_STORED = ("ui", "history")


def _keep_newest(kept: OrderedDict[str, Any], key: str, value: Any, limit: int) -> None:
    """``kept[key] = value`` as its newest entry, dropping the oldest beyond ``limit``."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > limit:
        kept.popitem(last=False)


def schedule_reread(token: str, feed: live.LiveFeed | None = None) -> bool:
    """Re-evaluate tab ``token``'s ``ui`` a little later (after a failed snapshot read).

    ``ui`` is otherwise evaluated only when this tab gets a delta, i.e. after the next change
    at the table: a read failing on this player's own turn would leave the page stale until
    the player gave up. The re-read is :meth:`LiveFeed.refresh` of the tab (its delta
    re-evaluates ``ui``, sent only if it changed). One re-read is pending per tab at a time;
    while they keep failing the delays grow (``REREAD_DELAYS``), and after the last one the
    tab waits for the table's next change. ``feed``: default :func:`pifecacheta.live.current`.
    Returns True when a re-read was scheduled (not outside a running event loop); never raises.
    """
    if not token or token in _rereads_pending:
        return False
    tries = _failed_rereads.get(token, 0)
    if tries >= len(REREAD_DELAYS):
        log.error("tab %s: snapshot still failing after %d re-reads; waiting for a change", token, tries)
        _failed_rereads.pop(token, None)
        return False
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no running loop: nothing to re-read
        return False
    feed = feed if feed is not None else live.current()

    async def reread() -> None:
        await asyncio.sleep(REREAD_DELAYS[tries])
        del _rereads_pending[token]
        _failed_rereads[token] = tries + 1  # a failure in this re-read schedules the next one
        try:
            await feed.refresh(token)
        except Exception:  # noqa: BLE001
            log.exception("tab %s: re-read after a failed snapshot failed", token)
        if token not in _rereads_pending:  # this re-read went through: start afresh next time
            _failed_rereads.pop(token, None)

    _rereads_pending[token] = loop.create_task(reread())
    return True


class TableView(rx.State, mixin=True):
    """The ``ui`` var of a tab showing a table (with ``history``, ``past_rounds`` and
    ``chat_lines``), and the helpers they are built with.

    Reads the fields ``TableState`` defines: ``table_code``, ``table_version`` (the live
    feed's change count of the table as this tab last heard it), ``me``, ``_secret``, ``_name``.
    """

    if TYPE_CHECKING:
        table_code: str
        table_version: int
        me: str
        _secret: str
        _name: str

    _view_serial: int = 0  # bumped by _reread_view: ui and history are read again
    # The past rounds, newest first (HistoryUi.rounds): set by _refresh_rounds only when changed.
    past_rounds: rx.Field[list[RoundUi]] = rx.field(default_factory=list)
    _rounds_sent: int = 0  # the mark of the list last put in past_rounds (_sent_rounds)
    _rounds_code: str = ""  # the table whose rounds past_rounds holds
    _rounds_stale: bool = False  # the last read of them failed: _catch_up reads them again
    _tab_token: str = ""  # this tab's client token, kept by _keep_token (a state never changes tab)

    @rx.var(deps=VIEW_DEPS, auto_deps=False, interval=datetime.timedelta(seconds=VIEW_TTL))
    async def ui(self) -> TableUi:
        """This viewer's projection of the table, sent to this tab when it may have changed.

        Cached on :data:`VIEW_DEPS`: evaluated again (and sent) when the tab hears a change of
        the table through its own action or the live feed's push, when its viewer changes, and
        after :meth:`_reread_view`; not for the tab's other events, unless the value is older
        than :data:`VIEW_TTL` (the time-dependent ENCERRAR POR AUSÊNCIA, seed 000 line 72,
        shows on the tab's next event, as the snapshot cache's own ``ttl`` keeps it).

        A read that fails (not a missing table) never blanks the page: see
        :meth:`_view_after_failure` (last view kept, error logged, the tab re-read shortly).
        """
        version = self.table_version
        if not self.table_code or not self.me:
            return TableUi()
        who = self._who()
        try:
            snap = await snapshot_for(get_service(), self.table_code, who, version)
            return table_ui(snap)
        except Exception as exc:  # noqa: BLE001 - see _view_after_failure
            return self._view_after_failure(exc, who)

    @rx.var(deps=VIEW_DEPS, auto_deps=False)
    async def history(self) -> HistoryUi:
        """The current round's move history for this viewer (``state/history_ui.py``), without
        the past rounds (:attr:`past_rounds`, sent only when a round ends). A read that fails
        keeps the last history kept for the table."""
        full = await self._history()
        return dataclasses.replace(full, rounds=[])

    @rx.var(cache=False)
    async def chat_lines(self) -> list[ChatUi]:
        """The table's chat lines (``view_model.chat_ui``: the last 100, oldest first), the
        same for players and spectators (seed 000 line 74: spectators read, only seated
        players write).

        Not a field of ``ui``, which every move sends again: ``cache=False``, so Reflex
        evaluates it for every delta of the tab and sends it only when its serialised value
        changed (``reflex/istate/delta.py``, ``_drop_unchanged_delta_value``: a digest of the
        JSON kept per client token), i.e. when a line was added. The evaluation is a memory
        read: once per tab and table state (:meth:`_once_per_table_state`) from the snapshot
        ``ui`` read (:func:`snapshot_for`, cached per table change), shared by the tab's other
        deltas of that state. A read that fails never blanks the chat (:meth:`_read_chat`).
        Being uncached, it also keeps this state in every delta of the tab, so that
        :meth:`get_delta` sees a re-read asked for by :func:`schedule_reread`."""
        return await self._once_per_table_state(_chats, self._read_chat)

    async def _hear(self, count: int) -> None:
        """This tab heard change ``count`` of its table (the live feed's push, the tab's own
        move): ``table_version`` becomes ``count`` (``ui`` and ``history`` follow in the
        delta), and ``past_rounds`` the table's rounds if they changed (:meth:`_refresh_rounds`).
        Not an event: a browser cannot call it."""
        self.table_version = count
        await self._refresh_rounds()

    async def _catch_up(self) -> None:
        """A re-read of this tab (:func:`schedule_reread`, through ``LiveFeed.refresh``): the
        past rounds are read again if their last read failed."""
        if self._rounds_stale:
            await self._refresh_rounds()

    async def _refresh_rounds(self) -> None:
        """Set ``past_rounds`` to the rounds of this tab's history (:meth:`_history`, the
        evaluation ``history`` shares) unless this tab was already given that very list.

        The history's projection keeps its list of rounds, the same object, while no round
        ends (``history_ui.history_for``); :data:`_sent_rounds` remembers which list each tab
        was given, under a mark also kept in the tab's state, so a state new to this process
        (a restart, an expired state) is always given the list. A failed read keeps the rounds
        shown when they are this table's (else the table's last kept ones, or none), and
        schedules a re-read of the tab (:meth:`_catch_up`).
        """
        hist, ok = await self._once_per_table_state_ok(_histories, self._read_history)
        token = self._token()
        if not ok:
            if self._rounds_code != self.table_code:  # never another table's rounds
                kept = last_kept(self.table_code)
                self.past_rounds = kept.rounds if kept is not None else []
                self._rounds_code = self.table_code
            self._rounds_sent, self._rounds_stale = 0, True  # the next read sets them whatever
            schedule_reread(token)
            return
        self._rounds_stale = False
        if not hist.rounds and not self.past_rounds:  # none before, none now (a lobby, a new table)
            self._rounds_code = self.table_code
            return
        sent = _sent_rounds.get(token) if token else None
        if sent is not None and sent[0] == self._rounds_sent and sent[1] is hist.rounds:
            return
        self.past_rounds = hist.rounds
        self._rounds_code = self.table_code
        self._rounds_sent = mark = next(_round_sends)
        if token:
            _keep_newest(_sent_rounds, token, (mark, hist.rounds), KEPT_HISTORIES)

    def _token(self) -> str:
        """This tab's client token: the one kept at the page's load (:meth:`_keep_token`), else
        read from the router (``live.tab_of``, which assembles Reflex's whole ``RouterData``:
        about 3% of the server's CPU at 150 tables when every delta asked for it)."""
        return self._tab_token or live.tab_of(self).token

    def _keep_token(self) -> None:
        """Keep this tab's client token for :meth:`_token` (an event's handler calls it; a
        state belongs to one token for its whole life)."""
        if not self._tab_token:
            self._tab_token = live.tab_of(self).token

    def _reread_view(self) -> None:
        """Make the next delta of this tab read ``ui`` and ``history`` again, although the
        table's change count did not move (a page load; a re-read after a failed read)."""
        self._view_serial += 1

    @override_base_method
    def get_delta(self) -> Any:
        """This state's delta (Reflex's documented override point); a tab whose last read
        failed (:meth:`_view_after_failure`) reads its view again in it."""
        if _stale_views:
            token = self._token()
            if token in _stale_views:
                _stale_views.discard(token)
                self._reread_view()
        return super().get_delta()

    @override_base_method
    def __getstate__(self) -> dict[str, Any]:
        """What a Redis state manager stores of this state for each event: everything but the
        values of ``ui`` and ``history`` (about two hundred small objects, pickled and
        unpickled at each event of the tab), which the next change computes again anyway
        (:data:`VIEWS_NOT_STORED`)."""
        fields: dict[str, Any] = super().__getstate__()  # type: ignore[no-untyped-call]
        return without_cached_values(self, fields, VIEWS_NOT_STORED)

    async def _history(self) -> HistoryUi:
        """This viewer's full history, evaluated once per tab and table state for both
        ``history`` and ``past_rounds`` (:data:`_histories`; a failed read is not kept)."""
        return await self._once_per_table_state(_histories, self._read_history)

    async def _once_per_table_state(
        self,
        kept_by_tab: OrderedDict[str, tuple[tuple[Any, ...], asyncio.Future[tuple[T, bool]]]],
        read: Callable[[], Awaitable[tuple[T, bool]]],
    ) -> T:
        """The value of :meth:`_once_per_table_state_ok`."""
        return (await self._once_per_table_state_ok(kept_by_tab, read))[0]

    async def _once_per_table_state_ok(
        self,
        kept_by_tab: OrderedDict[str, tuple[tuple[Any, ...], asyncio.Future[tuple[T, bool]]]],
        read: Callable[[], Awaitable[tuple[T, bool]]],
    ) -> tuple[T, bool]:
        """``read()``'s value for this tab's table state (table, change count heard, re-read
        counter, viewer), evaluated once per tab and state, and whether it was read (False:
        the fallback of a failed read, not kept). ``kept_by_tab`` keeps each tab's last
        evaluation (its newest :data:`KEPT_HISTORIES` tabs), which the tab's other deltas of
        the same state share, even while it runs."""
        token = self._token()
        key = (self.table_code, self.table_version, self._view_serial, self.me, self._secret)
        loop = asyncio.get_running_loop()
        kept = kept_by_tab.get(token) if token else None
        if kept is not None and kept[0] == key:
            if kept[1].done() and not kept[1].cancelled() and kept[1].exception() is None:
                return kept[1].result()
            if kept[1].get_loop() is loop:
                return await asyncio.shield(kept[1])
        task = asyncio.ensure_future(read())
        if token:
            _keep_newest(kept_by_tab, token, (key, task), KEPT_HISTORIES)
        found, ok = await asyncio.shield(task)
        if not ok and token and kept_by_tab.get(token, (None, None))[1] is task:
            del kept_by_tab[token]  # the next evaluation reads again
        return found, ok

    async def _read_history(self) -> tuple[HistoryUi, bool]:
        """The history and whether it was read (False: the fallback of a failed read)."""
        if not self.table_code or not self.me:
            return HistoryUi(), True
        try:
            snap = await self._snapshot()
            if snap.view is None:  # the lobby: nothing happened yet
                return HistoryUi(), True
            return await history_for(get_service(), snap), True
        except Exception as exc:  # noqa: BLE001 - the page keeps the last history (ui reports errors)
            if is_refusal(exc):  # no such table (an old link): ``ui`` says so, nothing to log
                return HistoryUi(), True
            log.warning("table %s: history read failed", self.table_code, exc_info=True)
            return last_kept(self.table_code) or HistoryUi(), False

    async def _read_chat(self) -> tuple[list[ChatUi], bool]:
        """The chat lines and whether they were read (False: the fallback of a failed read).

        The table's tabs share one list while its lines stay the same (:data:`_table_chats`).
        A read that fails (not a missing table) keeps the lines last read at this table
        (:data:`_table_chats`; else those of this viewer's last snapshot,
        :meth:`SnapshotCache.last_good`) rather than blanking the chat, as ``ui`` keeps the
        last view (:meth:`_view_after_failure` logs it and schedules the tab's re-read)."""
        code = self.table_code
        if not code or not self.me:
            return [], True
        who = self._who()
        try:
            snap = await snapshot_for(get_service(), code, who, self.table_version)
        except Exception as exc:  # noqa: BLE001 - the chat keeps its last lines (ui reports errors)
            if is_refusal(exc):  # no such table (an old link): ``ui`` says so, nothing to show
                return [], True
            log.warning("table %s: chat read failed", code, exc_info=True)
            kept = _table_chats.get(code)
            if kept is not None:
                return kept[1], False
            last = CACHE.last_good(code, who)
            try:
                return (chat_ui(last) if last is not None else []), False
            except Exception:  # noqa: BLE001 - a snapshot-like value without chat
                return [], False
        kept = _table_chats.get(code)
        if kept is not None and kept[0] == snap.chat:
            lines = kept[1]
        else:
            lines = chat_ui(snap)
        _keep_newest(_table_chats, code, (tuple(snap.chat), lines), KEPT_CHATS)
        return lines, True

    def _view_after_failure(self, exc: Exception, who: Any) -> TableUi:
        """What ``ui`` shows when this viewer's snapshot could not be read (``exc``).

        Only ``Refusal("table_not_found")`` means there is no such table ("not found").
        Anything else - a database error that outlived ``snapshot_for``'s retries, a bug in a
        projection - is logged with its traceback, and the page keeps the table as this viewer
        last saw it (its own last snapshot, :meth:`SnapshotCache.last_good`) instead of going
        blank; a re-read of this tab is scheduled (:func:`schedule_reread`), so the view
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
        token = self._token()
        if token:
            _stale_views.add(token)  # the re-read's delta evaluates ui and history again
        schedule_reread(token)
        last = CACHE.last_good(self.table_code, who)
        if last is None:
            return TableUi()
        try:
            return table_ui(last)
        except Exception:  # noqa: BLE001 - the projection itself fails: logged above
            return TableUi()

    async def _snapshot(self) -> Any:
        """This viewer's current snapshot (the one ``ui`` was built from: a cache hit)."""
        return await snapshot_for(get_service(), self.table_code, self._who(), self.table_version)

    def _who(self) -> Any:
        """This viewer's service ``Identity`` (player id, secret, name)."""
        from pifecacheta.service import Identity

        return Identity(player_id=self.me, secret=self._secret, name=self._name)
