"""The per-viewer projection of a table (pifecacheta/state/view_model.py) on the real service."""

from __future__ import annotations

import pytest
from _planned import play_planned
from _replay import empty_the_stock

from pifecacheta.rules import CACHETA_7, PIFE, Draw, GoOut
from pifecacheta.state.lobby import rules_for
from pifecacheta.state.table import error_key
from pifecacheta.state.view_model import table_ui


@pytest.fixture
def svc(db_url, monkeypatch):
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    return service.TableService(db.init_db(db_url))


def _table(svc, rules=CACHETA_7):
    ana = svc.identify(None, None, "Ana")
    bruno = svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, rules)
    assert svc.join(code, bruno) == 1
    return code, ana, bruno


def test_lobby_shows_four_seats_and_who_may_start(svc):
    code, ana, bruno = _table(svc)
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.status == "lobby" and ui.found
    assert [s.empty for s in ui.seats] == [False, False, True, True]
    assert [s.name for s in ui.seats[:2]] == ["Ana", "Bruno"]
    assert ui.is_creator and ui.can_start and ui.can_add_bots
    ui_b = table_ui(svc.snapshot(code, bruno))
    assert not ui_b.is_creator and not ui_b.can_start and ui_b.my_seat == 1


def test_each_viewer_gets_only_their_own_hand(svc):
    code, ana, bruno = _table(svc)
    svc.start(code, ana)
    ua, ub = (table_ui(svc.snapshot(code, w)) for w in (ana, bruno))
    spectator = svc.identify(None, None, "Carla")
    us = table_ui(svc.snapshot(code, spectator))
    assert ua.hand_count == ub.hand_count == 9
    assert {c.id for c in ua.hand_by_suit}.isdisjoint({c.id for c in ub.hand_by_suit})
    assert us.hand_count == 0 and us.hand_by_rank == [] and not us.is_player and us.my_seat == -1
    assert [s.cards for s in us.seats] == [9, 9]
    # seat 0 deals (seed 000 line 50), seat 1 plays first
    assert ua.seats[0].dealer and ub.my_turn and ub.can_draw and not ua.my_turn
    assert ua.turn_name == "Bruno" and us.turn_name == "Bruno"
    assert ua.has_vira and ua.wild.rank != "" and ua.lives_start == 7
    assert [s.lives for s in ua.seats] == [7, 7]
    # the hand orders hold the same cards
    assert sorted(c.id for c in ua.hand_by_rank) == sorted(c.id for c in ua.hand_by_suit)


def test_after_a_draw_the_drawer_may_discard(svc):
    code, ana, bruno = _table(svc, PIFE)
    svc.start(code, ana)
    version = svc.snapshot(code, bruno).version
    svc.act(code, bruno, Draw(), expected_version=version)
    ub = table_ui(svc.snapshot(code, bruno))
    assert ub.hand_count == 10 and ub.can_discard and not ub.can_draw
    assert ub.mode == "pife" and not ub.has_vira and not ub.can_announce
    ua = table_ui(svc.snapshot(code, ana))
    assert ua.seats[1].cards == 10 and not ua.can_discard
    # BATER is offered exactly when the engine would accept it (seed 7: this hand cannot)
    view = svc.snapshot(code, bruno).view
    assert ub.can_go_out == view.can_go_out and not ub.can_go_out and not ua.can_go_out


def test_bater_is_offered_when_the_hand_can_go_out(svc, monkeypatch):
    """The planned game's last turn is a BATER: just before it, the go-out seat's page offers
    it, and nobody else's does."""
    code, who, final, log = play_planned(svc, monkeypatch, CACHETA_7, out_of_turn=False, upto=-1)
    seat, _last = log[-1]
    assert isinstance(_last, GoOut) and final.round.result.winner == seat
    ui = table_ui(svc.snapshot(code, who[seat]))  # it has drawn (log[-2]); BATER is next
    assert ui.can_discard and ui.can_go_out
    assert not table_ui(svc.snapshot(code, who[1 - seat])).can_go_out


def test_refusal_codes_map_to_messages(svc):
    code, ana, bruno = _table(svc)
    svc.start(code, ana)
    with pytest.raises(ValueError) as info:
        svc.act(code, ana, Draw(), expected_version=svc.snapshot(code, ana).version)
    assert error_key(info.value) == "err.not_your_turn"
    with pytest.raises(ValueError) as info:
        svc.act(code, bruno, Draw(), expected_version=0)
    assert error_key(info.value) == "err.stale_version"


def test_lobby_choices():
    assert rules_for("pife") == PIFE
    assert rules_for("cacheta7") == CACHETA_7
    assert rules_for("cacheta10").lives == 10
    with pytest.raises(ValueError):
        rules_for("poker")


def _replay_planned(svc, rules, *, out_of_turn, monkeypatch):
    """Play a planned greedy game (tests/browser/_planner.py) through the service."""
    from _planned import play_planned

    code, who, final, _log = play_planned(svc, monkeypatch, rules, out_of_turn=out_of_turn)
    return code, who[0], who[1], final


def test_round_over_shows_winner_melds_and_lives(svc, monkeypatch):
    code, ana, bruno, final = _replay_planned(svc, CACHETA_7, out_of_turn=False, monkeypatch=monkeypatch)
    res = final.round.result
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.round_over and ui.has_result and not ui.match_over and ui.can_next_round
    assert not ui.match_decided  # Cacheta goes on with lives: a player may still resign
    assert ui.result_winner == ("Ana", "Bruno")[res.winner]
    assert [[c.id for c in m.cards] for m in ui.result_melds] == [
        [str(c) for c in m.cards] for m in res.plan.melds
    ]
    assert [s.lives for s in ui.seats] == list(final.lives)
    assert ui.seats[1 - res.winner].lives_lost == 1 and ui.seats[res.winner].winner
    assert not ui.can_draw and not ui.can_discard


def test_pife_louca_then_match_over_with_winner(svc, monkeypatch):
    from pifecacheta.rules import NextRound

    code, ana, bruno, final = _replay_planned(svc, PIFE, out_of_turn=True, monkeypatch=monkeypatch)
    ui = table_ui(svc.snapshot(code, bruno))
    assert ui.round_over and ui.result_out_of_turn and ui.mode == "pife"
    assert ui.match_decided and not ui.match_over  # decided by the go-out: DESISTIR is not offered
    winner = ("Ana", "Bruno")[final.round.result.winner]
    svc.act(code, bruno, NextRound(), expected_version=ui.version)
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.match_over and ui.has_outcome and ui.outcome_winner == winner and ui.status == "finished"
    assert not ui.can_next_round and ui.rematch_offered


def test_the_end_screen_keys_follow_the_round_and_the_match(svc, monkeypatch):
    from pifecacheta.rules import NextRound

    code, ana, bruno, final = _replay_planned(svc, PIFE, out_of_turn=True, monkeypatch=monkeypatch)
    ui = table_ui(svc.snapshot(code, bruno))
    assert ui.round_title_key == "round.title" and ui.result_banner_key == "banner.louca"
    assert ui.result_headline_key == "round.went_out"  # "bater com 10" is Cacheta's (seed 000 line 21)
    assert ui.result_taken_key == ("round.took_card_from" if ui.result_discarder else "round.took_card")
    assert ui.no_winner_key == ui.end_reason_key == "" and not ui.has_rematch_votes
    svc.act(code, bruno, NextRound(), expected_version=ui.version)
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.match_over and ui.outcome_winner and ui.no_winner_key == "" and ui.end_reason_key == ""
    assert ui.no_rematch_key == "rematch.none.left" and not ui.has_rematch_votes
    svc.vote_rematch(code, ana)
    ui = table_ui(svc.snapshot(code, bruno))
    assert ui.has_rematch_votes and [s.rematch for s in ui.seats] == [True, False]


def test_the_end_screen_keys_of_a_match_without_a_winner():
    from pifecacheta.state.end_texts import choose_end_texts
    from pifecacheta.state.ui_values import SeatUi, TableUi

    for kind, no_winner, reason, no_rematch in (
        ("resigned", "match.no_winner", "match.resigned", "rematch.none.resigned"),
        ("absence", "match.no_winner", "match.absence", "rematch.none.absence"),
        ("expired", "match.expired", "", "rematch.none.expired"),
        ("gone_out", "match.no_winner", "", "rematch.none.left"),
    ):
        ui = TableUi(match_over=True, has_outcome=True, outcome_kind=kind, seats=[SeatUi(), SeatUi()])
        choose_end_texts(ui)
        assert (ui.round_title_key, ui.no_winner_key, ui.end_reason_key, ui.no_rematch_key) == (
            "match.title",
            no_winner,
            reason,
            no_rematch,
        )
        assert ui.result_banner_key == ui.result_headline_key == "" and not ui.has_rematch_votes
    ui = TableUi(round_over=True, match_over=True, has_result=True, result_out_of_turn=True, mode="cacheta")
    choose_end_texts(ui)
    assert ui.round_title_key == "round.title" and ui.result_banner_key == "banner.jump"


def test_every_end_screen_key_is_in_both_catalogs():
    import re
    from pathlib import Path

    from pifecacheta import i18n
    from pifecacheta.state import end_texts, ui_values, view_model

    source = "".join(Path(m.__file__).read_text() for m in (ui_values, view_model, end_texts))
    keys = set(re.findall(r'"((?:round|match|banner|rematch\.none)\.[\w.]+)"', source))
    keys |= {"match.resigned", "match.absence"} | {
        f"rematch.none.{k}" for k in ("resigned", "absence", "expired", "left")
    }
    assert len(keys) >= 12
    for lang in i18n.LANGUAGES:
        assert keys <= set(i18n.catalog(lang)), keys - set(i18n.catalog(lang))


def test_the_taken_card_and_its_twin_are_both_marked():
    """Seed 000 line 54: neither the card taken from the lixo nor the equal card of the other
    deck may be discarded this turn, so the hand marks both (and no other card)."""
    from pifecacheta.rules.cards import Card
    from pifecacheta.state.ui_values import card_ui

    taken = Card.parse("9S")
    marks = {text: card_ui(Card.parse(text), taken=taken).taken for text in ("9S", "9S'", "9C", "10S")}
    assert marks == {"9S": True, "9S'": True, "9C": False, "10S": False}
    assert card_ui(Card.parse("9S'")).taken is False  # nothing taken this turn


def test_the_wild_mark_is_the_same_for_any_collection_of_wild_faces():
    """``card_ui`` takes a view's frozenset of wild faces as it is and gathers any other
    iterable (a list, a one-pass generator, nothing) into a set: the same wild marks."""
    from pifecacheta.rules.cards import Card
    from pifecacheta.state.ui_values import card_ui

    faces = [Card.parse("7S").face, Card.parse("7C").face]
    cards = [Card.parse(t) for t in ("7S", "7S'", "7C", "7H", "8S")]
    expected = [True, True, True, False, False]
    for wilds in (frozenset(faces), set(faces), faces, tuple(faces)):
        assert [card_ui(c, wilds=wilds).wild for c in cards] == expected
    assert [card_ui(c, wilds=(f for f in faces)).wild for c in cards] == expected
    assert not any(card_ui(c).wild for c in cards)


def test_after_a_resignation_with_tied_lives_the_match_winner_has_the_trophy(svc):
    """Seed 000 line 72: Bruno resigns at once (lives all tied): the next seat with most lives
    after him wins, and only that seat shows the trophy; the reason says he resigned."""
    from pifecacheta import i18n
    from pifecacheta.rules import Resign

    code, ana, bruno = _table(svc)
    carla = svc.identify(None, None, "Carla")
    svc.join(code, carla)
    svc.start(code, ana)
    svc.act(code, bruno, Resign(), expected_version=svc.snapshot(code, bruno).version)
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.match_over and ui.outcome_kind == "resigned" and ui.outcome_loser == "Bruno"
    assert [s.winner for s in ui.seats[:3]] == [s.name == ui.outcome_winner for s in ui.seats[:3]]
    assert sum(s.winner for s in ui.seats) == 1 and ui.outcome_winner == "Carla"
    assert ui.end_reason_key == "match.resigned"
    assert i18n.text("pt", "match.resigned").replace("{name}", "Bruno") == "Bruno desistiu."


def test_each_viewer_sees_itself_at_the_bottom_and_the_next_to_play_at_its_right():
    """The game goes to the right (seed 000 lines 9 and 50): seen from the bottom, the next
    seat sits at the right, the one after it at the top, the last at the left."""
    from pifecacheta.state.ui_values import seat_place

    assert [seat_place(s, 0, 2) for s in range(2)] == ["bottom", "top"]
    assert [seat_place(s, 2, 3) for s in range(3)] == ["right", "left", "bottom"]
    assert [seat_place(s, 3, 4) for s in range(4)] == ["right", "top", "left", "bottom"]
    # a spectator sees seat 0 at the bottom
    assert [seat_place(s, -1, 4) for s in range(4)] == ["bottom", "right", "top", "left"]


def test_the_seats_of_a_match_carry_their_place_for_each_viewer(svc):
    code, ana, bruno = _table(svc)
    svc.start(code, ana)
    assert [s.place for s in table_ui(svc.snapshot(code, ana)).seats] == ["bottom", "top"]
    assert [s.place for s in table_ui(svc.snapshot(code, bruno)).seats] == ["top", "bottom"]


@pytest.mark.parametrize(("mode", "key"), [("pife", "round.went_out"), ("cacheta", "round.with_ten")])
def test_going_out_with_ten_is_said_in_cacheta_only(mode, key):
    from pifecacheta.state.end_texts import choose_result_texts
    from pifecacheta.state.ui_values import TableUi

    ui = TableUi(mode=mode, has_result=True, result_with_ten=True)
    choose_result_texts(ui)
    assert ui.result_headline_key == key


def test_an_empty_stock_is_shown_empty_and_may_still_be_drawn_from(svc):
    """ "Monte · 0": the stock is drawn as an empty slot (``has_stock`` off), COMPRAR stays
    offered: the draw turns the lixo into the stock (seed 000)."""
    code, ana, bruno = _table(svc, PIFE)
    svc.start(code, ana)
    assert table_ui(svc.snapshot(code, ana)).has_stock
    who = {0: ana, 1: bruno}
    empty_the_stock(svc, code, who)
    seat = svc.snapshot(code, None).view.turn
    ui = table_ui(svc.snapshot(code, who[seat]))
    assert ui.stock_size == 0 and not ui.has_stock and ui.can_draw
    assert not table_ui(svc.snapshot(code, None)).has_stock  # a spectator sees it empty too
    svc.act(code, who[seat], Draw(), expected_version=svc.snapshot(code, who[seat]).version)
    ui = table_ui(svc.snapshot(code, who[seat]))
    assert ui.stock_size > 0 and ui.has_stock
