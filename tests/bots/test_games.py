"""End-to-end seeded games: every bot's choice is legal (apply never raises), and a bot's
decision depends only on its own PlayerView."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pifecacheta.bots import BOTS
from pifecacheta.bots.arena import play_match, play_round, policy
from pifecacheta.bots.common import view_legal_actions
from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    GoOut,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_match,
    player_view,
)

LINEUPS = [
    ("Luna", "Carmen", "Tito", "random"),
    ("greedy", "Tito", "Luna", "Carmen"),
    ("Carmen", "random", "Luna"),
    ("Tito", "Luna"),
]


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
@pytest.mark.parametrize("lineup", LINEUPS, ids=["-".join(x) for x in LINEUPS])
def test_seeded_rounds_end_with_a_winner(rules: Rules, lineup: tuple[str, ...]) -> None:
    # play_round raises IllegalActionError if any policy picks an illegal action.
    for seed in range(3):
        r = play_round(rules, [policy(n) for n in lineup], seed=seed)
        assert r.winner is not None, f"seed {seed}: no go-out in {r.actions} actions"
        assert r.match.round is not None and r.match.round.phase is Phase.ROUND_OVER


def test_a_whole_cacheta_match_with_next_round() -> None:
    rules = Rules(lives=7)
    r = play_match(rules, [policy("Luna"), policy("Tito")], seed=11)
    assert r.winner in (0, 1) and r.rounds >= 4  # 7 lives, at most 2 per round
    assert r.match.round is not None and r.match.round.phase is Phase.MATCH_OVER


@pytest.mark.parametrize("name", sorted(BOTS))
def test_view_legal_actions_match_the_engine(name: str) -> None:
    """The bots' own legal-action list (from the view) equals the engine's, GoOut(card)
    variants aside, along a played game; and the bot's choice is in it."""
    m = new_match(PIFE, 3, seed=4)
    pol = [policy(name), policy("greedy"), policy("random")]
    rng = random.Random(0)
    for _ in range(60):
        assert m.round is not None
        if m.round.phase is not Phase.DRAW and m.round.phase is not Phase.DISCARD:
            break
        s = m.round.turn
        v = player_view(m, s)
        ours = view_legal_actions(v)
        theirs = [a for a in legal_actions(m, s) if not (isinstance(a, GoOut) and a.discard is not None)]
        assert sorted(map(repr, ours)) == sorted(map(repr, theirs))
        a = pol[s](v, rng)
        assert a in ours
        m = apply(m, s, a)


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_decision_depends_only_on_the_view(name: str, rules: Rules) -> None:
    """Two matches differing only in hidden cards (another seat's hand swapped with stock
    cards) give identical views and the same decision, turn after turn."""
    m = new_match(rules, 3, seed=21)
    for step in range(8):
        assert m.round is not None
        s = m.round.turn
        r = m.round
        other = (s + 1) % 3
        hidden = list(r.stock[:3])
        hands = list(r.hands)
        hands[other] = tuple(hidden) + tuple(c for c in r.hands[other] if c not in r.picked_up[other])[3:]
        hands[other] = hands[other] + tuple(r.picked_up[other])
        gone = [c for c in r.hands[other] if c not in hands[other]]
        stock = tuple(gone) + r.stock[3:]
        twin = replace(m, round=replace(r, hands=tuple(hands), stock=stock))
        assert twin.round is not None and twin.round.hands != r.hands
        v1, v2 = player_view(m, s), player_view(twin, s)
        assert v1 == v2
        a1 = BOTS[name](v1, rng=random.Random(step))
        a2 = BOTS[name](v2, rng=random.Random(step))
        assert a1 == a2
        assert a1 is not None
        m = apply(m, s, a1)
        if m.round is None or m.round.phase is not Phase.DRAW and m.round.phase is not Phase.DISCARD:
            break
