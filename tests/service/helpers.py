"""Test-only helpers: read the hidden match from the database and play simple legal moves.

Tests may look at the hidden state (the UI never can) to pick legal actions quickly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

import sqlalchemy as sa
from sqlmodel import Session, select

from pifecacheta.models import ActionLog, GameTable
from pifecacheta.rules import Action, Discard, Draw, GoOut, Match, NextRound, Phase, legal_actions
from pifecacheta.service import Identity, TableService


def hidden_match(engine: sa.Engine, code: str) -> Match:
    with Session(engine) as s:
        t = s.exec(select(GameTable).where(GameTable.code == code)).one()
        assert t.match_json is not None
        return Match.from_dict(json.loads(t.match_json))


def table_row(engine: sa.Engine, code: str) -> GameTable:
    with Session(engine, expire_on_commit=False) as s:
        return s.exec(select(GameTable).where(GameTable.code == code)).one()


def log_count(engine: sa.Engine, code: str) -> int:
    t = table_row(engine, code)
    with Session(engine) as s:
        return len(s.exec(select(ActionLog).where(ActionLog.table_id == t.id)).all())


def patch_match(
    engine: sa.Engine, code: str, fn: Callable[[Match], Match], *, keep_version: bool = False
) -> None:
    """Rewrite the stored match (to set up a position quickly) and move the table version on,
    as every write of the table does (a service keeps rows by version: ``Store.known``);
    ``keep_version``: leave the version as it is (a rewrite by hand the caches must notice)."""
    m = fn(hidden_match(engine, code))
    with Session(engine) as s, s.begin():
        t = s.exec(select(GameTable).where(GameTable.code == code)).one()
        t.match_json = json.dumps(m.to_dict())
        t.version += 0 if keep_version else 1
        s.add(t)


def simple_action(match: Match, seat: int, rng: random.Random, *, go_out: bool = True) -> Action | None:
    """Go out when possible (if ``go_out``), else draw, else a random legal discard."""
    acts = legal_actions(match, seat)
    if go_out:
        for a in acts:
            if isinstance(a, GoOut):
                return a
    for a in acts:
        if isinstance(a, Draw | NextRound):
            return a
    discards = [a for a in acts if isinstance(a, Discard)]
    return rng.choice(discards) if discards else None


def play_human_move(
    svc: TableService,
    engine: sa.Engine,
    code: str,
    who: Identity,
    seat: int,
    rng: random.Random,
    *,
    go_out: bool = True,
) -> bool:
    """One simple legal move for ``who`` at ``seat`` through the service; False if none."""
    m = hidden_match(engine, code)
    action = simple_action(m, seat, rng, go_out=go_out)
    if action is None:
        return False
    svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)
    return True


def current_turn(engine: sa.Engine, code: str) -> tuple[Phase, int | None]:
    m = hidden_match(engine, code)
    assert m.round is not None
    return m.round.phase, m.round.turn


def give_hand(match: Match, seat: int, notation: str) -> Match:
    """The match with ``seat`` holding exactly the cards of ``notation`` (e.g. "AH 2H 3H ..."),
    each swapped with one of the seat's own cards wherever it was (stock, pile, other hands),
    so every physical card stays exactly once in the deal."""
    from dataclasses import replace

    from pifecacheta.rules import parse_hand

    r = match.round
    assert r is not None
    want = parse_hand(notation)
    hands = [list(h) for h in r.hands]
    stock, pile = list(r.stock), list(r.discard_pile)
    spare = [c for c in hands[seat] if c not in want]
    mine = [c for c in hands[seat] if c in want]
    for card in want:
        if card in mine:
            continue
        give = spare.pop()
        for place in (*[h for i, h in enumerate(hands) if i != seat], stock, pile):
            if card in place:
                place[place.index(card)] = give
                break
        else:
            raise AssertionError(f"{card} is not in play (the vira?)")
        mine.append(card)
    hands[seat] = mine
    return replace(
        match,
        round=replace(r, hands=tuple(tuple(h) for h in hands), stock=tuple(stock), discard_pile=tuple(pile)),
    )


def play_rounds(svc: TableService, code: str, who: Identity, rng: random.Random) -> Iterator[bool]:
    """Play table ``code`` with ``who`` at seat 0 (going out when it can) and bots at the other
    seats through Cacheta rounds, until the match ends or round 3 is over (at most 300
    moves). Yields after each move: True when a bot made it (``svc.bot_step``), False when the
    person did (PRÓXIMA RODADA included)."""
    engine = svc.store.engine
    for _ in range(300):
        m = hidden_match(engine, code)
        if m.round.phase is Phase.MATCH_OVER or m.round.phase is Phase.ROUND_OVER and m.round_number > 2:
            return
        if m.round.phase in (Phase.DRAW, Phase.DISCARD) and m.round.turn == 0:
            assert play_human_move(svc, engine, code, who, 0, rng, go_out=True)
            yield False
        elif svc.bot_step(code):
            yield True
        else:
            assert play_human_move(svc, engine, code, who, 0, rng)  # PRÓXIMA RODADA
            yield False
