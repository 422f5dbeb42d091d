"""Random playouts (hypothesis): no history value ever names a card that was not public to a
spectator at that moment.

Each example deals a match (Pife or Cacheta, 2 to 4 seats) and plays random legal moves biased
towards what makes history - takes from the lixo, NA BOA, go-outs, next rounds - feeding each
one to the history's :class:`Replay`. After every move the cards named anywhere in the history
(every event, every past round) must be physical cards that were public by then: on the lixo,
taken from it, the vira, or laid down at FIM DA RODADA (seed 000 line 68). A card drawn from the
stock becomes public only if it is later discarded or melded; a twin never counts for its pair.
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    AnnounceOneAway,
    Card,
    Discard,
    Draw,
    GoOut,
    Match,
    NextRound,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
    new_match,
)
from pifecacheta.service.history import MatchHistory, Replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _planner import least_connected  # noqa: E402

AT = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def _public_now(m: Match) -> set[Card]:
    """Every physical card a spectator sees in ``m`` now."""
    r = m.round
    assert r is not None
    seen = set(r.discard_pile)
    for p in r.picked_up:
        seen.update(p)
    if r.vira is not None:
        seen.add(r.vira)
    if r.result is not None:
        for meld in r.result.plan.melds:
            seen.update(meld.cards)
        if r.result.plan.discard is not None:
            seen.add(r.result.plan.discard)
    return seen


def _named(h: MatchHistory) -> set[Card]:
    """Every card any history value names."""
    cards = {c for e in h.events for c in (e.card, e.discard) if c is not None}
    for s in h.rounds:
        cards.update(c for meld in s.result.plan.melds for c in meld.cards)
        cards.update(c for c in (s.result.plan.discard, s.taken) if c is not None)
    return cards


def _pick(m: Match, seat: int, rng: random.Random):
    acts = legal_actions(m, seat)
    by = {type(a) for a in acts}
    if GoOut in by and rng.random() < 0.8:
        return rng.choice([a for a in acts if isinstance(a, GoOut)])
    if NextRound in by:
        return NextRound()
    if TakeDiscard in by and rng.random() < 0.35:
        return TakeDiscard()
    if Draw in by:
        return Draw()
    discards = [a for a in acts if isinstance(a, Discard)]
    if discards:
        if rng.random() < 0.7:
            v = m.round
            assert v is not None
            card = least_connected([a.card for a in discards], frozenset())
            return Discard(card)
        return rng.choice(discards)
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    moves=st.integers(min_value=0, max_value=2**32),
    seats=st.integers(min_value=2, max_value=4),
    pife=st.booleans(),
)
def test_history_never_names_a_card_before_it_was_public(
    seed: int, moves: int, seats: int, pife: bool
) -> None:
    rng = random.Random(moves)
    m = new_match(PIFE if pife else CACHETA_7, seats, seed=seed)
    rp = Replay(m, 1, AT)
    public: set[Card] = _public_now(m)
    assert _named(rp.history()) <= public
    for step in range(260):
        r = m.round
        assert r is not None
        if r.phase is Phase.MATCH_OVER:
            break
        # NA BOA whenever someone may (Cacheta): the out-of-turn go-outs need it
        announcers = [s for s in range(seats) if AnnounceOneAway() in legal_actions(m, s)]
        if announcers and rng.random() < 0.8:
            seat, action = announcers[0], AnnounceOneAway()
        else:
            seat = r.turn if r.phase in (Phase.DRAW, Phase.DISCARD) else rng.randrange(seats)
            action = _pick(m, seat, rng)
            if action is None:
                break
        m = apply(m, seat, action)
        rp.feed(step + 2, seat, action.to_dict(), AT)
        assert rp.match == m
        public |= _public_now(m)
        named = _named(rp.history())
        assert named <= public, (action, sorted(map(str, named - public)))
        if isinstance(action, Draw):  # the draw's line names no card
            last = rp.history().events[-1]
            assert last.kind == "draw" and last.card is None and last.discard is None
