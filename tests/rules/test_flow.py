"""Turn flow of the rules engine, position by position (seed 000 lines 46-75).

Positions are built with :func:`make` (hands in notation, stock and pile with the top last).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

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
    NotYourTurnError,
    Outcome,
    Phase,
    Resign,
    Round,
    Rules,
    RulesError,
    TakeDiscard,
    Termination,
    WrongPhaseError,
    active_seats,
    apply,
    full_deck,
    legal_actions,
    new_match,
    parse_hand,
    player_view,
    spectator_view,
)
from pifecacheta.rules.actions import Action

C = Card.parse
H = parse_hand


def make(
    rules: Rules,
    hands: Sequence[str],
    *,
    stock: str = "KD QD JD",
    pile: str = "",
    by: Sequence[int] | None = None,
    turn: int = 1,
    phase: Phase = Phase.DRAW,
    vira: str | None = None,
    lives: Sequence[int] | None = None,
    announced: Sequence[int] = (),
    taken: str | None = None,
    dealer: int = 0,
    seed: int = 0,
    left: Sequence[int] = (),
) -> Match:
    """A match in a chosen position (cards need not add up to 104)."""
    seats = len(hands)
    pile_cards = H(pile)
    if lives is None:
        lives = [rules.lives if rules.has_wild else 0] * seats
    if vira is None and rules.has_wild:
        vira = "JH"  # wild QH, kept out of the test hands unless wanted
    r = Round(
        hands=tuple(H(h) for h in hands),
        stock=H(stock),
        discard_pile=pile_cards,
        discarded_by=tuple(by) if by is not None else tuple((turn - 1) % seats for _ in pile_cards),
        vira=None if vira is None else C(vira),
        turn=turn,
        phase=phase,
        taken=None if taken is None else C(taken),
        announced=frozenset(announced),
        picked_up=((),) * seats,
    )
    return Match(
        rules=rules,
        seats=seats,
        seed=seed,
        round_number=1,
        dealer=dealer,
        lives=tuple(lives),
        left=frozenset(left),
        round=r,
    )


def refused(m: Match, seat: int | None, action: Action, code: str) -> IllegalActionError:
    """Assert apply refuses with ``code`` and leaves the match as it was."""
    before = m.to_dict()
    with pytest.raises(IllegalActionError) as e:
        apply(m, seat, action)
    assert e.value.code == code, str(e.value)
    assert m.to_dict() == before
    return e.value


def rnd(m: Match) -> Round:
    assert m.round is not None
    return m.round


# Nine cards in melds, and nine one card away (9S 10S + JS/8S), in Pife.
NINE_MELDED = "AH 2H 3H 5C 5D 5S 9S 10S JS"
ONE_AWAY = "AH 2H 3H 5C 5D 5S 9S 10S 2D"
FAR = "AC 3D 5H 7S 9C JD KS 2S 4C"
FAR2 = "AC' 3D' 5H' 7S' 9C' JD' KS' 2S' 4C'"


# --- dealing -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_new_match_deals_round_one(rules: Rules, seats: int) -> None:
    m = new_match(rules, seats, seed=11)
    r = rnd(m)
    assert (m.round_number, m.dealer, r.turn, r.phase, m.version) == (1, 0, 1, Phase.DRAW, 0)
    assert [len(h) for h in r.hands] == [9] * seats
    assert r.discard_pile == () and r.discarded_by == ()
    assert (r.vira is not None) == (rules.mode is Mode.CACHETA)
    assert len(r.stock) == 104 - 9 * seats - (1 if r.vira else 0)
    cards = [c for h in r.hands for c in h] + list(r.stock) + ([r.vira] if r.vira else [])
    assert sorted(cards, key=str) == sorted(full_deck(), key=str)
    assert m.lives == ((7,) * seats if rules.has_wild else (0,) * seats)
    assert m.outcome is None and m.left == frozenset()


def test_deal_uses_documented_rng() -> None:
    m = new_match(CACHETA_7, 3, seed=1234)
    deck = list(full_deck())
    random.Random("1234:1").shuffle(deck)
    r = rnd(m)
    # dealt one at a time from the top (end) starting after the dealer; then the vira
    assert r.hands[1][0] == deck[-1] and r.hands[2][0] == deck[-2] and r.hands[0][0] == deck[-3]
    assert r.vira == deck[-28]
    assert r.stock == tuple(deck[:-28])


def test_deal_is_seeded() -> None:
    assert new_match(PIFE, 4, seed=5) == new_match(PIFE, 4, seed=5)
    assert rnd(new_match(PIFE, 4, seed=5)).hands != rnd(new_match(PIFE, 4, seed=6)).hands


@pytest.mark.parametrize("seats", [0, 1, 5, 8])
def test_seat_count_is_two_to_four(seats: int) -> None:
    with pytest.raises(RulesError):
        new_match(PIFE, seats, seed=1)


# --- draw, take, discard ------------------------------------------------------------------


def test_draw_takes_top_of_stock() -> None:
    m = make(PIFE, [FAR, ONE_AWAY], stock="4D 8C")
    m2 = apply(m, 1, Draw())
    r = rnd(m2)
    assert r.hands[1][-1] == C("8C") and r.stock == (C("4D"),)
    assert r.phase is Phase.DISCARD and r.taken is None and m2.version == 1


def test_discard_passes_turn_in_seat_order_and_wraps() -> None:
    m = make(PIFE, [FAR, FAR2, "2H 4H 6H 8H 10H QH 2D' 4D' 6D'"], stock="KC", turn=2)
    m = apply(m, 2, Draw())
    m = apply(m, 2, Discard(C("KC")))
    r = rnd(m)
    assert r.turn == 0 and r.phase is Phase.DRAW
    assert r.discard_pile == (C("KC"),) and r.discarded_by == (2,)


def test_first_player_must_draw_from_stock() -> None:
    m = new_match(PIFE, 2, seed=3)
    refused(m, 1, TakeDiscard(), "discard_empty")
    assert legal_actions(m, 1) == (Draw(),)


def test_take_discard() -> None:
    m = make(PIFE, [FAR, ONE_AWAY], pile="4D JS", by=[1, 0])
    m2 = apply(m, 1, TakeDiscard())
    r = rnd(m2)
    assert r.hands[1][-1] == C("JS") and r.taken == C("JS")
    assert r.discard_pile == (C("4D"),) and r.discarded_by == (1,)
    assert r.picked_up[1] == (C("JS"),) and r.phase is Phase.DISCARD


def test_taken_card_and_its_twin_cannot_be_discarded() -> None:
    m = make(PIFE, [FAR, "AH 2H 3H 5C 5D 5S 9S 10S 4D'"], pile="4D")
    m = apply(m, 1, TakeDiscard())
    refused(m, 1, Discard(C("4D")), "taken_card")
    refused(m, 1, Discard(C("4D'")), "taken_card")
    refused(m, 1, Discard(C("QC")), "card_not_in_hand")
    legal = legal_actions(m, 1)
    assert Discard(C("4D")) not in legal and Discard(C("4D'")) not in legal
    assert Discard(C("AH")) in legal
    m = apply(m, 1, Discard(C("AH")))
    assert rnd(m).picked_up[1] == (C("4D"),)  # public: taken and still held


def test_picked_up_card_leaves_picked_up_when_discarded_later() -> None:
    m = make(PIFE, [FAR, ONE_AWAY], pile="7C", stock="KC QC JC")
    m = apply(m, 1, TakeDiscard())
    m = apply(m, 1, Discard(C("2D")))
    m = apply(m, 0, Draw())
    m = apply(m, 0, Discard(C("JC")))
    m = apply(m, 1, Draw())
    assert rnd(m).picked_up[1] == (C("7C"),)
    m = apply(m, 1, Discard(C("7C")))
    assert rnd(m).picked_up == ((), ())


def test_turn_and_phase_are_checked() -> None:
    m = make(PIFE, [FAR, ONE_AWAY])
    e = refused(m, 0, Draw(), "not_your_turn")
    assert isinstance(e, NotYourTurnError)
    assert isinstance(refused(m, 1, Discard(C("2D")), "wrong_phase"), WrongPhaseError)
    refused(m, 1, GoOut(), "wrong_phase")  # no going out before drawing
    m2 = apply(m, 1, Draw())
    refused(m2, 1, Draw(), "wrong_phase")
    refused(m2, 1, TakeDiscard(), "wrong_phase")
    refused(m2, 0, Discard(C("AC")), "not_your_turn")


@pytest.mark.parametrize("seat", [None, -1, 2, 7])
def test_not_a_player(seat: int | None) -> None:
    m = make(PIFE, [FAR, ONE_AWAY])
    refused(m, seat, Draw(), "not_a_player")
    refused(m, seat, Resign(), "not_a_player")
    assert legal_actions(m, seat) == ()  # type: ignore[arg-type]


# --- going out -----------------------------------------------------------------------------


def test_go_out_best_plan_after_draw_pife_wins_match() -> None:
    m = make(PIFE, [FAR, NINE_MELDED], stock="KC")
    m = apply(m, 1, Draw())
    assert GoOut() in legal_actions(m, 1) and GoOut(C("KC")) in legal_actions(m, 1)
    m = apply(m, 1, GoOut())
    r = rnd(m)
    assert r.phase is Phase.ROUND_OVER and r.result is not None
    assert r.result.winner == 1 and not r.result.out_of_turn and r.result.discarder is None
    assert r.result.plan.discard == C("KC") and r.discard_pile[-1] == C("KC")
    assert r.discarded_by[-1] == 1 and len(r.hands[1]) == 9
    assert r.result.lives_lost == (0, 0)
    assert m.outcome == Outcome(Termination.GONE_OUT, 1)
    assert legal_actions(m, 0) == (NextRound(),)
    m = apply(m, 0, NextRound())
    assert rnd(m).phase is Phase.MATCH_OVER and m.outcome == Outcome(Termination.GONE_OUT, 1)
    refused(m, 0, NextRound(), "match_over")
    assert legal_actions(m, 0) == legal_actions(m, 1) == ()


def test_go_out_prefers_ten_but_honours_a_dragged_leftover() -> None:
    hand10 = NINE_MELDED + " QS"
    m = make(CACHETA_7, [FAR, hand10, FAR2], phase=Phase.DISCARD)
    best = apply(m, 1, GoOut())
    res = rnd(best).result
    assert res is not None and res.plan.discard is None and res.plan.with_ten
    assert res.lives_lost == (2, 0, 2) and best.lives == (5, 7, 5)
    assert len(rnd(best).hands[1]) == 10
    dragged = apply(m, 1, GoOut(C("QS")))
    res = rnd(dragged).result
    assert res is not None and res.plan.discard == C("QS") and res.lives_lost == (1, 0, 1)
    assert dragged.outcome is None


def test_go_out_with_a_wrong_leftover_is_refused() -> None:
    m = make(PIFE, [FAR, NINE_MELDED + " KC"], phase=Phase.DISCARD)
    refused(m, 1, GoOut(C("5C")), "cannot_go_out")
    refused(m, 1, GoOut(C("QD")), "card_not_in_hand")
    ok = apply(m, 1, GoOut(C("KC")))
    assert rnd(ok).result is not None


def test_cannot_go_out_with_incomplete_hand() -> None:
    m = make(PIFE, [FAR, ONE_AWAY + " KC"], phase=Phase.DISCARD)
    refused(m, 1, GoOut(), "cannot_go_out")
    assert not any(isinstance(a, GoOut) for a in legal_actions(m, 1))


def test_taken_card_must_be_melded_to_go_out() -> None:
    m = make(PIFE, [FAR, NINE_MELDED], pile="KC")
    m = apply(m, 1, TakeDiscard())
    refused(m, 1, GoOut(), "cannot_go_out")  # KC would have to be the discard
    refused(m, 1, GoOut(C("KC")), "taken_card")
    # taking a card that extends a meld lets the hand go out (with ten here)
    m = make(PIFE, [FAR, NINE_MELDED], pile="QS")
    m = apply(m, 1, TakeDiscard())
    res = rnd(apply(m, 1, GoOut())).result
    assert res is not None and res.plan.discard is None


def test_taken_twin_cannot_be_go_out_discard() -> None:
    # 5C' in hand; 5C taken: 5C 5D 5S set can use the taken 5C, but 5C' may not be the discard
    m = make(PIFE, [FAR, "AH 2H 3H 5C' 5D 5S 9S 10S JS"], pile="5C")
    m = apply(m, 1, TakeDiscard())
    refused(m, 1, GoOut(C("5C'")), "taken_card")
    refused(m, 1, GoOut(), "cannot_go_out")


def test_wild_from_the_discard_counts_only_as_itself() -> None:
    # vira 6H: 7H is wild. 9S 10S + wild would go out; the wild from the pile does not.
    hand = "AH 2H 3H 5C 5D 5S 9S 10S 2D"
    m = make(CACHETA_7, [FAR, hand, FAR2], pile="7H'", vira="6H")
    taken = apply(m, 1, TakeDiscard())
    assert rnd(taken).plain == frozenset({C("7H'")})
    refused(taken, 1, GoOut(), "cannot_go_out")
    refused(taken, 1, GoOut(C("2D")), "cannot_go_out")
    assert not any(isinstance(a, GoOut) for a in legal_actions(taken, 1))
    # the same wild drawn from the stock stands in for 8S or JS
    drawn = apply(make(CACHETA_7, [FAR, hand, FAR2], stock="7H'", vira="6H"), 1, Draw())
    res = rnd(apply(drawn, 1, GoOut())).result
    assert res is not None and res.plan.discard == C("2D")
    assert any(meld.wild == C("7H'") for meld in res.plan.melds)


def test_wild_from_the_discard_melds_as_itself() -> None:
    m = make(CACHETA_7, [FAR, "7C 7D AH 2H 3H 5C 5D 5S 2D", FAR2], pile="7H'", vira="6H")
    m = apply(m, 1, TakeDiscard())
    m = apply(m, 1, GoOut())
    res = rnd(m).result
    assert res is not None and res.plan.discard == C("2D")
    seven = next(meld for meld in res.plan.melds if C("7H'") in meld.cards)
    assert seven.wild is None
    assert rnd(m).plain == frozenset({C("7H'")})  # still held, still plain


# --- stock rebuild ----------------------------------------------------------------------------


def test_empty_stock_is_rebuilt_from_pile_minus_top_with_seeded_shuffle() -> None:
    m = make(PIFE, [FAR, ONE_AWAY], stock="", pile="4C 5C 6C 7C 8C", by=[0, 1, 0, 1, 0], seed=42)
    m2 = apply(m, 1, Draw())
    body = list(H("4C 5C 6C 7C"))
    random.Random("42:1:rebuild:1").shuffle(body)
    r = rnd(m2)
    assert r.hands[1][-1] == body[-1] and r.stock == tuple(body[:-1])
    assert r.discard_pile == (C("8C"),) and r.discarded_by == (0,) and r.rebuilds == 1
    # as often as needed: the second rebuild uses its own stream
    m3 = replace(m2, round=replace(r, stock=(), discard_pile=H("9D 10D JD QD"), discarded_by=(0,) * 4))
    m3 = replace(m3, round=replace(rnd(m3), phase=Phase.DRAW, turn=0))
    body = list(H("9D 10D JD"))
    random.Random("42:1:rebuild:2").shuffle(body)
    r = rnd(apply(m3, 0, Draw()))
    assert r.hands[0][-1] == body[-1] and r.stock == tuple(body[:-1]) and r.rebuilds == 2


def test_no_card_to_rebuild_is_refused() -> None:
    m = make(PIFE, [FAR, ONE_AWAY], stock="", pile="4C")
    refused(m, 1, Draw(), "stock_empty")


# --- Pife: bater com a louca ------------------------------------------------------------------


def test_pife_discard_lets_first_seat_after_discarder_go_out() -> None:
    s2 = "AH 2H 3H 5C 5D 5S 9S 10S 2C"  # goes out with JS (9S 10S JS), discards 2C
    s3 = "AD 2D 3D 6C 6D 6S 9S' 10S' 3C"  # also goes out with JS
    m = make(PIFE, [FAR, FAR2 + " JS", s2, s3], phase=Phase.DISCARD, turn=1)
    m = apply(m, 1, Discard(C("JS")))
    r = rnd(m)
    assert r.result is not None and r.result.winner == 2 and r.result.out_of_turn
    assert r.result.discarder == 1
    assert C("JS") in r.hands[2] and r.discard_pile[-1] == C("2C") and r.discarded_by[-1] == 2
    assert r.picked_up[2] == (C("JS"),)
    assert m.outcome == Outcome(Termination.GONE_OUT, 2) and r.phase is Phase.ROUND_OVER


def test_pife_out_of_turn_order_wraps_after_discarder() -> None:
    s1 = "AH 2H 3H 5C 5D 5S 9S 10S 2C"
    s2 = "AD 2D 3D 6C 6D 6S 9S' 10S' 3C"
    m = make(PIFE, [FAR, s1, s2, FAR2 + " JS"], phase=Phase.DISCARD, turn=3)
    res = rnd(apply(m, 3, Discard(C("JS")))).result
    assert res is not None and res.winner == 1
    m = make(PIFE, [s1, FAR2 + " JS", FAR, s2], phase=Phase.DISCARD, turn=1)
    res = rnd(apply(m, 1, Discard(C("JS")))).result
    assert res is not None and res.winner == 3


def test_pife_no_out_of_turn_when_card_would_be_the_discard() -> None:
    # seat 0 has 9 in melds: KC would only be its discard, which is not allowed for a taken card
    m = make(PIFE, [NINE_MELDED, FAR2 + " KC"], phase=Phase.DISCARD, turn=1)
    m = apply(m, 1, Discard(C("KC")))
    assert rnd(m).result is None and rnd(m).turn == 0


# --- Cacheta: NA BOA ------------------------------------------------------------------------


def test_announce_rules() -> None:
    m = make(CACHETA_7, [ONE_AWAY, FAR, FAR2], turn=1)
    refused(m, 1, AnnounceOneAway(), "not_one_away")
    assert AnnounceOneAway() in legal_actions(m, 0)  # another seat, during the DRAW phase
    m2 = apply(m, 0, AnnounceOneAway())
    assert rnd(m2).announced == frozenset({0}) and m2.version == 1
    refused(m2, 0, AnnounceOneAway(), "already_announced")
    assert AnnounceOneAway() not in legal_actions(m2, 0)
    refused(make(PIFE, [ONE_AWAY, FAR]), 0, AnnounceOneAway(), "no_announce_in_pife")
    # holding 10 cards (own DISCARD phase) is refused; another seat with 9 may announce
    m3 = make(CACHETA_7, [ONE_AWAY, FAR2 + " KC", FAR], phase=Phase.DISCARD)
    refused(m3, 1, AnnounceOneAway(), "wrong_phase")
    assert rnd(apply(m3, 0, AnnounceOneAway())).announced == frozenset({0})
    out = make(CACHETA_7, [ONE_AWAY, FAR, FAR2], lives=[0, 3, 3])
    refused(out, 0, AnnounceOneAway(), "player_out")


def test_announced_seat_jumps_the_queue() -> None:
    s2 = "AH 2H 3H 5C 5D 5S 9S 10S 2C"
    s3 = "AD 2D 3D 6C 6D 6S 9S' 10S' 3C"
    base = make(CACHETA_7, [FAR, FAR2 + " JS", s2, s3], phase=Phase.DISCARD, turn=1)
    # nobody announced: no jump, play goes on
    r = rnd(apply(base, 1, Discard(C("JS"))))
    assert r.result is None and r.turn == 2
    # only seat 3 announced: seat 3 jumps although seat 2 could also go out
    m = replace(base, round=replace(rnd(base), announced=frozenset({3})))
    after = apply(m, 1, Discard(C("JS")))
    res = rnd(after).result
    assert res is not None and res.winner == 3 and res.out_of_turn and res.discarder == 1
    assert after.lives == (6, 6, 6, 7) and res.lives_lost == (1, 1, 1, 0)
    # both announced: first in order after the discarder
    m = replace(base, round=replace(rnd(base), announced=frozenset({2, 3})))
    res = rnd(apply(m, 1, Discard(C("JS")))).result
    assert res is not None and res.winner == 2


def test_discarder_loses_announcement_when_no_longer_one_away() -> None:
    hand10 = ONE_AWAY + " KC"
    m = make(CACHETA_7, [FAR, hand10, FAR2], phase=Phase.DISCARD, announced=[1])
    assert rnd(apply(m, 1, Discard(C("KC")))).announced == frozenset({1})
    assert rnd(apply(m, 1, Discard(C("AH")))).announced == frozenset()


# --- Cacheta: lives, FORA, next round -------------------------------------------------------


def test_lives_floor_at_zero_and_last_with_lives_wins() -> None:
    m = make(CACHETA_7, [FAR, NINE_MELDED + " QS", FAR2], phase=Phase.DISCARD, lives=[1, 3, 2])
    m = apply(m, 1, GoOut())
    res = rnd(m).result
    assert res is not None and res.lives_lost == (1, 0, 2) and m.lives == (0, 3, 0)
    assert m.outcome == Outcome(Termination.LAST_WITH_LIVES, 1)
    assert rnd(m).phase is Phase.ROUND_OVER
    refused(m, 1, Resign(), "match_over")  # decided: only NextRound
    m = apply(m, 0, NextRound())  # even a FORA seat
    assert rnd(m).phase is Phase.MATCH_OVER


def test_out_seat_is_skipped_and_dealer_moves_to_next_active_seat() -> None:
    m = make(CACHETA_7, [FAR, NINE_MELDED + " KC", FAR2], phase=Phase.DISCARD, lives=[1, 3, 3], seed=9)
    m = apply(m, 1, GoOut())
    assert m.lives == (0, 3, 2) and m.outcome is None
    refused(m, 1, Draw(), "round_over")
    refused(m, 1, ClaimAbsence(), "round_over")
    m = apply(m, 0, NextRound())  # FORA seat may press PRÓXIMA RODADA
    r = rnd(m)
    assert (m.round_number, m.dealer, r.turn, r.phase) == (2, 1, 2, Phase.DRAW)
    assert [len(h) for h in r.hands] == [0, 9, 9] and len(r.stock) == 104 - 18 - 1
    assert active_seats(m) == (1, 2)
    assert legal_actions(m, 0) == ()
    refused(m, 0, Draw(), "player_out")
    refused(m, 0, Resign(), "player_out")
    refused(m, 0, ClaimAbsence(), "player_out")  # seed 000 line 72
    m = apply(m, 2, Draw())
    m = apply(m, 2, Discard(rnd(m).hands[2][0]))
    assert rnd(m).turn == 1
    m = apply(m, 1, Draw())
    m = apply(m, 1, Discard(rnd(m).hands[1][0]))
    assert rnd(m).turn == 2


def test_dealer_rotation_over_rounds() -> None:
    m = new_match(CACHETA_10, 3, seed=2)
    assert m.lives == (10, 10, 10)
    for expected_dealer in (1, 2, 0, 1):
        r = rnd(m)
        m = replace(m, round=replace(r, phase=Phase.ROUND_OVER))
        m = apply(m, 2, NextRound())
        assert m.dealer == expected_dealer and rnd(m).turn == (expected_dealer + 1) % 3
    deck = list(full_deck())
    random.Random(f"2:{m.round_number}").shuffle(deck)
    assert rnd(m).hands[2][0] == deck[-1]


def test_next_round_only_at_round_over() -> None:
    m = make(CACHETA_7, [FAR, ONE_AWAY, FAR2])
    refused(m, 0, NextRound(), "round_not_over")


# --- resign, absence, expiry, leaving ------------------------------------------------------


@pytest.mark.parametrize(
    ("lives", "loser", "winner"),
    [
        ((2, 5, 5), 0, 1),  # tie: first in seat order after the loser
        ((5, 2, 5), 1, 2),
        ((5, 5, 2), 2, 0),
        ((5, 2, 7), 0, 2),  # most lives
        ((0, 2, 1), 2, 1),  # FORA seats do not win
    ],
)
def test_resign_cacheta_winner(lives: tuple[int, int, int], loser: int, winner: int) -> None:
    m = make(CACHETA_7, [FAR, ONE_AWAY, FAR2], lives=lives)
    m = apply(m, loser, Resign())
    assert m.outcome == Outcome(Termination.RESIGNED, winner, loser)
    assert rnd(m).phase is Phase.MATCH_OVER
    refused(m, winner, Draw(), "match_over")


@pytest.mark.parametrize(("loser", "winner"), [(0, 1), (1, 2), (2, 0)])
def test_resign_pife_next_seat_wins(loser: int, winner: int) -> None:
    m = apply(make(PIFE, [FAR, ONE_AWAY, FAR2]), loser, Resign())
    assert m.outcome == Outcome(Termination.RESIGNED, winner, loser)


def test_claim_absence() -> None:
    m = make(CACHETA_7, [FAR, ONE_AWAY, FAR2], turn=1, lives=[3, 5, 4])
    refused(m, 1, ClaimAbsence(), "not_absent")
    done = apply(m, 2, ClaimAbsence())
    assert done.outcome == Outcome(Termination.ABSENCE, 2, 1)
    done = apply(m, 0, ClaimAbsence())
    assert done.outcome == Outcome(Termination.ABSENCE, 2, 1)
    p = make(PIFE, [FAR, ONE_AWAY, FAR2], turn=2, phase=Phase.DISCARD)
    assert apply(p, 1, ClaimAbsence()).outcome == Outcome(Termination.ABSENCE, 0, 2)


def test_expire_has_no_winner() -> None:
    m = make(CACHETA_7, [FAR, ONE_AWAY, FAR2])
    done = apply(m, None, Expire())
    assert done.outcome == Outcome(Termination.EXPIRED, None) and rnd(done).phase is Phase.MATCH_OVER
    refused(done, None, Expire(), "match_over")


def test_leave_table_only_for_fora_in_cacheta() -> None:
    m = make(CACHETA_7, [FAR, ONE_AWAY, FAR2], lives=[0, 3, 3])
    refused(m, 1, LeaveTable(), "not_out")
    refused(make(PIFE, [FAR, ONE_AWAY]), 0, LeaveTable(), "not_out")
    gone = apply(m, 0, LeaveTable())
    assert gone.left == frozenset({0}) and gone.outcome is None and rnd(gone) == rnd(m)
    refused(gone, 0, LeaveTable(), "not_a_player")
    refused(gone, 0, NextRound(), "not_a_player")
    assert legal_actions(gone, 0) == ()


# --- refusals leave everything unchanged; version ------------------------------------------


def test_every_refusal_code_and_unchanged_match() -> None:
    base = make(CACHETA_7, [FAR, ONE_AWAY + " KC", FAR2], phase=Phase.DISCARD, lives=[0, 3, 3])
    over = apply(base, None, Expire())
    cases: list[tuple[Match, int | None, Action, str]] = [
        (over, 1, Discard(C("KC")), "match_over"),
        (base, 9, Discard(C("KC")), "not_a_player"),
        (base, 0, Draw(), "player_out"),
        (base, 2, Draw(), "not_your_turn"),
        (base, 1, Draw(), "wrong_phase"),
        (base, 1, Discard(C("QH")), "card_not_in_hand"),
        (base, 1, GoOut(), "cannot_go_out"),
        (base, 2, AnnounceOneAway(), "not_one_away"),
        (base, 1, NextRound(), "round_not_over"),
        (base, 1, LeaveTable(), "not_out"),
        (base, 1, ClaimAbsence(), "not_absent"),
        (base, 0, ClaimAbsence(), "player_out"),
    ]
    for m, seat, action, code in cases:
        refused(m, seat, action, code)


def test_apply_refuses_non_actions() -> None:
    m = make(PIFE, [FAR, ONE_AWAY])
    refused(m, 1, "draw", "bad_action")  # type: ignore[arg-type]


def test_replay_from_seed_and_action_log() -> None:
    rng = random.Random(5)
    m0 = new_match(PIFE, 3, seed=77)
    m = m0
    log: list[tuple[int, Action]] = []
    for _ in range(60):
        seat = rnd(m).turn
        legal = [a for a in legal_actions(m, seat) if not isinstance(a, AnnounceOneAway)]
        action = rng.choice(legal)
        log.append((seat, action))
        m = apply(m, seat, action)
        if rnd(m).phase is not Phase.DRAW and rnd(m).phase is not Phase.DISCARD:
            break
    again = m0
    for seat, action in log:
        again = apply(again, seat, action)
    assert again == m and m.version == len(log)


def _bater_accepted(m: Match, seat: int) -> bool:
    try:
        apply(m, seat, GoOut())
    except IllegalActionError:
        return False
    return True


@pytest.mark.parametrize(
    ("rules", "hand", "pile", "expected"),
    [
        (PIFE, NINE_MELDED + " KC", "", True),  # drawn from the stock: KC is the leftover
        (CACHETA_7, NINE_MELDED + " QS", "", True),  # ten in melds
        (PIFE, ONE_AWAY + " KC", "", False),  # incomplete
        (PIFE, NINE_MELDED, "KC", False),  # KC taken from the pile would have to be the discard
        (PIFE, NINE_MELDED, "QS", True),  # QS taken from the pile extends a meld: ten in melds
        (PIFE, "AH 2H 3H 5C' 5D 5S 9S 10S JS", "5C", False),  # the taken 5C's twin can't go
    ],
)
def test_views_offer_bater_exactly_when_it_is_accepted(
    rules: Rules, hand: str, pile: str, expected: bool
) -> None:
    """``PlayerView.can_go_out`` (the page enables BATER with it, seed 000 line 56) agrees with
    ``apply(GoOut())`` in the positions of the go-out tests above; only the seat on its discard
    turn is ever offered it."""
    if pile:
        m = apply(make(rules, [FAR, hand], pile=pile), 1, TakeDiscard())
    else:
        m = make(rules, [FAR, hand], phase=Phase.DISCARD)
    assert player_view(m, 1).can_go_out is _bater_accepted(m, 1) is expected
    assert not player_view(m, 0).can_go_out and not spectator_view(m).can_go_out
    before = make(rules, [FAR, hand[: hand.rindex(" ")] if not pile else hand], pile=pile)
    assert not player_view(before, 1).can_go_out  # draw phase: nothing to go out with yet


def test_can_go_out_agrees_with_apply_over_random_games() -> None:
    """Random play in both modes: at every discard turn the view's ``can_go_out`` is what
    ``apply(GoOut())`` says."""
    rng = random.Random(5)
    checked = 0
    for rules in (PIFE, CACHETA_7):
        for seed in range(8):
            m = new_match(rules, 3, seed=seed)
            for _ in range(40):
                r = rnd(m)
                if r.phase not in (Phase.DRAW, Phase.DISCARD) or r.turn is None:
                    break
                if r.phase is Phase.DISCARD:
                    assert player_view(m, r.turn).can_go_out == _bater_accepted(m, r.turn)
                    checked += 1
                actions = [a for a in legal_actions(m, r.turn) if not isinstance(a, GoOut)]
                m = apply(m, r.turn, rng.choice(actions))
    assert checked > 100
