"""Random playouts: seeded games of random legal actions, checked after every action.

Default run: 40 Pife and 4 Cacheta games per seat count (2..4), 132 games, about 20 s of
CPU (a Cacheta match is many rounds). More with the environment variable
``PLAYOUTS=<games per mode and seat count>``, e.g. ``PLAYOUTS=500 pytest tests/rules/test_playouts.py``,
or per mode with ``PLAYOUTS_PIFE`` / ``PLAYOUTS_CACHETA`` (CI runs thousands: see ``.ci/run``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    AnnounceOneAway,
    Card,
    ClaimAbsence,
    Discard,
    Draw,
    Expire,
    GoOut,
    LeaveTable,
    Match,
    Mode,
    NextRound,
    Phase,
    Resign,
    Rules,
    TakeDiscard,
    Termination,
    active_seats,
    apply,
    full_deck,
    legal_actions,
    new_match,
)
from pifecacheta.rules.actions import Action

_ENV = os.environ.get("PLAYOUTS")
GAMES = {
    Mode.PIFE: int(os.environ.get("PLAYOUTS_PIFE") or _ENV or 40),
    Mode.CACHETA: int(os.environ.get("PLAYOUTS_CACHETA") or _ENV or 4),
}
CAP = 5000  # actions per game; a game that needs more is a failure


FULL_DECK = sorted(full_deck())
assert len(set(FULL_DECK)) == 104


def _closeness(card: Card, hand: tuple[Card, ...]) -> int:
    """How much ``card`` helps the hand: same rank or a near card of the same suit."""
    score = 0
    for other in hand:
        if other == card:
            continue
        if other.rank == card.rank:
            score += 2
        elif other.suit == card.suit and abs(other.rank - card.rank) <= 2:
            score += 1
    return score


def choose(m: Match, seat: int, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Playout policy: go out when possible, otherwise mostly keep cards that fit the hand."""
    go_outs = [a for a in legal if isinstance(a, GoOut)]
    if go_outs:
        return rng.choice(go_outs)
    assert m.round is not None
    if m.round.phase is Phase.DRAW:
        return rng.choice([a for a in legal if isinstance(a, (Draw, TakeDiscard))])
    discards = [a for a in legal if isinstance(a, Discard)]
    if rng.random() < 0.3:
        return rng.choice(discards)
    hand = m.round.hands[seat]
    return min(discards, key=lambda a: (_closeness(a.card, hand), rng.random()))


def check_invariants(m: Match) -> None:
    """Cards, sizes and bookkeeping that must hold in every position."""
    r = m.round
    assert r is not None
    cards = [c for h in r.hands for c in h] + list(r.stock) + list(r.discard_pile)
    if r.vira is not None:
        cards.append(r.vira)
    assert sorted(cards) == FULL_DECK  # all 104, no duplicates
    assert len(r.discarded_by) == len(r.discard_pile)
    for s in range(m.seats):
        assert set(r.picked_up[s]) <= set(r.hands[s])
        assert 0 <= m.lives[s] <= m.rules.lives
    assert r.plain <= {c for h in r.hands for c in h}
    active = active_seats(m)
    if r.phase in (Phase.DRAW, Phase.DISCARD):
        assert r.turn in active and m.outcome is None
        for s in range(m.seats):
            expected = 0 if s not in active else (10 if s == r.turn and r.phase is Phase.DISCARD else 9)
            assert len(r.hands[s]) == expected, (s, r.phase)
        if r.taken is not None:
            assert r.phase is Phase.DISCARD and r.taken in r.hands[r.turn]
        assert r.announced <= set(active)
    else:
        assert r.result is not None or m.outcome is not None


def playout(rules: Rules, seats: int, seed: int) -> tuple[Match, int]:
    """Play one seeded game to MATCH_OVER, checking invariants; returns (match, actions)."""
    rng = random.Random(f"playout:{seed}")
    m = new_match(rules, seats, seed=seed)
    if rules.mode is Mode.CACHETA and rng.random() < 0.8:  # shorter matches, same flow
        m = replace(m, lives=tuple(rng.choice((1, 2, 3)) for _ in range(seats)))
    table_action = rng.random() < 0.1  # some games end by resign / absence / expiry
    check_invariants(m)
    n = 0
    while True:
        r = m.round
        assert r is not None
        if r.phase is Phase.MATCH_OVER:
            break
        n += 1
        assert n <= CAP, f"game {rules.mode.value}/{seats}/{seed} did not end"
        version = m.version
        if r.phase is Phase.ROUND_OVER:
            seat = rng.choice([s for s in range(seats) if s not in m.left])
            assert legal_actions(m, seat) == (NextRound(),)
            m = apply(m, seat, NextRound())
        elif table_action and rng.random() < 0.01:
            others = [s for s in active_seats(m) if s != r.turn]
            kind = rng.choice(("resign", "absence", "expire"))
            if kind == "resign":
                m = apply(m, rng.choice(active_seats(m)), Resign())
            elif kind == "absence":
                m = apply(m, rng.choice(others), ClaimAbsence())
            else:
                m = apply(m, None, Expire())
        else:
            fora = [s for s in range(seats) if s not in active_seats(m) and s not in m.left]
            if fora and rng.random() < 0.05:
                m = apply(m, rng.choice(fora), LeaveTable())
                assert m.version == version + 1
                version = m.version
            if rules.mode is Mode.CACHETA and rng.random() < 0.1:
                s = rng.choice(active_seats(m))
                if AnnounceOneAway() in legal_actions(m, s):
                    m = apply(m, s, AnnounceOneAway())
                    assert s in m.round.announced  # type: ignore[union-attr]
                    version = m.version
            seat = m.round.turn  # type: ignore[union-attr]
            legal = legal_actions(m, seat)
            assert legal, "the seat to move has no legal action"
            if rng.random() < 0.05:  # only the seat to move may play a card
                s = rng.choice([x for x in range(seats) if x != seat])
                plays = (Draw, TakeDiscard, Discard, GoOut)
                assert not any(isinstance(a, plays) for a in legal_actions(m, s))
            m = apply(m, seat, choose(m, seat, legal, rng))
        assert m.version == version + 1
        check_invariants(m)
    out = m.outcome
    assert out is not None
    if out.termination is Termination.GONE_OUT:
        assert rules.mode is Mode.PIFE and m.round.result.winner == out.winner  # type: ignore[union-attr]
    if out.termination is Termination.LAST_WITH_LIVES:
        assert [s for s in range(seats) if m.lives[s] > 0] == [out.winner]
    for s in range(seats):
        assert legal_actions(m, s) == ()
    return m, n


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_playouts(rules: Rules, seats: int) -> None:
    endings: Counter[Termination] = Counter()
    games = GAMES[rules.mode]
    for seed in range(games):
        m, _ = playout(rules, seats, seed * 10 + seats)
        assert m.outcome is not None
        endings[m.outcome.termination] += 1
    natural = Termination.GONE_OUT if rules.mode is Mode.PIFE else Termination.LAST_WITH_LIVES
    assert endings[natural] >= 1 or games < 3
