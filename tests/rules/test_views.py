"""What each seat and a spectator may see (player_view / spectator_view).

The secrecy test walks every value reachable from a view over many random games and checks
that no card of another seat's hand (unless publicly picked up or shown at the round end),
no stock card and not the seed ever appears.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    AnnounceOneAway,
    Card,
    Discard,
    Draw,
    GoOut,
    Match,
    Mode,
    NextRound,
    Phase,
    PlayerView,
    Round,
    Rules,
    TakeDiscard,
    apply,
    legal_actions,
    new_match,
    parse_hand,
    player_view,
    spectator_view,
)

C = Card.parse
ONE_AWAY = "AH 2H 3H 5C 5D 5S 9S 10S 2D"
FAR = "AC 3D 5H 7S 9C JD KS 2S 4C"
FAR2 = "AC' 3D' 5H' 7S' 9C' JD' KS' 2S' 4C'"


def walk(obj: Any) -> Iterator[Any]:
    """Every value reachable from ``obj`` through dataclass fields, containers and dicts."""
    yield obj
    if isinstance(obj, (str, int, float, bool, enum.Enum, Card)) or obj is None:
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from walk(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(k)
            yield from walk(v)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:
            yield from walk(item)
    else:
        raise AssertionError(f"unexpected value in a view: {obj!r}")


def assert_secret(m: Match, view: PlayerView) -> None:
    r = m.round
    assert r is not None
    shown_at_end: dict[int, set[Card]] = {}
    if r.result is not None:
        shown_at_end[r.result.winner] = {c for meld in r.result.plan.melds for c in meld.cards}
    stock = set(r.stock)
    for value in walk(view):
        if isinstance(value, Card):
            assert value not in stock, f"stock card {value} in the view of {view.seat}"
            for s, hand in enumerate(r.hands):
                if s == view.seat or value not in hand:
                    continue
                public = value in r.picked_up[s] or value in shown_at_end.get(s, set())
                assert public, f"seat {s}'s {value} in the view of {view.seat}"
        elif isinstance(value, int) and not isinstance(value, bool):
            assert value != m.seed, "the seed leaked into a view"
        elif isinstance(value, str):
            assert str(m.seed) not in value


def _closeness(card: Card, hand: tuple[Card, ...]) -> int:
    return sum(
        2 if o.rank == card.rank else 1 if o.suit == card.suit and abs(o.rank - card.rank) <= 2 else 0
        for o in hand
        if o != card
    )


def random_game(rules: Rules, seats: int, seed: int, steps: int) -> Iterator[Match]:
    """A seeded game of legal actions (go out when possible), every position yielded."""
    rng = random.Random(seed)
    m = new_match(rules, seats, seed=seed)
    yield m
    for _ in range(steps):
        r = m.round
        assert r is not None
        if r.phase is Phase.MATCH_OVER:
            return
        if r.phase is Phase.ROUND_OVER:
            m = apply(m, rng.randrange(seats), NextRound())
        else:
            legal = legal_actions(m, r.turn)
            go = [a for a in legal if isinstance(a, GoOut)]
            if AnnounceOneAway() in legal and rng.random() < 0.5:
                action: Any = AnnounceOneAway()
            elif go:
                action = rng.choice(go)
            elif r.phase is Phase.DRAW:
                action = rng.choice([a for a in legal if isinstance(a, (Draw, TakeDiscard))])
            else:
                ds = [a for a in legal if isinstance(a, Discard)]
                action = min(ds, key=lambda a: (_closeness(a.card, r.hands[r.turn]), rng.random()))
            m = apply(m, r.turn, action)
        yield m


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_views_keep_secrets_over_random_games(rules: Rules, seats: int) -> None:
    positions = 0
    for game in range(3 if rules.mode is Mode.PIFE else 1):
        seed = 1_000_003 + 7919 * game + seats
        for m in random_game(rules, seats, seed, 250):
            positions += 1
            assert_secret(m, spectator_view(m))
            for s in range(seats):
                v = player_view(m, s)
                assert_secret(m, v)
                assert m.round is not None
                assert v.hand == m.round.hands[s]
    assert positions > 100


def test_view_fields_are_the_contract() -> None:
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names == {
        "seat", "rules", "seats", "round_number", "dealer", "turn", "phase", "hand", "hand_counts",
        "stock_size", "discard_pile", "discarded_by", "vira", "wilds", "lives", "out", "left",
        "announced", "picked_up", "taken", "plain", "result", "outcome", "version", "can_announce",
        "can_go_out", "can_take",
    }  # fmt: skip


def _round(m: Match) -> Round:
    assert m.round is not None
    return m.round


def test_player_view_shows_own_hand_and_public_table() -> None:
    m = new_match(CACHETA_7, 3, seed=8)
    m = apply(m, 1, Draw())
    card = _round(m).hands[1][0]
    m = apply(m, 1, Discard(card))
    v = player_view(m, 2)
    r = _round(m)
    assert v.seat == 2 and v.hand == r.hands[2] and v.hand_counts == (9, 9, 9)
    assert v.stock_size == len(r.stock) and v.discard_pile == (card,) and v.discarded_by == (1,)
    assert v.vira == r.vira and v.wilds == frozenset({r.vira.face.next})  # type: ignore[union-attr]
    assert v.turn == 2 and v.phase is Phase.DRAW and v.lives == (7, 7, 7) and v.out == frozenset()
    assert (v.round_number, v.dealer, v.version) == (1, 0, 2)
    sv = spectator_view(m)
    assert sv.seat is None and sv.hand == () and sv.taken is None and sv.plain == frozenset()
    assert not sv.can_announce and sv.hand_counts == v.hand_counts


def _custom(rules: Rules, hands: list[str], **kw: Any) -> Match:
    seats = len(hands)
    r = Round(
        hands=tuple(parse_hand(h) for h in hands),
        stock=parse_hand("KD QD JD"),
        discard_pile=parse_hand(kw.pop("pile", "")),
        discarded_by=tuple(kw.pop("by", ())),
        vira=C("6H") if rules.has_wild else None,
        turn=kw.pop("turn", 1),
        phase=kw.pop("phase", Phase.DRAW),
        picked_up=((),) * seats,
    )
    lives = kw.pop("lives", (rules.lives if rules.has_wild else 0,) * seats)
    return Match(rules=rules, seats=seats, seed=5, round_number=1, dealer=0, lives=lives, round=r, **kw)


def test_taken_and_plain_are_own_only_picked_up_is_public() -> None:
    # vira 6H: 7H' is wild; taken from the pile it is plain
    m = _custom(CACHETA_7, [FAR, "7C 7D AH 2H 3H 5C 5D 5S 2D", FAR2], pile="7H'", by=[0])
    m = apply(m, 1, TakeDiscard())
    own, other = player_view(m, 1), player_view(m, 2)
    assert own.taken == C("7H'") and own.plain == frozenset({C("7H'")})
    assert other.taken is None and other.plain == frozenset()
    assert own.picked_up == other.picked_up == ((), (C("7H'"),), ())
    assert spectator_view(m).picked_up[1] == (C("7H'"),)


def test_round_result_and_lives_are_public() -> None:
    hands = [FAR, "AH 2H 3H 5C 5D 5S 9S 10S JS KC", FAR2]
    m = _custom(CACHETA_7, hands, phase=Phase.DISCARD, lives=(1, 5, 5))
    m = apply(m, 1, GoOut())
    for v in (player_view(m, 0), player_view(m, 2), spectator_view(m)):
        assert v.result is not None and v.result.winner == 1 and v.result.plan.discard == C("KC")
        assert v.lives == (0, 5, 4) and v.out == frozenset({0}) and v.turn is None
        assert v.phase is Phase.ROUND_OVER and not v.can_announce
    assert player_view(m, 0).hand == parse_hand(FAR)  # FORA seat still sees its last hand


def test_can_announce() -> None:
    m = _custom(CACHETA_7, [ONE_AWAY, FAR, FAR2])
    assert player_view(m, 0).can_announce and not player_view(m, 1).can_announce
    assert not spectator_view(m).can_announce
    m2 = apply(m, 0, AnnounceOneAway())
    assert not player_view(m2, 0).can_announce and player_view(m2, 2).announced == frozenset({0})
    assert not player_view(_custom(PIFE, [ONE_AWAY, FAR]), 0).can_announce
    ten = _custom(CACHETA_7, [FAR, ONE_AWAY + " KC", FAR2], phase=Phase.DISCARD)
    assert not player_view(ten, 1).can_announce


@pytest.mark.parametrize("seat", [-1, 3, None])
def test_player_view_rejects_bad_seat(seat: Any) -> None:
    with pytest.raises(ValueError):
        player_view(new_match(PIFE, 3, seed=1), seat)
