"""The search Luna: her samples agree with her view, and her choice depends on her view only."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pifecacheta.bots import luna
from pifecacheta.bots.arena import policy
from pifecacheta.bots.sampling import Sampler
from pifecacheta.rules import CACHETA_7, PIFE, Match, Phase, Rules, apply, new_match, player_view
from pifecacheta.rules.cards import full_deck

FAST = luna.Budget(samples=6, ms=0)


def _positions(rules: Rules, seats: int, seed: int, every: int = 7) -> list[Match]:
    """Matches along a seeded game of greedy players, every ``every`` actions, in play."""
    m = new_match(rules, seats, seed=seed)
    pol = policy("greedy")
    rng = random.Random(seed)
    out: list[Match] = []
    for n in range(200):
        r = m.round
        assert r is not None
        if r.phase not in (Phase.DRAW, Phase.DISCARD):
            break
        if n % every == 0:
            out.append(m)
        a = pol(player_view(m, r.turn), rng)
        assert a is not None
        m = apply(m, r.turn, a)
    return out


def _reshuffle_hidden(m: Match, seat: int, rng: random.Random) -> Match:
    """The same match for ``seat``'s eyes: the other seats' hidden cards and the stock dealt
    again at random (cards they picked up from the pile stay with them)."""
    r = m.round
    assert r is not None
    hidden = list(r.stock)
    keep: dict[int, list] = {}
    for s, h in enumerate(r.hands):
        if s == seat:
            continue
        picked = set(r.picked_up[s]) if s < len(r.picked_up) else set()
        keep[s] = [c for c in h if c in picked]
        hidden.extend(c for c in h if c not in picked)
    rng.shuffle(hidden)
    hands = list(r.hands)
    for s, kept in keep.items():
        k = len(r.hands[s]) - len(kept)
        hands[s] = tuple(kept + [hidden.pop() for _ in range(k)])
    return replace(m, round=replace(r, hands=tuple(hands), stock=tuple(hidden)))


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_her_choice_is_the_same_whatever_the_hidden_cards(rules: Rules) -> None:
    changed = 0
    for m in _positions(rules, 3, seed=21):
        seat = m.round.turn  # type: ignore[union-attr]
        other = _reshuffle_hidden(m, seat, random.Random(5))
        changed += other.round.hands != m.round.hands  # type: ignore[union-attr]
        assert player_view(other, seat) == player_view(m, seat)
        a = luna.choose_action(player_view(m, seat), rng=random.Random(9), limit=FAST)
        b = luna.choose_action(player_view(other, seat), rng=random.Random(9), limit=FAST)
        assert a == b
    assert changed >= 3  # the hidden cards really differed


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_samples_agree_with_everything_public(rules: Rules) -> None:
    for m in _positions(rules, 4, seed=3, every=11):
        r = m.round
        assert r is not None
        v = player_view(m, 0)
        sampler = Sampler(v)
        for k in range(3):
            det = sampler.sample(random.Random(k))
            assert det.hands[0] == v.hand
            assert [len(h) for h in det.hands] == list(v.hand_counts)
            assert len(det.stock) == v.stock_size
            cards = [c for h in det.hands for c in h] + list(det.stock) + list(v.discard_pile)
            cards += [v.vira] if v.vira is not None else []
            assert sorted(cards) == sorted(full_deck())  # every physical card once
            for s in range(1, 4):
                assert set(v.picked_up[s]) <= set(det.hands[s])


def test_an_announced_seat_is_dealt_a_hand_one_away() -> None:
    found = 0
    for seed in range(6):
        for m in _positions(CACHETA_7, 2, seed=seed, every=1):
            if m.round is not None and 1 in m.round.announced and m.round.turn == 0:
                v = player_view(m, 0)
                sampler = Sampler(v)
                hits = sum(sampler.one_away(1, sampler.sample(random.Random(k)).hands[1]) for k in range(10))
                assert hits >= 7
                found += 1
                break
    assert found >= 2


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIFECACHETA_LUNA_SAMPLES", "12")
    monkeypatch.setenv("PIFECACHETA_LUNA_MS", "30")
    assert luna.budget() == luna.Budget(12, 30.0)
    monkeypatch.setenv("PIFECACHETA_LUNA_SAMPLES", "x")
    monkeypatch.setenv("PIFECACHETA_LUNA_MS", "-1")
    assert luna.budget() == luna.Budget(None, luna.DEFAULT_MS)


def test_the_search_overrules_the_base_only_beyond_its_threshold() -> None:
    # 16 paired samples: 4 wins of the alternative (mean 0.25, 2.2 standard errors) overrule
    # the base's choice in Cacheta (1.5) but not in Pife (2.5); 6 wins (3.0) overrule it in both
    z_pife = luna.z_of(player_view(new_match(PIFE, 2, seed=0), 0))
    z_cacheta = luna.z_of(player_view(new_match(CACHETA_7, 2, seed=0), 0))
    assert (z_pife, z_cacheta) == (2.5, 1.5)
    assert luna._confident([1] * 4 + [0] * 12, z_pife) == 0.0
    assert luna._confident([1] * 4 + [0] * 12, z_cacheta) == pytest.approx(0.25)
    assert luna._confident([1] * 6 + [0] * 10, z_pife) == pytest.approx(0.375)
    assert luna._confident([-1] * 6 + [0] * 10, z_pife) == pytest.approx(-0.375)
    assert luna._confident([2] + [0] * 15, z_cacheta) == 0.0  # one differing sample is never enough
