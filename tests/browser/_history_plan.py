"""Plan a short Cacheta round with a take from the lixo, a NA BOA and a queue jump, with the real
engine, for the move-history tests (service, state and browser) to replay.

The policy plays every seat: take the top of the lixo when it connects with the hand (a pair or
a neighbour of the same suit), else draw; go out when possible, else discard the least connected
card; announce NA BOA as soon as it may. :func:`find_take_and_jump` searches seeds for a round
that ends with a queue jump and holds at least one take.
"""

from __future__ import annotations

from _planner import connection_score, first_game, least_connected

from pifecacheta.rules import (
    AnnounceOneAway,
    Discard,
    Draw,
    GoOut,
    IllegalActionError,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
    new_match,
    player_view,
)


def take_game(rules, seats: int, seed: int, *, max_turns: int = 40):
    """Play the policy above until the first go-out: (final match, [(seat, action), ...]) or None."""
    m = new_match(rules, seats, seed=seed)
    log = []
    for _ in range(max_turns):
        seat = m.round.turn
        v = player_view(m, seat)
        top = v.discard_pile[-1] if v.discard_pile else None
        take = top is not None and TakeDiscard() in legal_actions(m, seat)
        take = take and top.face not in v.wilds and connection_score(top, (*v.hand, top), v.wilds) >= 2
        first = TakeDiscard() if take else Draw()
        m = apply(m, seat, first)
        log.append((seat, first))
        try:
            m = apply(m, seat, GoOut())
            log.append((seat, GoOut()))
            return m, log
        except IllegalActionError:
            pass
        v = player_view(m, seat)
        allowed = [c for c in v.hand if v.taken is None or c not in (v.taken, v.taken.twin)]
        card = least_connected(allowed, v.wilds)
        m = apply(m, seat, Discard(card))
        log.append((seat, Discard(card)))
        if m.round.phase is not Phase.DRAW:
            return m, log
        if player_view(m, seat).can_announce:
            m = apply(m, seat, AnnounceOneAway())
            log.append((seat, AnnounceOneAway()))
    return None


# Eight-digit seeds: the frame scan looks for the seed's digits, which must not match by chance
SEEDS = range(73_150_000, 73_153_000)


def find_take_and_jump(rules, seats: int = 2, *, max_actions: int = 40, seeds=SEEDS):
    """The first seed whose planned round has a take from the lixo and ends with a queue jump
    within ``max_actions``: ``(seed, final match, log)``. Raises LookupError."""

    def accept(m, log) -> bool:
        takes = [a for _, a in log if isinstance(a, TakeDiscard)]
        return bool(m.round.result.out_of_turn) and bool(takes) and len(log) <= max_actions

    return first_game(lambda seed: take_game(rules, seats, seed), accept, seeds)
