"""MINHAS MESAS / MIS MESAS on the lobby: this browser's player's tables, live.

The rows come from ``TableService.my_tables`` (plain public values, no cards) and are turned
into display text here, in the viewer's language (:func:`rows_for`): the game, the seats,
the status, whose turn, and the last move as a relative time ("há 5 minutos").

Watched tables: the last :data:`WATCHED_KEEP` tables this browser opened are remembered in
its localStorage (``pc_watched``, like the identity keys ``pc_*`` of ``state/viewer.py``);
the service lists those the player does not sit at as watched.

Live: the lobby tab watches the live-feed key ``player:<player id>`` through its
``TableState`` (the feed pushes a new ``table_version`` to a tab whose ``table_code`` is the
key it watches); the service link publishes that key after every commit at one of the
player's tables (``live/service_link.py: publish_player_changes``). ``rows`` reads
``TableState.table_version``, so each push recomputes the list.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Any, TypedDict

import reflex as rx
from babel.dates import format_timedelta

from pifecacheta import i18n, live
from pifecacheta.live.service_link import player_key
from pifecacheta.service import get_service
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState

WATCHED_KEEP = 5  # tables this browser remembers having opened (newest first)
BABEL_LOCALE = {"pt": "pt_BR", "es": "es"}


class RowUi(TypedDict):
    """One row of MINHAS MESAS as the page shows it (all text in the viewer's language)."""

    code: str
    href: str
    game: str  # "Pife" / "Cacheta · 7 vidas"
    seats: str  # "Ana, Bia, Tito"
    status: str  # "Vez de Ana", "Esperando a sua jogada", "Esperando começar", "Terminada: venceu Ana", ...
    when: str  # "há 5 minutos"
    my_turn: bool
    absence: bool  # ENCERRAR POR AUSÊNCIA is open to this player (the AUSÊNCIA badge)
    old: bool
    label: str  # the link's accessible name: everything above in one sentence


class MineUi(TypedDict):
    """MINHAS MESAS as the page shows it: the rows shown at once, and the older finished or
    expired ones folded under MAIS ANTIGAS (``old``)."""

    recent: list[RowUi]
    old: list[RowUi]
    act: int  # rows where the player may act now (SUA VEZ, AUSÊNCIA): the home tab's title counts them


def relative_time(at: datetime, now: datetime, lang: str) -> str:
    """``at`` relative to ``now`` in ``lang`` ("pt"/"es"): "agora mesmo" under a minute, else
    Babel's "há 5 minutos" / "hace 5 minutos".

    >>> from datetime import UTC, timedelta
    >>> n = datetime(2026, 1, 5, tzinfo=UTC)
    >>> relative_time(n - timedelta(minutes=5), n, "pt"), relative_time(n - timedelta(days=2), n, "es")
    ('há 5 minutos', 'hace 2 días')
    >>> relative_time(n, n, "es")
    'ahora mismo'
    """
    lang = i18n.normalise_language(lang)
    delta = at - now
    if abs(delta.total_seconds()) < 60:
        return i18n.text(lang, "mine.just_now")
    return str(format_timedelta(delta, locale=BABEL_LOCALE[lang], add_direction=True, threshold=1.0))


def _status(row: Any, lang: str) -> str:
    """The status text of one service row (:class:`~pifecacheta.service.MyTable`)."""
    t = i18n.catalog(lang)
    if row.status == "lobby":
        return t["mine.waiting"]
    if row.status == "expired":
        return t["mine.expired"]
    if row.status == "finished":
        if row.winner_name:
            return t["mine.won"].replace("{name}", row.winner_name)
        return t["mine.finished"]
    if row.round_over and row.winner_name:  # a go-out that decided the match; PRÓXIMA RODADA shows its end
        return t["mine.decided"].replace("{name}", row.winner_name)
    if row.round_over:
        return t["mine.round_over"]
    if row.my_turn:  # the SUA VEZ badge says whose turn; the line says what is awaited
        return t["mine.your_move"]
    if row.absence:  # seed 000 line 72: 48 hours without a move
        return t["mine.absent"].replace("{name}", row.turn_name)
    return t["turn.other"].replace("{name}", row.turn_name)


def rows_for(rows: list[Any], now: datetime, lang: str) -> list[RowUi]:
    """The service's rows (in its order: SUA VEZ first, then by last move) as display rows."""
    lang = i18n.normalise_language(lang)
    t = i18n.catalog(lang)
    out: list[RowUi] = []
    for r in rows:
        game = t["mode.pife"] if r.mode == "pife" else f"{t['mode.cacheta']} · {r.lives} {t['table.lives']}"
        if r.status == "playing" and r.round_number > 0:  # what tells two tables of the same friends apart
            game += " · " + t["mine.round"].replace("{n}", str(r.round_number))
        seats, spoken = _seats(r, t)
        status = _status(r, lang)
        when = relative_time(r.last_move_at, now, lang)
        out.append(
            RowUi(
                code=r.code,
                href=f"/mesa/{r.code}",
                game=game,
                seats=seats,
                status=status,
                when=when,
                my_turn=bool(r.my_turn),
                absence=bool(r.absence),
                old=bool(r.old),
                label=f"{game}: {spoken}. {status}. {t['mine.last_move']} {when}.",
            )
        )
    return out


def _seats(row: Any, t: dict[str, str]) -> tuple[str, str]:
    """The seats' line of one service row, as shown and as spoken: the names, and in a
    Cacheta match under way each one's lives ("Ana ♥ 6, Bruno ♥ 5" / "Ana 6 vidas, Bruno 5 vidas")."""
    lives = tuple(row.lives_left) if row.status == "playing" else ()
    if len(lives) != len(row.seats):
        names = ", ".join(row.seats)
        return names, names
    shown = ", ".join(f"{n} ♥ {v}" for n, v in zip(row.seats, lives, strict=True))
    spoken = ", ".join(f"{n} {v} {t['table.lives']}" for n, v in zip(row.seats, lives, strict=True))
    return shown, spoken


def remembered(raw: str) -> list[str]:
    """The codes kept in ``pc_watched`` (a JSON list), tolerant of a value edited by hand.

    >>> remembered('["a", "b"]'), remembered("nonsense"), remembered('[1, "x"]')
    (['a', 'b'], [], ['x'])
    """
    try:
        value = json.loads(raw) if raw else []
    except ValueError:
        return []
    if not isinstance(value, list):
        return []
    return [c[:32] for c in value if isinstance(c, str) and c][:WATCHED_KEEP]


class MyTablesState(rx.State):
    """The lobby's MINHAS MESAS list and the toggle of the older tables."""

    watched: str = rx.LocalStorage("", name="pc_watched")  # JSON list of codes, newest first
    show_old: bool = False
    refreshed: int = 0  # bumped by load: a reload re-reads the list

    @rx.var
    async def mine(self) -> MineUi:
        """This player's tables as display rows, recomputed on each push of ``player:<id>``;
        empty (no read) while the tab shows a table rather than the lobby."""
        table = await self.get_state(TableState)
        _heard = (table.table_version, self.refreshed)  # the dependencies that re-read the list
        if not table.table_code.startswith("player:"):  # a table tab: not even the viewer is read
            return MineUi(recent=[], old=[], act=0)
        viewer = await self.get_state(ViewerState)
        from pifecacheta.service import Identity

        who = (
            Identity(player_id=viewer.player_id, secret=viewer.secret, name=viewer.name)
            if viewer.player_id and viewer.secret
            else None
        )
        svc = get_service()
        rows = rows_for(
            await asyncio.to_thread(svc.my_tables, who, remembered(self.watched)), svc.now(), viewer.lang
        )
        return MineUi(
            recent=[r for r in rows if not r["old"]],
            old=[r for r in rows if r["old"]],
            act=sum(1 for r in rows if r["my_turn"] or r["absence"]),
        )

    @rx.event
    async def load(self) -> None:
        """On the lobby's load: watch ``player:<id>`` on the live feed through this tab's
        ``TableState`` (see the module docstring), and read the list again."""
        viewer = await self.get_state(ViewerState)
        table = await self.get_state(TableState)
        self.refreshed += 1
        if not viewer.player_id:
            return
        key = player_key(viewer.player_id)
        table.table_code, table.me = key, ""  # no table shown: its ``ui`` stays empty
        table.table_version = live.current().watch(key, live.tab_of(self))

    @rx.event
    def toggle_old(self) -> None:
        """Show or fold the finished and expired tables older than 7 days."""
        self.show_old = not self.show_old

    @rx.event
    def remember(self) -> None:
        """On a table page's load: remember its code first in ``pc_watched`` (kept: 5)."""
        path = str(self.router.url.path or "")
        code = path.rstrip("/").rsplit("/", 1)[-1] if "/mesa/" in path else ""
        if code:
            self.watched = json.dumps(
                [code, *(c for c in remembered(self.watched) if c != code)][:WATCHED_KEEP]
            )
