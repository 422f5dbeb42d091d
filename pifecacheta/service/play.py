"""Play: a seated player's move (``act``), and what each viewer may see (``snapshots``).

A move is checked by the service (the caller is seated and read the current table version)
and by the rules engine (``apply``), then saved through :meth:`Store.commit_match`. A
snapshot holds only the viewer's own projection: ``player_view`` for their seat, or
``spectator_view``; never the hidden ``Match``.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col

from ..models import ChatMessage, Player, TableOptions, TableStatus
from ..rules import Action, IllegalActionError, apply
from .errors import NotSeated, NotStarted, Refusal, StaleVersion
from .fair_deal import deal_info, with_key
from .identity import hash_secret, verified_id
from .match_life import absence_claimable, refuse_early_absence_claim, rematch_offered
from .rows import Loaded, read_votes, refuse_expired, rules_from_json
from .store import Store
from .table_reads import TableRead, TableReads, derive
from .values import ChatLine, Identity, SeatInfo, TableSnapshot

CHAT_HISTORY = 100  # chat lines in a snapshot
# the statements of every snapshot read, built once; Core rows (read-only, no ORM objects)
_PLAYERS = sa.select(col(Player.id), col(Player.secret_hash)).where(
    col(Player.id).in_(sa.bindparam("ids", expanding=True))
)
_LAST_CHAT = (
    sa.select(col(ChatMessage.seat), col(ChatMessage.name), col(ChatMessage.text), col(ChatMessage.at))
    .where(col(ChatMessage.table_id) == sa.bindparam("table_id"))
    .order_by(col(ChatMessage.id).desc())
    .limit(CHAT_HISTORY)
)

_HINTS = sa.select(col(TableOptions.hints)).where(col(TableOptions.table_id) == sa.bindparam("table_id"))


class Play:
    """Moves and snapshots, on one :class:`Store`."""

    def __init__(self, store: Store, *, derive_reads: bool | None = None) -> None:
        """``derive_reads``: derive snapshot reads from this process's own commits
        (:mod:`.table_reads`) and start a move from the row they kept (:meth:`_act_known`);
        default on when the database is SQLite."""
        self._store = store
        self._derive = store.engine.dialect.name == "sqlite" if derive_reads is None else derive_reads
        self._reads = TableReads(store.matches.size)

    def act(self, code: str, who: Identity, action: Action, *, expected_version: int) -> int:
        """Apply ``action`` for ``who``'s seat if the table is still at ``expected_version``
        (the table version of the caller's snapshot).

        Returns the new table version. Raises NotStarted (TableExpired for a table that
        expired in the lobby), NotSeated (spectators and seats that left), StaleVersion,
        NotAbsentYet (ClaimAbsence before 48 h without a move by the seat to play, seed 000
        line 72), BadIdentity, TableNotFound, or the engine's IllegalActionError. Nothing is
        written when it raises. On SQLite a move after this process's own commit of the table
        reads only the player's secret before its write (:meth:`_act_known`).
        """
        store = self._store
        with store.tx() as s:
            player_id = verified_id(s, who)  # always read: another process may have replaced it
            version = self._act_known(s, code, player_id, action, expected_version) if self._derive else None
            if version is None:
                version = self._apply(s, store.load(s, code), player_id, action, expected_version)
        store.notify(code)
        return version

    def _act_known(
        self, s: Session, code: str, player_id: str, action: Action, expected_version: int
    ) -> int | None:
        """:meth:`act` for the verified ``player_id`` in the write transaction ``s``, on the table
        as this process's own latest commit left it (``Store.known``), so no statement reads
        the row or the seats; the guarded save proves the row unchanged. None when it is not
        kept, or the move is refused or stale (nothing written: the caller then reads the
        table and gets the same answer, or the real refusal)."""
        ld = self._store.known(code, expected_version)
        if ld is None:
            return None
        try:
            return self._apply(s, ld, player_id, action, expected_version)
        except (Refusal, IllegalActionError):
            return None

    def _apply(self, s: Session, ld: Loaded, player_id: str, action: Action, expected_version: int) -> int:
        """The checks and the save of :meth:`act` for ``player_id`` on the loaded table ``ld``."""
        store = self._store
        if ld.match is None:
            refuse_expired(ld.table)
            raise NotStarted("the match has not started")
        mine = ld.seat_of(player_id)
        if mine is None or mine.left:
            raise NotSeated("only the table's players can play")
        if ld.table.version != expected_version:
            raise StaleVersion("the table changed: reload and try again")
        action = with_key(s, ld.table.id, ld.match, action, store.verifiable(), store.people(ld))
        new = apply(ld.match, mine.seat, action)
        refuse_early_absence_claim(ld, action, store.now())
        return store.commit_match(
            s, ld, new, mine.seat, action, f"player:{player_id}", expected_version=expected_version
        )

    def snapshots(self, code: str, whos: Sequence[Identity | None]) -> list[TableSnapshot]:
        """One :class:`TableSnapshot` for each of ``whos``, in order, from ONE read of the table.

        ``None``, or an identity that does not verify, gets a spectator's snapshot. Reading
        the table, seats, chat and players once for every open tab keeps the refresh of a
        table of 4 players + spectators to a few queries; after this process's own commit of a
        plain move the read is derived from the previous one instead
        (:mod:`.table_reads`: one process on SQLite only). Each snapshot is still built from
        that viewer's own projection only. Raises TableNotFound (``table_not_found``).
        """
        store = self._store
        ids = {w.player_id for w in whos if w is not None and w.player_id and w.secret}
        read = self._derived(code, ids) if self._derive else None
        if read is None:
            read = self._read(code, ids)
        return _build(read, whos, store.now())

    def snapshots_known(self, code: str, whos: Sequence[Identity | None]) -> list[TableSnapshot] | None:
        """:meth:`snapshots` when the read can be derived from this process's own last commit
        (:func:`~.table_reads.derive`), else None. Touches no database and never blocks on one,
        so the event loop may call it itself; None sends the caller to :meth:`snapshots` in a
        worker thread. Identities and snapshots are as in :meth:`snapshots`."""
        if not self._derive:
            return None
        ids = {w.player_id for w in whos if w is not None and w.player_id and w.secret}
        read = self._derived(code, ids)
        return None if read is None else _build(read, whos, self._store.now())

    def _derived(self, code: str, ids: set[str]) -> TableRead | None:
        """The read of ``code`` derived from the kept one and this process's last commit, or None."""
        store, reads = self._store, self._reads
        kept = reads.get(code)
        if kept is None:
            return None
        notices = store.notices.last_two(code)
        read = derive(
            kept, notices, store.commits.get(code), store.matches, store.secrets_replaced, ids, reads.clock()
        )
        if read is not None:
            reads.derived += 1
            reads.keep(code, read)
        return read

    def _read(self, code: str, ids: set[str]) -> TableRead:
        """The table's shared facts read from the database (and kept for the next derivation)."""
        store, reads = self._store, self._reads
        notice = store.notices.last_two(code)[1]  # taken BEFORE the read: a racing commit misses
        replaced = store.secrets_replaced
        at = reads.clock()
        with store.read() as s:
            conn = s.connection()
            digests: dict[str, str | None] = dict.fromkeys(ids)
            if ids:
                digests.update({r[0]: r[1] for r in conn.execute(_PLAYERS, {"ids": list(ids)})})
            ld = store.load(s, code)
            t = ld.table
            chat_rows = conn.execute(_LAST_CHAT, {"table_id": t.id}).all()
            hints = bool(conn.execute(_HINTS, {"table_id": t.id}).scalar())  # no row: off
            deal = deal_info(conn, t.id, ld.match, store.people(ld))
        chat = tuple(ChatLine(*c) for c in reversed(chat_rows))
        read = TableRead(notice, replaced, at, ld, digests, chat, hints, deal)
        if self._derive:
            reads.read += 1
            reads.keep(code, read)
        return read


def _build(read: TableRead, whos: Sequence[Identity | None], now: datetime) -> list[TableSnapshot]:
    """Each of ``whos``' snapshot of ``read`` at ``now`` (aware UTC), in order."""
    ld = read.ld
    t, cached = ld.table, ld.cached
    rules = rules_from_json(t.rules_json)
    status = TableStatus(t.status)
    creator = next((x.seat for x in ld.seats if x.player_id == t.creator_id), None)
    votes = read_votes(t)
    offered = rematch_offered(ld)
    out: list[TableSnapshot] = []
    for who in whos:
        me = (
            who.player_id
            if who is not None and _secret_ok(read.digests.get(who.player_id), who.secret)
            else None
        )
        mine = ld.seat_of(me) if me is not None else None
        my_seat = mine.seat if mine is not None and not mine.left else None
        view = None
        if cached is not None:
            view = cached.view(my_seat)  # computed once per table version
        out.append(
            TableSnapshot(
                code=t.code,
                rules=rules,
                status=status,
                version=t.version,
                creator_seat=creator,
                seats=tuple(
                    SeatInfo(
                        seat=x.seat,
                        name=x.name,
                        is_bot=x.bot is not None,
                        is_me=me is not None and x.player_id == me,
                        left=x.left,
                    )
                    for x in ld.seats
                ),
                my_seat=my_seat,
                view=view,
                chat=read.chat,
                absence_claimable=absence_claimable(ld, my_seat, now),
                rematch_votes=votes,
                rematch_offered=offered,
                hints=read.hints,
                deal=read.deal,
            )
        )
    return out


def _secret_ok(secret_hash: str | None, secret: str | None) -> bool:
    """True when ``secret`` hashes to the stored ``secret_hash`` (constant-time comparison), as
    :func:`~.identity.secret_matches` for a player row."""
    return (
        secret_hash is not None
        and bool(secret)
        and hmac.compare_digest(secret_hash, hash_secret(secret or ""))
    )
