"""The move history a table page shows, as plain dataclasses Reflex can send to a browser.

:func:`history_ui` turns the service's public ``MatchHistory`` (``service/history.py``: spectator
facts only, the same for every viewer) and the table's seats into a :class:`HistoryUi`: one
:class:`HistoryLineUi` per event, newest first, each a catalog key (``hist.<kind>``, the wording
is in the pt/es catalogs) with the names and the public cards to fill in; and one
:class:`RoundUi` per past round, with the result fields of ``TableUi`` (``ResultUi``) so that FIM DA
RODADA's rendering (``components/table/round_over.py``) draws both.

Pure functions, no Reflex or database: unit-tested in ``tests/state/``. A projection depends
only on the table and its version, so :func:`history_for` keeps the last one per table.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Mapping
from typing import Any

from pifecacheta.rules.cards import Card
from pifecacheta.service import MatchHistory, RoundSummary, TableSnapshot
from pifecacheta.state.end_texts import choose_result_texts
from pifecacheta.state.ui_values import CardUi, MeldUi, ResultUi, SeatUi, card_ui

log = logging.getLogger(__name__)


@dataclasses.dataclass
class HistoryLineUi:
    """One line of the history: ``key`` (``hist.*``) with ``{name}`` (the actor), ``{other}``,
    ``{card}`` and ``{discard}`` to fill in; ``seat`` the actor (-1: nobody); ``at`` ISO 8601 UTC."""

    n: int = 0
    key: str = ""
    seat: int = -1
    name: str = ""
    other: str = ""
    has_card: bool = False
    card: CardUi = dataclasses.field(default_factory=CardUi)
    has_discard: bool = False
    discard: CardUi = dataclasses.field(default_factory=CardUi)
    at: str = ""


@dataclasses.dataclass
class RoundUi(ResultUi):
    """A past round's result (:class:`~pifecacheta.state.ui_values.ResultUi`, the fields of
    ``TableUi``'s FIM DA RODADA part), its number, when it ended (``at``: ISO 8601 UTC) and
    the seats' lives after it; ``match_number``: which match of the table, ``earlier_match``: a
    match before the last REVANCHE (seed 000 line 70), and ``record_match``: the match its
    VERIFICAR / REVER A RODADA ask for (its number when earlier, else 0: the current match)."""

    has_result: bool = True
    round_number: int = 0
    match_number: int = 1
    earlier_match: bool = False
    record_match: int = 0
    at: str = ""
    seats: list[SeatUi] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class HistoryUi:
    """The history panel of one table at table ``version``: the current round's ``lines``
    (newest first), the past ``rounds`` (newest first: the current match's, then the newest of
    the earlier matches'), ``older_rounds``: how many earlier rounds come after those (read when
    the viewer asks, ``state/older_rounds.py``), and ``latest``: the newest line not made by
    this viewer (``latest_n`` its number, -1 and ``has_latest`` False: none), for the polite
    announcement."""

    version: int = -1
    round_number: int = 0
    lines: list[HistoryLineUi] = dataclasses.field(default_factory=list)
    rounds: list[RoundUi] = dataclasses.field(default_factory=list)
    older_rounds: int = 0
    latest_n: int = -1
    has_latest: bool = False
    latest: HistoryLineUi = dataclasses.field(default_factory=HistoryLineUi)


def _names(snap: TableSnapshot) -> dict[int, str]:
    return {s.seat: s.name for s in snap.seats}


def _name(names: Mapping[int, str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names.get(seat, f"#{seat + 1}")


def _card(card: Card | None, wilds: frozenset[Any] = frozenset()) -> tuple[bool, CardUi]:
    return (False, CardUi()) if card is None else (True, card_ui(card, wilds=wilds))


def line_key(kind: str, has_discard: bool, has_card: bool = False) -> str:
    """The catalog key of an event's line: ``hist.<kind>``, with ``_discard`` for a turn that
    discarded, ``_ten`` for a go-out with ten (no discard), ``_vira`` for a deal with a vira.

    >>> line_key("take", True), line_key("draw", False), line_key("jump", False)
    ('hist.take_discard', 'hist.draw', 'hist.jump_ten')
    """
    if kind == "round_start":
        return "hist.round_start_vira" if has_card else "hist.round_start"
    if kind in ("draw", "take"):
        return f"hist.{kind}_discard" if has_discard else f"hist.{kind}"
    if kind in ("draw_out", "take_out", "go_out", "jump", "louca"):
        return f"hist.{kind}" if has_discard else f"hist.{kind}_ten"
    return f"hist.{kind}"


def round_ui(summary: RoundSummary, names: Mapping[int, str], mode: str, *, earlier: bool = False) -> RoundUi:
    """One past round (a service ``RoundSummary``) in ``TableUi``'s result shape; ``earlier``:
    it belongs to a match before the current one."""
    res, wilds = summary.result, frozenset(summary.wilds)
    ui = RoundUi(
        round_number=summary.round_number,
        match_number=summary.match_number,
        earlier_match=earlier,
        record_match=summary.match_number if earlier else 0,
        mode=mode,
        at=summary.at.isoformat(),
    )
    ui.result_winner = _name(names, res.winner)
    ui.result_out_of_turn = bool(res.out_of_turn)
    ui.result_with_ten = res.plan.discard is None
    ui.result_melds = [MeldUi(cards=[card_ui(c, wilds=wilds) for c in m.cards]) for m in res.plan.melds]
    ui.result_has_discard, ui.result_discard = _card(res.plan.discard, wilds)
    if summary.taken is not None:
        ui.result_has_taken, ui.result_taken = _card(summary.taken, wilds)
        ui.result_discarder = _name(names, res.discarder)
    for n, lives in enumerate(summary.lives):
        ui.seats.append(
            SeatUi(
                seat=n,
                name=_name(names, n),
                lives=int(lives),
                lives_lost=int(res.lives_lost[n]) if n < len(res.lives_lost) else 0,
                out=mode == "cacheta" and n in summary.out,
                winner=n == res.winner,
            )
        )
    choose_result_texts(ui)
    return ui


def _line(n: int, ev: Any, names: Mapping[int, str]) -> HistoryLineUi:
    has_card, card = _card(ev.card)
    has_discard, discard = _card(ev.discard)
    return HistoryLineUi(
        n=n,
        key=line_key(ev.kind, has_discard, has_card),
        seat=-1 if ev.seat is None else ev.seat,
        name=_name(names, ev.seat),
        other=_name(names, ev.other),
        has_card=has_card,
        card=card,
        has_discard=has_discard,
        discard=discard,
        at=ev.at.isoformat(),
    )


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """``a`` and ``b`` hold the very same objects (the service's replay appends to its events)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _told(hist: MatchHistory) -> list[tuple[RoundSummary, bool]]:
    """The rounds ``hist`` tells, in :attr:`HistoryUi.rounds`'s order (newest first: the current
    match's, then the earlier matches'), each with whether it is an earlier match's."""
    return [(r, False) for r in reversed(hist.rounds)] + [(r, True) for r in reversed(hist.past)]


def history_ui(hist: MatchHistory, snap: TableSnapshot, previous: _Projected | None = None) -> HistoryUi:
    """Project the public ``hist`` of the table of ``snap`` (whose seats give the names).

    The same for every viewer but :attr:`HistoryUi.latest_n` (see :func:`for_viewer`).
    ``previous``: the projection of an earlier history of the same table (:data:`_kept`):
    the lines of the very events it already projected are reused when the names did not change,
    and so is its list of rounds (the very same list object) when the rounds did not; when
    they did, each round it already projected keeps its :class:`RoundUi`."""
    names = _names(snap)
    mode = str(getattr(snap.rules.mode, "value", snap.rules.mode)).lower()
    old_events: tuple[Any, ...] = ()
    old_lines: list[HistoryLineUi] = []
    old_rounds: list[RoundUi] | None = None
    projected: dict[tuple[int, bool], RoundUi] = {}  # (id of a RoundSummary, earlier) -> its RoundUi
    if previous is not None and previous.names == names and previous.mode == mode:
        old_events, old_lines = previous.hist.events, previous.ui.lines[::-1]  # oldest first
        if _same(hist.rounds, previous.hist.rounds) and _same(hist.past, previous.hist.past):
            old_rounds = previous.ui.rounds
        else:  # the previous history holds its summaries: their ids are not reused meanwhile
            told = _told(previous.hist)
            projected = {(id(r), e): ui for (r, e), ui in zip(told, previous.ui.rounds, strict=True)}
    k = len(old_events)
    lines = [  # an event the service did not replace keeps its line (a turn's is replaced once)
        old_lines[n] if n < k and ev is old_events[n] else _line(n, ev, names)
        for n, ev in enumerate(hist.events)
    ]
    lines.reverse()
    rounds = old_rounds
    if rounds is None:  # newest first: the current match's rounds, then the earlier matches'
        rounds = []
        for r, earlier in _told(hist):
            ui = projected.get((id(r), earlier))
            rounds.append(round_ui(r, names, mode, earlier=earlier) if ui is None else ui)
    return HistoryUi(
        version=hist.version,
        round_number=hist.round_number,
        lines=lines,
        rounds=rounds,
        older_rounds=hist.past_older,
    )


@dataclasses.dataclass(frozen=True)
class _Projected:
    """A table's kept projection: the service history it came from, the names and mode used."""

    hist: MatchHistory
    names: dict[int, str]
    mode: str
    ui: HistoryUi


def for_viewer(base: HistoryUi, my_seat: int | None) -> HistoryUi:
    """``base`` with ``latest_n`` set for the viewer at ``my_seat`` (None: a spectator): the
    newest line by someone else, so a player is not told what it just did itself."""
    mine = -2 if my_seat is None else my_seat
    latest = next((line for line in base.lines if line.seat != mine), None)
    if latest is None:
        return dataclasses.replace(base, latest_n=-1, has_latest=False, latest=HistoryLineUi())
    return dataclasses.replace(base, latest_n=latest.n, has_latest=True, latest=latest)


_kept: dict[str, _Projected] = {}  # table code -> the newest projection (version inside)
_kept_lock = threading.Lock()
KEPT_TABLES = 1024
# table code -> the history read running for it (in a worker thread), for every tab to share
_reads: dict[str, asyncio.Future[MatchHistory]] = {}


async def _read(service: Any, code: str, version: int) -> MatchHistory:
    """The service's history of ``code`` at ``version`` or later: memory when kept, else one
    read in a worker thread that every tab of the table asking meanwhile shares (they all ask
    right after each change). Raises what ``service.history`` raises."""
    loop = asyncio.get_running_loop()
    while True:
        hist: MatchHistory | None = service.history_cached(code, version)
        if hist is not None:
            return hist
        running = _reads.get(code)
        if running is None or running.get_loop() is not loop:
            running = _reads[code] = asyncio.ensure_future(asyncio.to_thread(service.history, code))
            running.add_done_callback(
                lambda done: _reads.pop(code, None) if _reads.get(code) is done else None
            )
            return await asyncio.shield(running)
        hist = await asyncio.shield(running)
        if hist.version >= version:
            return hist
        # that read began before this version was committed: read again (or share the next)


async def history_for(service: Any, snap: TableSnapshot) -> HistoryUi:
    """This viewer's :class:`HistoryUi` of the table of ``snap``, at ``snap.version`` or later.

    Memory only when the service keeps the table's history at that version (the usual case:
    the first tab to ask after a change reads it, in a worker thread, for all: :func:`_read`).
    The projection is kept per table and version, and the next version's reuses its lines.
    Raises what ``service.history`` raises."""
    code = snap.code
    with _kept_lock:
        kept = _kept.get(code)
    if kept is None or kept.ui.version < snap.version:
        hist = await _read(service, code, snap.version)
        if kept is None or kept.ui.version != hist.version:
            mode = str(getattr(snap.rules.mode, "value", snap.rules.mode)).lower()
            ui = history_ui(hist, snap, kept)
            fresh = _Projected(hist, _names(snap), mode, ui)
            with _kept_lock:
                old = _kept.get(code)
                if old is None or old.ui.version <= ui.version:
                    _kept[code] = kept = fresh
                else:
                    kept = old
                while len(_kept) > KEPT_TABLES:
                    _kept.pop(next(iter(_kept)))
    return for_viewer(kept.ui, snap.my_seat)


def last_kept(code: str) -> HistoryUi | None:
    """The newest projection kept for table ``code`` (any version), or None."""
    with _kept_lock:
        kept = _kept.get(code)
    return None if kept is None else kept.ui
