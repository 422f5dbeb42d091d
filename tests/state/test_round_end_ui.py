"""What the table shows around a turn and a round's end (pifecacheta/state/view_model.py):
the card just drawn (to its drawer only), who discarded the pile's top card, and whether the
viewer moved in the round in play (the last round's summary card goes then)."""

from __future__ import annotations

import pytest
from _planned import act, play_planned

from pifecacheta.rules import CACHETA_7, PIFE, Discard, Draw, NextRound, TakeDiscard
from pifecacheta.state.view_model import table_ui


@pytest.fixture
def svc(db_url, monkeypatch):
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    return service.TableService(db.init_db(db_url))


def _started(svc, rules=PIFE):
    ana = svc.identify(None, None, "Ana")
    bruno = svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, rules)
    svc.join(code, bruno)
    svc.start(code, ana)
    return code, ana, bruno, svc.identify(None, None, "Carla")


def _drawn(ui) -> list[str]:
    return [c.id for c in ui.hand_by_suit if c.drawn]


def test_the_card_drawn_is_marked_for_its_drawer_only_until_the_discard(svc):
    code, ana, bruno, carla = _started(svc)
    # Bruno (seat 1) plays first: before his draw nothing is marked
    assert _drawn(table_ui(svc.snapshot(code, bruno))) == []
    before = set(svc.snapshot(code, bruno).view.hand)
    act(svc, code, bruno, Draw())
    (new,) = set(svc.snapshot(code, bruno).view.hand) - before
    ub = table_ui(svc.snapshot(code, bruno))
    assert _drawn(ub) == [str(new)]
    assert [c.id for c in ub.hand_by_rank if c.drawn] == [str(new)]  # both sort orders
    assert not any(c.taken for c in ub.hand_by_suit)  # from the stock: not "taken"
    # the others see no mark, and no card of Bruno's: Ana has her own nine, Carla none
    ua, us = table_ui(svc.snapshot(code, ana)), table_ui(svc.snapshot(code, carla))
    assert _drawn(ua) == [] and str(new) not in {c.id for c in ua.hand_by_suit}
    assert us.hand_by_suit == [] and us.hand_by_rank == []
    assert "drawn=True" not in repr(ua) + repr(us)
    # the discard ends the mark (discarding another card: the new one stays in hand, unmarked)
    other = next(c for c in svc.snapshot(code, bruno).view.hand if c != new)
    act(svc, code, bruno, Discard(other))
    ub = table_ui(svc.snapshot(code, bruno))
    assert str(new) in {c.id for c in ub.hand_by_suit} and _drawn(ub) == []


def test_a_card_taken_from_the_pile_is_marked_taken_not_drawn(svc):
    code, ana, bruno, _carla = _started(svc)
    act(svc, code, bruno, Draw())
    top = svc.snapshot(code, bruno).view.hand[0]
    act(svc, code, bruno, Discard(top))
    act(svc, code, ana, TakeDiscard())
    ua = table_ui(svc.snapshot(code, ana))
    assert _drawn(ua) == []
    assert str(top) in {c.id for c in ua.hand_by_suit if c.taken}


def test_the_pile_says_who_discarded_its_top_card(svc):
    code, ana, bruno, carla = _started(svc)
    ua = table_ui(svc.snapshot(code, ana))
    assert not ua.has_discard and ua.discard_by == "" and not ua.discard_by_me
    act(svc, code, bruno, Draw())
    act(svc, code, bruno, Discard(svc.snapshot(code, bruno).view.hand[-1]))
    ua, ub, us = (table_ui(svc.snapshot(code, w)) for w in (ana, bruno, carla))
    assert (ua.discard_by, ua.discard_by_me) == ("Bruno", False)
    assert (ub.discard_by, ub.discard_by_me) == ("Bruno", True)
    assert (us.discard_by, us.discard_by_me) == ("Bruno", False)
    # Ana takes it: the pile is empty again, nobody named
    act(svc, code, ana, TakeDiscard())
    ua = table_ui(svc.snapshot(code, ana))
    assert not ua.has_discard and ua.discard_by == ""


def test_played_this_round_follows_the_viewers_own_moves(svc, monkeypatch):
    code, who, _final, _log = play_planned(svc, monkeypatch, CACHETA_7, out_of_turn=False)
    ana, bruno = who[0], who[1]
    assert table_ui(svc.snapshot(code, ana)).round_over
    assert not table_ui(svc.snapshot(code, ana)).played_this_round  # FIM DA RODADA: no
    act(svc, code, ana, NextRound())
    ua, ub = (table_ui(svc.snapshot(code, w)) for w in (ana, bruno))
    assert ua.round_number == ub.round_number == 2
    assert not ua.played_this_round and not ub.played_this_round
    first = who[ua.turn_seat]
    act(svc, code, first, Draw())
    # drew: the discard is due, and the summary stays meanwhile (its going would move the hand)
    assert not table_ui(svc.snapshot(code, first)).played_this_round
    mine = svc.snapshot(code, first).view
    act(svc, code, first, Discard(mine.hand[0]))
    assert table_ui(svc.snapshot(code, first)).played_this_round  # its card is on the pile
    other = who[1 - ua.turn_seat]
    assert not table_ui(svc.snapshot(code, other)).played_this_round
    spectator = svc.identify(None, None, "Carla")
    assert not table_ui(svc.snapshot(code, spectator)).played_this_round
