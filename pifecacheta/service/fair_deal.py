"""Verifiable deals, the service side: commit to a fresh secret seed before each deal, gather the
seated people's contributions, hand the deal its :class:`~pifecacheta.rules.RoundKey`.

The life of one round's seed (construction ``pifecacheta-deal-1``, rules/verify_round.py):

1. **Commit.** When a table is created, and whenever a round ends with a deal to follow (the
   next round, or a REVANCHE's first: :func:`deal_follows`), the table gets a
   ``pending_deal`` row: 32 bytes from :func:`secrets.token_bytes` (never derived from another
   round's seed or the match seed) and its SHA-256, the commitment every viewer is shown.
2. **Contribute.** Each seated person's browser, on seeing a commitment it has not answered,
   sends 32 random bytes (``crypto.getRandomValues``, state/browser_scripts.py); the first value
   of each seat counts, bots send none. Nothing else changes: no table version, no refusal of
   anybody's move.
3. **Deal.** COMEÇAR / REVANCHE (``Store.deal_new_match``) and PRÓXIMA RODADA
   (:func:`with_key`) take the row: its seed and the contributions received become the round's
   key, stored in the hidden match and logged with the deal's action-log row (server side only).
4. **Reveal.** Once the round is over (FIM DA RODADA, or the match ended in it), the snapshot
   shows the seed (:func:`deal_info`); the round record and the Verificar view check it.

Which deals are verifiable: all of them in production. A service built with a ``seed_source``
(unit tests) or run with ``PIFECACHETA_FIXED_SEED`` (browser tests that plan a deal from an
integer) deals from the integer seed as before, unless ``PIFECACHETA_FAIR_DEAL=1``; with both,
the round seeds come from :func:`seed_for_tests` so such a test can plan a verifiable deal.
Tables stored before this existed have no key: their current round stays integer-seeded and
shows no commitment; their next round gets a fresh key (with no contributions, as nobody saw a
commitment for it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session

from ..models import PendingDeal
from ..rules import Action, Match, NextRound, Phase, RoundKey, Termination
from ..settings import fixed_seed_from_env

_PENDING_TABLE: sa.Table = PendingDeal.__table__  # type: ignore[attr-defined]
_PENDING = _PENDING_TABLE.c
_PENDING_OF = sa.select(
    _PENDING.id, _PENDING.seed_hex, _PENDING.commitment, _PENDING.contributions_json
).where(_PENDING.table_id == sa.bindparam("table_id"))
_HEX64 = re.compile(r"[0-9a-f]{64}")
OVER = (Phase.ROUND_OVER, Phase.MATCH_OVER)


@dataclass(frozen=True)
class DealInfo:
    """What a viewer may know of the deals of a table (all public).

    ``commitment``: SHA-256 of the current round's seed ("" for an integer-seeded round);
    ``seed``: that seed in hex once the round is over, "" before; ``contributions``: the round's
    ``(seat, hex)`` values, shown with the seed; ``pending``: the commitment of the next deal
    ("" when none is waiting); ``pending_from``: the seats whose value it already has.
    """

    commitment: str = ""
    seed: str = ""
    contributions: tuple[tuple[int, str], ...] = ()
    pending: str = ""
    pending_from: frozenset[int] = frozenset()


NONE = DealInfo()


def fair_from_env() -> bool:
    """True when env ``PIFECACHETA_FAIR_DEAL`` is ``1`` (tests: verifiable deals with a fixed seed)."""
    return os.environ.get("PIFECACHETA_FAIR_DEAL", "") == "1"


def seed_for_tests(fixed: int, n: int) -> bytes:
    """Tests only: the seed committed for round ``n`` under ``PIFECACHETA_FIXED_SEED`` = ``fixed``
    and ``PIFECACHETA_FAIR_DEAL=1``: SHA-256 of ``b"pifecacheta-test-seed:<fixed>:<n>"``."""
    return hashlib.sha256(f"pifecacheta-test-seed:{fixed}:{n}".encode()).digest()


def verifiable(seed_source_given: bool) -> bool:
    """Whether new deals get a :class:`RoundKey` (see the module docstring)."""
    if fair_from_env():
        return True
    return not seed_source_given and fixed_seed_from_env() is None


def _new_seed(hint: int) -> bytes:
    """A fresh secret round seed (32 bytes); under a fixed seed (tests), :func:`seed_for_tests`
    of the round number ``hint`` the deal is expected to have."""
    fixed = fixed_seed_from_env()
    return secrets.token_bytes(32) if fixed is None else seed_for_tests(fixed, hint)


def open_pending(s: Session, table_id: int, now: datetime, round_number: int) -> None:
    """Commit to the table's next deal (expected to be round ``round_number``): a
    ``pending_deal`` row with a fresh seed, unless one waits."""
    conn = s.connection()
    if conn.execute(_PENDING_OF, {"table_id": table_id}).first() is not None:
        return
    seed = _new_seed(round_number)
    conn.execute(
        sa.insert(_PENDING_TABLE),
        {
            "table_id": table_id,
            "seed_hex": seed.hex(),
            "commitment": hashlib.sha256(seed).hexdigest(),
            "contributions_json": "{}",
            "created_at": now,
        },
    )


def take_key(
    s: Session, table_id: int, round_number: int, seats: Mapping[str, int], *, consume: bool = True
) -> RoundKey:
    """The key of the deal being made now: the waiting seed with the contributions of the
    people seated now (``seats``: player id -> seat); a fresh seed without contributions when
    none waits (a table from before verifiable deals). ``consume``: delete the waiting row now
    (else :func:`consume` does, when the deal is saved)."""
    conn = s.connection()
    row = conn.execute(_PENDING_OF, {"table_id": table_id}).first()
    if row is None:
        return RoundKey(_new_seed(round_number))
    if consume:
        conn.execute(sa.delete(_PENDING_TABLE).where(_PENDING.id == row.id))
    values = json.loads(row.contributions_json)
    return RoundKey(
        bytes.fromhex(row.seed_hex),
        tuple(sorted((seats[p], bytes.fromhex(v)) for p, v in values.items() if p in seats)),
    )


def consume(s: Session, table_id: int) -> None:
    """Delete the table's waiting deal: its key was just dealt (a saved PRÓXIMA RODADA)."""
    s.connection().execute(sa.delete(_PENDING_TABLE).where(_PENDING.table_id == table_id))


def contribute(s: Session, table_id: int, player_id: str, commitment: str, value: str) -> bool:
    """Add the value (64 lowercase hex digits) of seated player ``player_id`` to the waiting deal
    whose commitment is ``commitment`` (kept by player: lobby seats move up when one leaves).
    True when added; False when no such deal waits (it was dealt) or the player already gave
    one. Raises ValueError on a malformed value. Call it in a write transaction that loaded
    the table (its row lock orders it with the deal)."""
    if not _HEX64.fullmatch(value):
        raise ValueError("a contribution is 64 lowercase hex digits")
    conn = s.connection()
    row = conn.execute(_PENDING_OF, {"table_id": table_id}).first()
    if row is None or row.commitment != commitment:
        return False
    values = json.loads(row.contributions_json)
    if player_id in values:
        return False
    values[player_id] = value
    conn.execute(
        sa.update(_PENDING_TABLE)
        .where(_PENDING.id == row.id)
        .values(contributions_json=json.dumps(values, sort_keys=True))
    )
    return True


def with_key(
    s: Session, table_id: int, match: Match, action: Action, enabled: bool, seats: Mapping[str, int]
) -> Action:
    """``action`` as the service applies it: a PRÓXIMA RODADA that deals a round carries the
    waiting key (:func:`take_key`; the row goes when the deal is saved, ``Store.commit_match``,
    so a refused or unsaved one leaves it waiting); anything else, or integer-seeded service,
    as it is."""
    if not enabled or not isinstance(action, NextRound) or match.outcome is not None:
        return action
    r = match.round
    if r is None or r.phase is not Phase.ROUND_OVER:
        return action  # refused by the engine anyway: the waiting seed stays
    return NextRound(take_key(s, table_id, match.round_number + 1, seats, consume=False))


def round_ended(old: Match, new: Match) -> bool:
    """True when ``new`` is the first state after the current round's play ended."""
    return (
        new.round is not None
        and new.round.phase in OVER
        and (old.round is None or old.round.phase not in OVER)
    )


def deal_follows(old: Match, new: Match) -> bool:
    """True when the round just ended (:func:`round_ended`) and a deal can follow it, so a
    commitment is worth making: the match goes on (PRÓXIMA RODADA), or it ended with a go-out
    or the last with lives and nobody left the table (a REVANCHE may deal, seed 000 line 70).
    After a resignation, a claimed absence or an expiry no deal follows."""
    if not round_ended(old, new):
        return False
    if new.outcome is None:
        return True
    normal = new.outcome.termination in (Termination.GONE_OUT, Termination.LAST_WITH_LIVES)
    return normal and not new.left


def deal_info(conn: sa.Connection, table_id: int, match: Match | None, seats: Mapping[str, int]) -> DealInfo:
    """The public deal facts of a table for its snapshot: the current commitment, the seed and
    contributions once the round is over, the waiting commitment and the seats (``seats``:
    player id -> seat) that answered it (read only in the lobby and after a round, when one
    can wait)."""
    info = match_deal_info(match)
    if match is None or (match.round is not None and match.round.phase in OVER):
        row = conn.execute(_PENDING_OF, {"table_id": table_id}).first()
        if row is not None:
            answered = frozenset(seats[p] for p in json.loads(row.contributions_json) if p in seats)
            info = DealInfo(info.commitment, info.seed, info.contributions, row.commitment, answered)
    return info


def match_deal_info(match: Match | None) -> DealInfo:
    """The deal facts ``match`` itself holds: its commitment, and once its round is over the
    seed and contributions (no waiting deal: :func:`deal_info` adds it). While a round is in
    play this is the whole of :func:`deal_info`."""
    key = None if match is None else match.key
    if key is None:
        return NONE
    if match is not None and match.round is not None and match.round.phase in OVER:
        return DealInfo(
            commitment=key.commitment,
            seed=key.seed.hex(),
            contributions=tuple((seat, v.hex()) for seat, v in key.contributions),
        )
    return DealInfo(commitment=key.commitment)
