"""bench/oracle.py: the cheating players are research only (never a bot the server can seat),
their loop plays a round exactly as the arena does, and the full oracle's exact look ahead wins
rounds its opponents would otherwise win."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pifecacheta.bots import BOTS
from pifecacheta.bots.arena import POLICY_NAMES, play_round, policy
from pifecacheta.rules import CACHETA_7, PIFE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import oracle  # noqa: E402


def test_no_cheater_is_a_bot() -> None:
    names = {"oracle", "kf", "kf_stock", "luna_hands", "luna_world", "pimc", "pimc_hands", "base_safe"}
    assert not names & (set(BOTS) | set(POLICY_NAMES))
    with pytest.raises(KeyError):
        policy("oracle")


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7])
def test_the_cheating_loop_is_the_arenas(rules: object) -> None:
    for seed in range(4):
        pols = [policy("simple"), policy("greedy"), policy("luna_v1"), policy("luna_base")]
        assert oracle.play_round_cheating(rules, pols, seed=seed) == play_round(rules, pols, seed=seed).winner  # type: ignore[arg-type]


def test_the_oracle_wins_more_than_simple_on_the_same_deals() -> None:
    simple = policy("simple")
    won = plain = 0
    for seed in range(3):
        for seat in range(2):
            seats: list[oracle.Seat] = [simple, simple]
            plain += play_round(PIFE, seats, seed=seed).winner == seat  # type: ignore[arg-type]
            seats[seat] = oracle.cheater("oracle2", simple)
            won += oracle.play_round_cheating(PIFE, seats, seed=seed) == seat
    assert won > plain and won >= 5
