"""Two players with the same name at one table are told apart ("Ana", "Ana 2"): seats, chat."""

from __future__ import annotations

from pifecacheta.rules import PIFE
from pifecacheta.service import NAME_MAX, distinct_name


def _names(svc, code, who):
    return [s.name for s in svc.snapshot(code, who).seats]


def test_second_ana_sits_as_ana_2_and_chats_as_ana_2(svc):
    ana = svc.identify(None, None, "Ana")
    other_ana = svc.identify(None, None, "ana")  # same name, other case, other person
    third = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    assert svc.join(code, other_ana) == 1
    assert svc.join(code, third) == 2
    assert _names(svc, code, ana) == ["Ana", "ana 2", "Ana 3"]
    # joining again (a reload) keeps the seat and its name
    assert svc.join(code, other_ana) == 1
    assert _names(svc, code, ana) == ["Ana", "ana 2", "Ana 3"]
    svc.start(code, ana)
    svc.chat(code, other_ana, "oi")
    assert [(c.name, c.text) for c in svc.snapshot(code, ana).chat] == [("ana 2", "oi")]


def test_a_person_called_tito_and_the_bot_tito(svc):
    tito = svc.identify(None, None, "Tito")
    code = svc.create_table(tito, PIFE)
    svc.add_bots(code, tito, ["Tito", "Luna"])
    seats = svc.snapshot(code, tito).seats
    assert [(s.name, s.is_bot) for s in seats] == [("Tito", False), ("Tito 2", True), ("Luna", True)]


def test_distinct_name_keeps_24_characters():
    long = "x" * NAME_MAX
    assert distinct_name(long, [long]) == "x" * (NAME_MAX - 2) + " 2"
    assert distinct_name("Bia", []) == "Bia"
