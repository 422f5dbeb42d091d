"""Luna's playouts: hands improve as the seats draw, unlike the static race."""

from __future__ import annotations

from pifecacheta.bots.playout import Playout, key_of
from pifecacheta.bots.search import Outs, Seating, rollout
from pifecacheta.rules import PIFE, Phase, parse_hand, player_view

from .positions import position

# Luna (seat 0) is two away: a pair of kings would need two more cards to go out.
LUNA = "5H 6H 7H 9C 9D 9S KS 2C 4D"
# Seat 1 holds loose cards that the stock below never completes.
OTHER = "AS 3S 6D 8D JS QC 2H 10H 7C"
# The stock as drawn after Luna's throw of 8C: seat 1, Luna, seat 1, Luna.
DRAWS = "7S KD 10C KC"


def _setup() -> tuple[Playout, list[tuple], tuple]:  # type: ignore[type-arg]
    m = position(PIFE, [LUNA, OTHER], turn=0, phase=Phase.DRAW, pile="8C", stock_top=DRAWS)
    view = player_view(m, 0)
    pl = Playout(view, horizon=8, tail=8)
    r = m.round
    assert r is not None
    return pl, [r.hands[0], r.hands[1]], r.stock


def test_a_hand_two_away_goes_out_in_the_improving_playout() -> None:
    pl, hands, stock = _setup()
    top = parse_hand("8C")[0]
    assert pl.run(hands, frozenset(), stock, by=0, top=top) == 0
    # the static race sees no outs for anyone and nobody going out
    outs = {s: Outs.of(*_full(pl, hands[s])) for s in (0, 1)}
    assert not outs[0].draw and not outs[1].draw
    m = position(PIFE, [LUNA, OTHER], turn=0, pile="8C", stock_top=DRAWS)
    seating = Seating.of(player_view(m, 0))
    assert rollout(seating, outs, frozenset(), stock, by=0, top=top, horizon=8) is None


def _full(pl: Playout, hand: tuple):  # type: ignore[no-untyped-def,type-arg]
    from pifecacheta.bots.hand import HandIndex

    idx = HandIndex(hand, wilds=pl.wilds, rules=pl.rules)
    return idx, idx.full


def test_a_step_keeps_what_melds_and_throws_a_loose_card() -> None:
    pl, hands, _ = _setup()
    kd, kc, loose = parse_hand("KD KC 4C")
    h = pl.hand(hands[0])
    assert h.cover == 6 and not h.outs.draw
    st = pl.step(h, kd, taken=False)
    assert not st.out and st.kept is not None and st.kept.cover == 6
    assert st.thrown in key_of(parse_hand("2C 4D"))  # a loose card goes, the pair stays
    assert {str(f) for f in st.kept.outs.draw} >= {"KC", "KH"}  # now one away
    assert pl.step(st.kept, kc, taken=False).out
    # a card that melds with nothing is thrown again at once
    st = pl.step(pl.hand(hands[1]), loose, taken=False)
    assert st.thrown == key_of([loose])[0] and st.kept == pl.hand(hands[1])


def test_a_taken_card_extends_a_meld_and_is_kept() -> None:
    pl, hands, _ = _setup()
    eight = parse_hand("8H")[0]
    h = pl.hand(hands[0])
    assert key_of([eight])[0] in h.melding
    st = pl.step(h, eight, taken=True)
    assert st.kept is not None and st.kept.cover == 7 and st.thrown != key_of([eight])[0]
