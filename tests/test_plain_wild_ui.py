"""A wild taken from the discard pile counts only as itself (seed 000 line 62): the viewer's
hand must not mark it with the wild star, while the same face drawn from the stock is a wild."""

from __future__ import annotations

from types import SimpleNamespace

from pifecacheta.rules import CACHETA_7, Discard, Draw, TakeDiscard, apply, new_match, player_view
from pifecacheta.rules.cards import Card
from pifecacheta.rules.match import wilds_of
from pifecacheta.state.view_model import table_ui


def _snapshot(match, seat):
    view = player_view(match, seat)
    return SimpleNamespace(
        code="x",
        rules=CACHETA_7,
        status="playing",
        version=1,
        creator_seat=0,
        seats=tuple(
            SimpleNamespace(seat=n, name=f"P{n}", is_bot=False, is_me=n == seat, left=False) for n in range(2)
        ),
        my_seat=seat,
        view=view,
        chat=(),
        absence_claimable=False,
        rematch_votes=frozenset(),
        rematch_offered=False,
    )


def _wild_taken_from_pile():
    """A 2-seat Cacheta deal where the first player discards a wild and the next one takes it."""
    for seed in range(1, 300):
        m = new_match(CACHETA_7, 2, seed=seed)
        seat = m.round.turn
        m = apply(m, seat, Draw())
        wild = next((c for c in player_view(m, seat).hand if c.face in wilds_of(m)), None)
        if wild is None:
            continue
        m = apply(m, seat, Discard(wild))
        other = m.round.turn
        try:
            m = apply(m, other, TakeDiscard())
        except ValueError:  # the engine may refuse taking it (house rule): try another deal
            continue
        return m, other, wild
    raise LookupError("no deal found")


def test_wild_taken_from_the_pile_shows_no_star():
    m, seat, wild = _wild_taken_from_pile()
    assert wild in player_view(m, seat).plain
    ui = table_ui(_snapshot(m, seat))
    taken = [c for c in ui.hand_by_suit if c.id == str(wild)]
    assert len(taken) == 1 and taken[0].taken
    assert not taken[0].wild
    # any other copy of a wild face in that hand (from the deal or the stock) keeps its star
    others = [c for c in ui.hand_by_rank if c.id != str(wild)]
    assert all(c.wild == (Card.parse(c.id).face in wilds_of(m)) for c in others)
