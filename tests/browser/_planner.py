"""Plan a short game with the real engine, so browser tests can replay it click by click.

The service deals with ``new_match(rules, seats, seed=PIFECACHETA_FIXED_SEED)``; the same call
here gives the same deal. A simple greedy policy (draw from the stock, go out when possible,
else discard the least connected card) plays every seat; :func:`find_seed` searches seeds for a
game that ends quickly in the wanted way.
"""

from __future__ import annotations

from typing import Any

from pifecacheta.rules import (
    AnnounceOneAway,
    Discard,
    Draw,
    GoOut,
    IllegalActionError,
    Phase,
    apply,
    new_match,
    player_view,
)


def least_connected(hand, wilds):
    """The card of ``hand`` the greedy policy discards: the lowest :func:`connection_score`,
    then the highest rank; ties broken by suit and deck mark."""
    return min(hand, key=lambda c: (connection_score(c, hand, wilds), -c.rank, c.suit.value, c.deck))


def connection_score(card, hand, wilds) -> int:
    """How well ``card`` fits with the rest of ``hand``: 100 for a wild, else 2 per card of
    the same rank in another suit and per card of the same suit one rank away, 1 per card of
    the same suit two ranks away."""
    if card.face in wilds:
        return 100
    s = 0
    for o in hand:
        if o is card:
            continue
        if o.rank == card.rank and o.suit != card.suit:
            s += 2
        elif o.suit == card.suit and 1 <= abs(o.rank - card.rank) <= 2:
            s += 3 - abs(o.rank - card.rank)
    return s


def greedy_game(rules, seats: int, seed: int, *, max_turns: int = 60, announce: bool = False, key_of=None):
    """Play greedily until the first go-out. Returns (final match, [(seat, action), ...]) or None.

    ``announce``: in Cacheta, a player announces NA BOA right after a discard leaves them one away.
    ``key_of``: ``seed -> RoundKey`` for a verifiable deal (service/fair_deal.py), None: integer deal.
    """
    m = new_match(rules, seats, seed=seed, key=None if key_of is None else key_of(seed))
    log = []
    for _ in range(max_turns):
        seat = m.round.turn
        m = apply(m, seat, Draw())
        log.append((seat, Draw()))
        try:
            m = apply(m, seat, GoOut())
            log.append((seat, GoOut()))
            return m, log
        except IllegalActionError:
            pass
        v = player_view(m, seat)
        card = least_connected(v.hand, v.wilds)
        m = apply(m, seat, Discard(card))
        log.append((seat, Discard(card)))
        if m.round.phase is not Phase.DRAW:
            return m, log
        if announce and player_view(m, seat).can_announce:
            m = apply(m, seat, AnnounceOneAway())
            log.append((seat, AnnounceOneAway()))
    return None


def first_game(play, accept, seeds=range(1, 400)):
    """The first seed of ``seeds`` whose game ``play(seed)`` (``(final match, log)`` or None, as
    :func:`greedy_game`) ended in a round result with ``accept(final, log)`` true:
    ``(seed, final match, log)``. Raises LookupError when no seed does."""
    for seed in seeds:
        got = play(seed)
        if got is None:
            continue
        m, log = got
        if m.round.result is not None and accept(m, log):
            return seed, m, log
    raise LookupError("no seed found")


def find_seed(
    rules,
    seats: int,
    *,
    out_of_turn: bool,
    max_actions: int,
    seeds=range(1, 400),
    announce: bool = False,
    key_of=None,
):
    """The first seed whose greedy game ends with a go-out (out of turn or not) within max_actions
    (``key_of``: as for :func:`greedy_game`)."""
    return first_game(
        lambda seed: greedy_game(rules, seats, seed, announce=announce, key_of=key_of),
        lambda m, log: bool(m.round.result.out_of_turn) == out_of_turn and len(log) <= max_actions,
        seeds,
    )


def play_pife_to_the_end(svc: Any, code: str, who: dict[int, Any]) -> None:
    """Play Pife table ``code`` of ``svc`` (a ``TableService``) to its match's end: both seats
    (``who``: seat -> ``Identity``) play the greedy policy (go out when legal, else draw and
    discard the least connected card), then seat 0 presses PRÓXIMA RODADA, which shows the
    match's end (Pife: the first go-out, seed 000 line 60). Raises AssertionError when no
    go-out comes in 4000 moves."""
    from pifecacheta.rules import NextRound, legal_actions

    def act(seat: int, action: Any) -> None:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)

    for _ in range(4000):
        with svc.store.read() as s:
            m = svc.store.load(s, code).match
        r = m.round
        if r.phase is Phase.ROUND_OVER:
            act(0, NextRound())
            return
        seat = r.turn
        go = [a for a in legal_actions(m, seat) if isinstance(a, GoOut)]
        if go:
            act(seat, go[0])
        elif r.phase is Phase.DRAW:
            act(seat, Draw())
        else:
            act(seat, Discard(least_connected(r.hands[seat], frozenset())))
    raise AssertionError("no go-out in 4000 moves")
