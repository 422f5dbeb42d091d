"""A table that expired in the waiting room (seed 000 line 72: 7 days without any activity) is
shown as expired - its seats and why it closed - not as "not found", and offers nothing to do."""

from __future__ import annotations

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7
from pifecacheta.service import TableService
from pifecacheta.state.view_model import table_ui


def test_expired_lobby_table_is_found_with_its_seats_and_no_actions(db_engine, clock):
    svc = TableService(db_engine, clock=clock, bot_delay=0)
    ana, bia = (svc.identify(None, None, n) for n in ("Ana", "Bia"))
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    clock.advance(days=7)
    assert svc.sweep() == [code]
    for viewer, seat in ((ana, 0), (bia, 1), (None, -1)):
        ui = table_ui(svc.snapshot(code, viewer))
        assert ui.found and ui.status == "expired" and ui.my_seat == seat
        assert [s.name for s in ui.seats if not s.empty] == ["Ana", "Bia"]
        assert not ui.can_start and not ui.can_add_bots and ui.hand_count == 0


def test_the_table_page_has_an_expired_panel_in_both_languages():
    from pifecacheta.pages.table import expired_room, table_page

    page = str(table_page())
    assert '"expired"' in page  # the page branches on the status
    assert 'id:"table-expired"' in str(expired_room())
    for lang in i18n.LANGUAGES:
        assert "7" in i18n.text(lang, "table.expired")
    assert i18n.text("pt", "table.expired") != i18n.text("es", "table.expired")
