"""Round records: a finished round of the current match as a JSON document anyone can check
(docs/ROUND_RECORD.md), the checks of the Verificar view, and the contributions of the seated.

A record is built by replaying the action log from the match's deal through the engine (as
:mod:`.history` does): per round, the deal as played (every hand, the vira, the stock), the
stock after each rebuild, the actions, the go-out. Only a round that is over and was dealt
with a :class:`~pifecacheta.rules.RoundKey` has a record: its seed is revealed then
(service/fair_deal.py). The record holds every hand of that round: it is given to the people
of the table only (a seated person, or one who left), checked with their secret like every
other request (``identity.verify``).

:meth:`RoundRecords.steps` gives the replay: one player view per action of the round, for the
viewer's own seat (a spectator's view for a seat that had no hand): what that viewer saw.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

import sqlalchemy as sa

from ..models import ActionLog
from ..rules import Match, PlayerView, apply, player_view, spectator_view
from ..rules.actions import Draw, action_from_dict
from ..rules.shuffle import RoundKey
from ..rules.verify_round import CONSTRUCTION, SCHEMA, verify
from . import fair_deal
from .errors import NotSeated, NotStarted, Refusal
from .identity import verify as verify_identity
from .match_replay import ENGINE_TYPES, MATCH_STARTS, dealt_match
from .store import Store
from .values import Identity

_LOG = ActionLog.__table__.c  # type: ignore[attr-defined]
_ROWS = (
    sa.select(_LOG.version, _LOG.seat, _LOG.action_json)
    .where(_LOG.table_id == sa.bindparam("table_id"))
    .order_by(_LOG.id)
)


class RoundNotAvailable(Refusal):
    """No record of that round: not over yet, not dealt verifiably, or no such round."""

    def __init__(self, message: str = "") -> None:
        super().__init__("round_not_available", message)


@dataclass
class PlayedRound:
    """One round of the replayed match: its key, deal, actions and the views after each step.

    ``version``: the table version of the row that dealt it (start, rematch or next_round);
    ``states``: ``(match after the step, logged action or None for the deal)``, oldest first;
    ``match_number``: which match of the table (1 for the first, one more after each REVANCHE).
    """

    number: int
    version: int
    key: RoundKey | None
    dealer: int
    active: list[int]
    deal: Match
    actions: list[dict[str, Any]] = field(default_factory=list)
    rebuilds: list[list[str]] = field(default_factory=list)
    states: list[tuple[Match, dict[str, Any] | None]] = field(default_factory=list)
    over: bool = False
    match_number: int = 1


def replay_rounds(
    entries: list[tuple[int, int | None, dict[str, Any]]], stored: Match, match_number: int | None = None
) -> list[PlayedRound]:
    """The rounds of one match of the table, replayed through the engine from the action log
    ``entries`` (version, seat, logged dict).

    ``match_number`` counts the start and REVANCHE rows of the log from 1 (as the history's
    ``RoundSummary.match_number`` does); None or the last one is the current match, dealt with
    ``stored``'s seed. An earlier match replays from its deal row with the seed the REVANCHE
    row after it logged (``ended_seed``, public once that match was over, seed 000 line 70) or
    its verifiable keys; [] when there is no such match or it cannot be dealt again (a log
    from before ``ended_seed`` of a deal that was not verifiable). Raises IllegalActionError on
    a log that does not replay."""
    starts = [i for i, e in enumerate(entries) if e[2].get("type") in MATCH_STARTS]
    j = len(starts) - 1 if match_number is None else match_number - 1
    if not 0 <= j < len(starts):
        return []
    m = dealt_match(stored, entries, starts, j)
    if m is None:
        return []
    rounds = [_round_of(m, entries[starts[j]][0])]
    end = starts[j + 1] if j + 1 < len(starts) else len(entries)
    for version, seat, entry in entries[starts[j] + 1 : end]:
        if entry.get("type") not in ENGINE_TYPES:
            continue
        action = action_from_dict(entry)
        new = apply(m, seat, action)
        cur = rounds[-1]
        if new.round_number != m.round_number:  # a NextRound dealt the next round
            rounds.append(_round_of(new, version))
        elif new.round is not None and m.round is not None and not cur.over:
            row = {"version": version, "seat": seat, "action": entry}
            cur.actions.append(row)
            if isinstance(action, Draw) and new.round.rebuilds > m.round.rebuilds and seat is not None:
                cur.rebuilds.append([str(c) for c in (*new.round.stock, new.round.hands[seat][-1])])
            cur.states.append((new, row))
            cur.over = new.round.phase in fair_deal.OVER
        m = new
    for pr in rounds:
        pr.match_number = j + 1
    return rounds


def _round_of(m: Match, version: int) -> PlayedRound:
    """A :class:`PlayedRound` for the round ``m`` was just dealt, by the row of ``version``."""
    r = m.round
    assert r is not None
    active = [s for s in range(m.seats) if r.hands[s]]
    return PlayedRound(m.round_number, version, m.key, m.dealer, active, m, states=[(m, None)])


def record_of(code: str, names: list[dict[str, Any]], stored: Match, pr: PlayedRound) -> dict[str, Any]:
    """The round record (docs/ROUND_RECORD.md) of ``pr``; ``names``: per seat name and bot."""
    assert pr.key is not None
    r = pr.deal.round
    assert r is not None
    final = pr.states[-1][0].round
    result = None if final is None else final.result
    rules = {f.name: getattr(stored.rules, f.name) for f in fields(stored.rules)}
    rules["mode"] = stored.rules.mode.value
    return {
        "schema": SCHEMA,
        "table": code,
        "match_number": pr.match_number,
        "round_number": pr.number,
        "rules": rules,
        "seats": names,
        "dealer": pr.dealer,
        "active": pr.active,
        "deal": {
            "construction": CONSTRUCTION,
            "version": pr.version,
            "commitment": pr.key.commitment,
            "seed": pr.key.seed.hex(),
            "contributions": [{"seat": s, "value": v.hex()} for s, v in pr.key.contributions],
        },
        "actions": pr.actions,
        "played": {
            "hands": [[str(c) for c in h] for h in r.hands],
            "vira": None if r.vira is None else str(r.vira),
            "stock": [str(c) for c in r.stock],
            "rebuilds": pr.rebuilds,
            "result": None
            if result is None
            else {
                "winner": result.winner,
                "out_of_turn": result.out_of_turn,
                "melds": [[str(c) for c in meld.cards] for meld in result.plan.melds],
                "discard": None if result.plan.discard is None else str(result.plan.discard),
            },
        },
    }


@dataclass(frozen=True)
class ReplayStep:
    """One step of a round as one viewer saw it: ``view`` after the step, ``seat`` / ``action``
    the logged action (None for the deal)."""

    view: PlayerView
    seat: int | None
    action: dict[str, Any] | None


class RoundRecords:
    """Records, checks, replays and contributions, on one :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def contribute(self, code: str, who: Identity, commitment: str, value: str) -> bool:
        """Add ``who``'s browser value (64 hex digits) to the deal committed as ``commitment``.

        True when it was added, False when that deal is no longer waiting or ``who`` gave one
        already. Raises NotSeated (not seated at the table, or left), Refusal
        ``bad_contribution`` (not 64 hex digits), BadIdentity, TableNotFound. Changes no table
        version: nobody's move is refused because of it.
        """
        store = self._store
        with store.tx() as s:
            p = verify_identity(s, who)
            ld = store.load(s, code)
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise NotSeated("only the table's players contribute to its deal")
            try:
                return fair_deal.contribute(s, ld.table.id, p.id, str(commitment), str(value))
            except ValueError:
                raise Refusal("bad_contribution", "a contribution is 64 hex digits") from None

    def _rounds(
        self, code: str, who: Identity, match_number: int | None = None
    ) -> tuple[list[PlayedRound], Match, list[dict[str, Any]], int | None]:
        """The replayed rounds of match ``match_number`` of ``code`` (None: the current one,
        :func:`replay_rounds`), the stored match, the seats' names and ``who``'s seat; raises
        NotSeated for someone who never sat there, NotStarted."""
        store = self._store
        with store.read() as s:
            p = verify_identity(s, who)
            ld = store.load(s, code)
            mine = ld.seat_of(p.id)
            if mine is None:
                raise NotSeated("only the people of the table may open its rounds")
            if ld.match is None:
                raise NotStarted("the match has not started")
            rows = s.connection().execute(_ROWS, {"table_id": ld.table.id}).all()
        entries = [(int(r.version), r.seat, json.loads(r.action_json)) for r in rows]
        names = [{"seat": x.seat, "name": x.name, "bot": x.bot} for x in ld.seats]
        return replay_rounds(entries, ld.match, match_number), ld.match, names, mine.seat

    def available(self, code: str, who: Identity, match_number: int | None = None) -> list[int]:
        """The round numbers of match ``match_number`` (None: the current one) that have a
        record (over and verifiably dealt)."""
        rounds, *_ = self._rounds(code, who, match_number)
        return [pr.number for pr in rounds if pr.over and pr.key is not None]

    def record(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> dict[str, Any]:
        """The record of round ``round_number`` of match ``match_number`` (None: the current
        one). Raises RoundNotAvailable, and what :meth:`available` raises."""
        rounds, stored, names, _ = self._rounds(code, who, match_number)
        pr = next((x for x in rounds if x.number == round_number), None)
        if pr is None or not pr.over or pr.key is None:
            raise RoundNotAvailable(f"round {round_number!r} has no record")
        return record_of(code, names, stored, pr)

    def check(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> list[tuple[str, bool, str]]:
        """The checks of ``rules/verify_round.verify`` on the record of that round."""
        return verify(self.record(code, who, round_number, match_number))

    def steps(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> list[ReplayStep]:
        """Round ``round_number`` of match ``match_number`` (None: the current one) step by step
        as ``who`` saw it: the deal, then one view per action. A round in play, or of a match
        that cannot be dealt again, has no replay (RoundNotAvailable)."""
        rounds, _, _, seat = self._rounds(code, who, match_number)
        pr = next((x for x in rounds if x.number == round_number), None)
        if pr is None or not pr.over:
            raise RoundNotAvailable(f"round {round_number!r} is not over")
        r0 = pr.deal.round
        had_hand = seat is not None and r0 is not None and seat < pr.deal.seats and bool(r0.hands[seat])
        out = []
        for m, row in pr.states:
            view = player_view(m, seat) if had_hand and seat is not None else spectator_view(m)
            out.append(
                ReplayStep(view, None if row is None else row["seat"], None if row is None else row["action"])
            )
        return out
