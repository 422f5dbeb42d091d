"""Serialisation: matches and actions round-trip through JSON exactly."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    CACHETA_10,
    PIFE,
    AnnounceOneAway,
    Card,
    ClaimAbsence,
    Discard,
    Draw,
    Expire,
    GoOut,
    IllegalActionError,
    LeaveTable,
    Match,
    Mode,
    NextRound,
    Phase,
    Resign,
    Rules,
    RulesError,
    TakeDiscard,
    action_from_dict,
    apply,
    legal_actions,
    new_match,
    parse_hand,
)
from pifecacheta.rules.actions import Action

C = Card.parse
ALL_ACTIONS: list[Action] = [
    Draw(),
    TakeDiscard(),
    Discard(C("7H")),
    Discard(C("10S'")),
    GoOut(),
    GoOut(C("AC'")),
    AnnounceOneAway(),
    NextRound(),
    Resign(),
    ClaimAbsence(),
    Expire(),
    LeaveTable(),
]


def roundtrip(m: Match) -> Match:
    return Match.from_dict(json.loads(json.dumps(m.to_dict())))


def only_json_types(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, bool)):
        return True
    if isinstance(value, list):
        return all(only_json_types(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_types(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: str(a))
def test_actions_roundtrip(action: Action) -> None:
    d = action.to_dict()
    assert only_json_types(d)
    assert action_from_dict(json.loads(json.dumps(d))) == action


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {},
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "card": "1Z"},
        {"type": "go_out", "discard": "X"},
    ],
)
def test_bad_action_dicts(bad: Any) -> None:
    with pytest.raises(IllegalActionError) as e:
        action_from_dict(bad)
    assert e.value.code == "bad_action"


def test_action_dict_shape() -> None:
    assert Discard(C("QS'")).to_dict() == {"type": "discard", "card": "QS'"}
    assert GoOut().to_dict() == {"type": "go_out", "discard": None}
    assert Draw().to_dict() == {"type": "draw"}


@pytest.mark.parametrize(
    "rules",
    [
        PIFE,
        CACHETA_7,
        CACHETA_10,
        Rules(mode=Mode.CACHETA, lives=10, set_may_repeat_suit=True, wild_same_colour=True),
        Rules(
            mode=Mode.PIFE, discard_only_to_go_out=True, rebuild_without_shuffle=True, no_wild_in_sets=True
        ),
    ],
)
def test_match_roundtrips_through_a_game(rules: Rules) -> None:
    rng = random.Random(4)
    m = new_match(rules, 3, seed=2**40 + 3)
    seen_phases = set()
    for _ in range(150):
        assert roundtrip(m) == m
        assert only_json_types(m.to_dict())
        r = m.round
        assert r is not None
        seen_phases.add(r.phase)
        if r.phase is Phase.MATCH_OVER:
            break
        if r.phase is Phase.ROUND_OVER:
            m = apply(m, 0, NextRound())
            continue
        legal = legal_actions(m, r.turn)
        go = [a for a in legal if isinstance(a, GoOut)]
        m = apply(m, r.turn, go[0] if go else rng.choice(legal))
    assert Phase.DRAW in seen_phases and Phase.DISCARD in seen_phases


def test_match_roundtrip_with_every_field_set() -> None:
    m = new_match(CACHETA_7, 4, seed=9)
    r = m.round
    assert r is not None
    # a round result with a wild standing in, plain card, announcements, left seat, outcome
    hand = "AH 2H 3H 5C 5D 5S 9S 10S 7H' 2D"
    r = replace(
        r,
        vira=C("6H"),
        hands=(parse_hand(hand), r.hands[1], r.hands[2], ()),
        turn=0,
        phase=Phase.DISCARD,
        plain=frozenset({C("9S")}),
        announced=frozenset({1, 2}),
        picked_up=((C("9S"),), (), (), ()),
        taken=C("9S"),
        rebuilds=3,
    )
    m = replace(m, round=r, lives=(7, 3, 2, 0), left=frozenset({3}), version=41)
    assert roundtrip(m) == m
    done = apply(m, 0, GoOut())
    assert done.round is not None and done.round.result is not None
    assert any(meld.wild is not None for meld in done.round.result.plan.melds)
    assert roundtrip(done) == done
    nxt = apply(done, 1, NextRound())
    assert nxt.outcome is None and roundtrip(nxt) == nxt
    ended = apply(nxt, 2, Resign())
    assert ended.outcome is not None and roundtrip(ended) == ended


def test_malformed_match_dict() -> None:
    d = new_match(PIFE, 2, seed=1).to_dict()
    for key in ("rules", "round", "lives"):
        broken = dict(d)
        del broken[key]
        with pytest.raises(RulesError):
            Match.from_dict(broken)
    broken = json.loads(json.dumps(d))
    broken["round"]["stock"][0] = "ZZ"
    with pytest.raises(RulesError):
        Match.from_dict(broken)
    broken = json.loads(json.dumps(d))
    broken["rules"]["lives"] = 8
    broken["rules"]["mode"] = "cacheta"
    with pytest.raises(RulesError):
        Match.from_dict(broken)
