"""Three leftovers checked in a real browser (seed 000 lines 46 and 72):

- a refused SENTAR À MESA (a name with nothing visible) says why in the waiting room, in pt and es;
- a table never started expires after 7 days without activity and its link says so (not "not found");
- SAIR DA MESA: a player who is FORA in Cacheta leaves after a confirmation, the seat shows
  "Saiu" and the others' match goes on.

AppHarness runs the backend in this process, so the tests reach the app's own ``TableService``
(as test_match_life.py does): the table's activity is moved 6.9 days back and the sweep runs
with its clock 0.2 days ahead (7 days in all), and to reach FORA
quickly the rounds before it are played through the service with each player's own identity
(the id + secret their browser keeps), the same checked path as their clicks.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest
from _flows import (
    create_table,
    fast_bots,
    in_process_service,
    shots,
    simple_turn,
)
from _fora import ana_out_of_lives
from _replay import wait_my_turn
from playwright.sync_api import expect

ZERO_WIDTH = "\u200b\u200b"  # typed, but nothing visible: the service refuses the name


def _service():
    svc = in_process_service()
    if svc is None:
        pytest.skip("the app's service is not in this process")
    return svc


def test_refused_sit_says_why_in_the_waiting_room(app_harness, new_page, shot):
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    for locale, sit, text in (
        ("pt-BR", "SENTAR À MESA", "Escolha um nome de 1 a 24 letras."),
        ("es-AR", "SENTARSE A LA MESA", "Elige un nombre de 1 a 24 letras."),
    ):
        b = new_page(width=390, height=844, locale=locale)
        b.goto(a.url)
        b.locator("#join-name").fill(ZERO_WIDTH)
        b.get_by_role("button", name=sit).click()
        expect(b.locator("#message")).to_have_text(text)
        expect(b.locator("#join-name")).to_be_visible()  # still in the waiting room, not seated
        expect(a.locator(".lobby-seat").filter(has_text="Ana")).to_have_count(1)
        shot(b, f"sit_refused_390_{locale[:2]}")
    # a good name then sits, and the refusal goes away at once
    b.locator("#join-name").fill("Bia")
    b.get_by_role("button", name="SENTARSE A LA MESA").click()
    expect(a.locator(".lobby-seat").filter(has_text="Bia")).to_be_visible()
    expect(b.locator("#message")).to_have_count(0)
    expect(b.locator("#join-name")).to_have_count(0)


def _age_lobby(code: str, days: float) -> None:
    """Move the table's activity back ``days`` (its move clock and its action-log times), as if
    nobody had come by for that long."""
    import sqlalchemy as sa

    from pifecacheta.models import ActionLog, GameTable

    back = timedelta(days=days)
    engine = sa.create_engine(os.environ["PIFECACHETA_DB_URL"])
    try:
        with engine.begin() as conn:
            tid, last = conn.execute(
                sa.select(GameTable.id, GameTable.last_move_at).where(GameTable.code == code)
            ).one()
            conn.execute(sa.update(GameTable).where(GameTable.id == tid).values(last_move_at=last - back))
            for rid, at in conn.execute(
                sa.select(ActionLog.id, ActionLog.at).where(ActionLog.table_id == tid)
            ):
                conn.execute(sa.update(ActionLog).where(ActionLog.id == rid).values(at=at - back))
    finally:
        engine.dispose()


def test_lobby_table_expires_after_seven_days(app_harness, new_page, code_of, shot):
    svc = _service()
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "cacheta10")
    code = code_of(a)
    expect(a.get_by_role("button", name="COMEÇAR")).to_be_visible()
    # 6.9 days back in the database, the rest on the sweep's clock: the app's own sweeper (the
    # same sweep every 60 s, real clock) never sees 7 days, so it cannot expire the table between
    # an aging and this sweep and leave this one nothing to report
    _age_lobby(code, 6.9)
    assert code not in svc.sweep()
    assert code in svc.sweep(now=datetime.now(UTC) + timedelta(days=0.2))
    # the open tab is told at once (the sweep notifies the table like any change)
    expect(a.locator("#table-expired")).to_have_text(
        "Esta mesa ficou 7 dias sem nenhuma jogada e expirou antes de a partida começar."
    )
    expect(a.get_by_role("button", name="COMEÇAR")).to_have_count(0)
    expect(a.locator("#add-bots")).to_have_count(0)
    expect(a.locator(".lobby-seat").filter(has_text="Ana")).to_be_visible()
    # whoever opens the link later sees it expired (in their language), not "não existe"
    b = new_page(width=390, height=844, locale="es-AR")
    b.goto(a.url)
    expect(b.locator("#table-expired")).to_contain_text("expiró antes de que empezara la partida")
    expect(b.locator("#join-name")).to_have_count(0)
    expect(b.get_by_text("no existe")).to_have_count(0)
    shot(b, "lobby_expired_390_es")
    b.get_by_role("link", name="NUEVA MESA").click()
    expect(b.get_by_role("button", name="CREAR MESA")).to_be_visible()


def test_fora_player_leaves_the_table_and_the_others_play_on(app_harness, new_page, shot):
    """Seed 000 line 72: "Quem já está FORA na Cacheta pode tocar em SAIR DA MESA sem encerrar a
    partida dos outros"."""
    svc = _service()
    a, b = new_page(), new_page()
    code, url = ana_out_of_lives(svc, app_harness.frontend_url, a, b)
    for p in (a, b):
        p.goto(url)
        expect(p.locator("#round-title")).to_have_text("FIM DA RODADA")
        expect(p.locator("#lives .lives-row").filter(has_text="Ana")).to_contain_text("FORA")
    b.get_by_role("button", name="PRÓXIMA RODADA").click()
    # the next round goes on without Ana: she watches, and may leave the table
    expect(a.locator("#status-line")).to_have_text("Você está FORA: acompanhe a partida.")
    expect(a.locator("#hand")).to_have_count(0)
    leave = a.get_by_role("button", name="SAIR DA MESA")
    leave.click()
    dialog = a.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Sair da mesa?")
    expect(dialog).to_contain_text("a partida continua para os outros")
    shots(a, shot, "leave_table_confirm")
    a.locator("#confirm-leave-table-cancel").click()  # cancelling changes nothing
    expect(dialog).to_have_count(0)
    expect(a.locator('.seat[data-seat="0"]')).not_to_contain_text("Saiu")
    leave.click()
    a.locator("#confirm-leave-table-ok").click()
    expect(dialog).to_have_count(0)
    for p in (a, b):
        expect(p.locator('.seat[data-seat="0"]')).to_contain_text("Saiu")
        expect(p.locator("#round-title")).to_have_count(0)  # no end of match
    expect(a.get_by_role("button", name="SAIR DA MESA")).to_have_count(0)
    expect(a.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    expect(a.locator("#chat input")).to_have_count(0)  # a seat that left no longer writes
    # Ana's own last logged act is the leave (the bots' first moves of the round, one per tick
    # of the app's sweeper, may still be landing in the log after it on a loaded machine)
    assert [e for e in svc.action_log(code) if e["seat"] == 0][-1]["action"] == {"type": "leave_table"}
    # the others play on: Bruno's turn comes round (the bots move) and he plays it
    with fast_bots():
        wait_my_turn(b)
        simple_turn(b)
    snap = svc.snapshot(code, None)
    assert snap.status == "playing" and snap.view.outcome is None
    assert [s.left for s in snap.seats] == [True, False, False, False]
    shots(a, shot, "leave_table_after")
