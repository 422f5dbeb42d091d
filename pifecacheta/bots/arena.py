"""Seeded simulations: one policy per seat, using only ``new_match``, ``apply`` and
``player_view`` (each policy sees only its own view).

>>> from pifecacheta.rules import PIFE
>>> r = play_round(PIFE, [policy("greedy")] * 2, seed=1)
>>> r.winner in (0, 1), r.actions > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pifecacheta.rules.actions import Action, AnnounceOneAway, Discard, NextRound
from pifecacheta.rules.config import Rules
from pifecacheta.rules.match import Match, Phase, Round, apply, new_match
from pifecacheta.rules.views import PlayerView, player_view

from . import BOTS, luna, luna_v1
from .baselines import greedy, random_legal, simple
from .common import Policy

__all__ = ["RoundOutcome", "MatchOutcome", "policy", "play_round", "play_match", "POLICY_NAMES"]

POLICY_NAMES = ("Carmen", "Tito", "Luna", "luna_base", "luna_v1", "greedy", "simple", "random")


def policy(name: str) -> Policy:
    """The policy called ``name``: a bot of :data:`pifecacheta.bots.BOTS`, "greedy", "simple",
    "random", "luna_v1" (the rules-and-lookahead Luna the search Luna replaced, kept for
    the head-to-head in ``bench/bench_bots.py``) or "luna_base" (the search Luna's base
    policy alone, :func:`~.luna.base_action`).

    Raises:
        KeyError: unknown name.
    """
    if name == "greedy":
        return greedy
    if name == "simple":
        return simple
    if name == "random":
        return random_legal
    fn = {"luna_v1": luna_v1.choose_action, "luna_base": luna.base_action}.get(name) or BOTS[name]

    def bot(view: PlayerView, rng: random.Random) -> Action | None:
        return fn(view, rng=rng)

    return bot


@dataclass(frozen=True)
class RoundOutcome:
    """One simulated round: ``winner`` seat (None if the action cap was hit), ``actions``
    applied, ``out_of_turn`` (louca / jumped the queue), ``with_ten`` and the final match."""

    winner: int | None
    actions: int
    out_of_turn: bool
    with_ten: bool
    match: Match


@dataclass(frozen=True)
class MatchOutcome:
    """A whole match: ``winner`` (None: cap hit or no winner), ``rounds`` played, ``actions``."""

    winner: int | None
    rounds: int
    actions: int
    match: Match


def _round(match: Match) -> Round:
    assert match.round is not None
    return match.round


def _rngs(seed: int, seats: int) -> list[random.Random]:
    return [random.Random(f"bots:{seed}:{s}") for s in range(seats)]


def _play_until_round_over(
    match: Match, policies: Sequence[Policy], rngs: Sequence[random.Random], max_actions: int
) -> tuple[Match, int]:
    """Play the current round until ROUND_OVER (or the cap). Announcements are offered to a
    seat when its 9 cards may have changed: at the deal, after its discard and on its turn."""
    assert match.round is not None
    n = 0
    poll = set(range(match.seats))
    while match.round is not None and match.round.phase in (Phase.DRAW, Phase.DISCARD) and n < max_actions:
        if match.rules.has_wild:
            for s in sorted(poll - _round(match).announced):
                v = player_view(match, s)
                if v.can_announce and s != match.round.turn:
                    a = policies[s](v, rngs[s])
                    if isinstance(a, AnnounceOneAway):
                        match = apply(match, s, a)
                        n += 1
            poll.clear()
        s = _round(match).turn
        a = policies[s](player_view(match, s), rngs[s])
        if a is None:
            raise RuntimeError(f"policy of seat {s} returned None on its turn")
        match = apply(match, s, a)
        n += 1
        if isinstance(a, Discard):
            poll.add(s)
    return match, n


def play_round(
    rules: Rules, policies: Sequence[Policy], *, seed: int, max_actions: int = 3000
) -> RoundOutcome:
    """Deal round 1 of ``new_match(rules, len(policies), seed=seed)`` and play it out.

    Returns:
        :class:`RoundOutcome`; ``winner`` None when ``max_actions`` was reached.

    Raises:
        IllegalActionError: a policy chose an illegal action (a bug in the policy).
    """
    match = new_match(rules, len(policies), seed=seed)
    match, n = _play_until_round_over(match, policies, _rngs(seed, len(policies)), max_actions)
    assert match.round is not None
    res = match.round.result
    if res is None:
        return RoundOutcome(None, n, False, False, match)
    return RoundOutcome(res.winner, n, res.out_of_turn, res.plan.with_ten, match)


def play_match(
    rules: Rules, policies: Sequence[Policy], *, seed: int, max_actions: int = 30000, max_rounds: int = 200
) -> MatchOutcome:
    """Play a whole match (Pife: one round; Cacheta: until one seat has lives), the policies
    also pressing PRÓXIMA RODADA (the first seat whose policy returns NextRound).

    Raises:
        IllegalActionError: a policy chose an illegal action.
    """
    match = new_match(rules, len(policies), seed=seed)
    rngs = _rngs(seed, len(policies))
    total, rounds = 0, 0
    while match.round is not None and total < max_actions and rounds < max_rounds:
        match, n = _play_until_round_over(match, policies, rngs, max_actions - total)
        total += n
        if _round(match).phase is not Phase.ROUND_OVER:
            break
        rounds += 1
        for s in range(match.seats):
            a = policies[s](player_view(match, s), rngs[s])
            if isinstance(a, NextRound):
                match = apply(match, s, a)
                total += 1
                break
        else:
            raise RuntimeError("no policy pressed NextRound")
        if _round(match).phase is Phase.MATCH_OVER:
            break
    winner = match.outcome.winner if match.outcome is not None else None
    return MatchOutcome(winner, rounds, total, match)
