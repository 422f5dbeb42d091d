"""SENTAR À MESA refused in the waiting room says why (seed 000 line 46: whoever opens the
invite link sits while a seat is free; otherwise they watch).

``TableState.sit`` runs here on a tab's real Reflex state and its real ``ViewerState`` (a new
browser: a new player per name; tests/state/_tab.py) against a real :class:`TableService`;
the page part is checked on the compiled waiting room: it holds the same ``#message`` callout
as the table.
"""

from __future__ import annotations

import pytest
from _tab import RealTab, use_service

from pifecacheta import i18n
from pifecacheta.rules import PIFE
from pifecacheta.service import TableService
from pifecacheta.state.table import TableState


class _Tab(RealTab):
    """A newcomer's tab in the waiting room: the name typed in the form, nothing remembered."""

    def __init__(self, svc: TableService, code: str, name: str) -> None:
        super().__init__(code, table_version=7)
        self.set(join_name=name)


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    return service


def _sit(tab: _Tab) -> None:
    tab.run(TableState.sit)


def test_a_name_with_nothing_visible_is_refused_with_a_message(svc):
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    tab = _Tab(svc, code, "\u200b\u200b")  # zero-width spaces: no visible character
    _sit(tab)
    assert tab.message == "err.bad_name" and tab.message_serial == 1
    assert len(svc.snapshot(code, None).seats) == 1  # nobody sat
    tab.set(join_name="Bia")  # a good name: seated, the old refusal is gone
    _sit(tab)
    assert tab.message == "" and svc.snapshot(code, None).seats[-1].name == "Bia"


def test_a_blank_name_is_refused_like_at_criar_mesa(svc):
    """No name typed and none remembered: refused (bad_name), not seated as a made-up "Jogador
    NNN" (in Portuguese even for a Spanish player); a remembered name still sits at once."""
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    tab = _Tab(svc, code, "   ")
    _sit(tab)
    assert tab.message == "err.bad_name" and tab.me == ""
    assert [x.name for x in svc.snapshot(code, None).seats] == ["Ana"]
    tab.session().name = "Bia"  # a returning browser that remembers its name
    _sit(tab)
    assert tab.message == "" and [x.name for x in svc.snapshot(code, None).seats] == ["Ana", "Bia"]


def test_no_seat_left_when_the_form_was_shown_is_said(svc):
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Carmen", "Tito", "Luna"])  # filled after the newcomer saw the form
    tab = _Tab(svc, code, "Bia")
    _sit(tab)
    assert tab.message == "err.no_seat"
    assert tab.me  # an identity anyway: the newcomer watches
    assert svc.snapshot(code, None).seats[-1].name == "Luna"


def test_refusal_messages_are_translated():
    for key in ("err.no_seat", "err.bad_name"):
        pt, es = i18n.text("pt", key), i18n.text("es", key)
        assert pt != key and es != key and pt != es


def test_the_waiting_room_shows_the_refusal_callout():
    from pifecacheta.pages.table import waiting_room

    page = str(waiting_room())
    assert 'id:"message"' in page and 'role:"alert"' in page
