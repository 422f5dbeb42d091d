"""MINHAS MESAS, joining on purpose and the rules page, in two or three browsers.

- a player who closes every tab finds the table in MINHAS MESAS (SUA VEZ first) and plays on;
  the other player's lobby tab sees the list change live (seed 000 line 72);
- an invite link never seats anyone without SENTAR À MESA, even a browser that has a name;
  a seated player gets up, the creator removes a seat and adds one bot (seed 000 lines 46, 70);
- the rules page in pt and es, linked from the lobby, the waiting room and the pause menu.
"""

from __future__ import annotations

import re

from _flows import browser_identity, create_table, join_table, start_two
from _frames import ALL_FACES, Recorder, scan_frames
from _replay import hand
from playwright.sync_api import expect


def _seats(code: str) -> list[str]:
    """The seat names as the app's own service has them (AppHarness runs it in this process)."""
    from pifecacheta.service import get_service

    return [s.name for s in get_service().snapshot(code, None).seats]


def test_closed_tabs_then_my_tables_leads_back_to_the_table(app_harness, new_page, code_of, shots_all):
    a, b = start_two(new_page, app_harness, "pife", 12345)
    code = code_of(a)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(b)).to_have_count(9)
    # Bruno closes his only tab; later he opens the site again in the same browser
    ctx = b.context
    b.close()
    b2 = ctx.new_page()
    b2.goto(app_harness.frontend_url)
    row = b2.locator(".my-table").first
    expect(row).to_have_attribute("href", f"/mesa/{code}")
    expect(row).to_contain_text("SUA VEZ")
    expect(b2).to_have_title("● Sua vez (1) · Pife ou Cacheta")  # the home tab says it too
    expect(row).to_contain_text("Ana, Bruno")
    expect(row).to_contain_text("Pife")
    expect(row).to_contain_text(re.compile(r"agora mesmo|há \d+ segundos"))
    # Ana keeps the table open in one tab and the lobby in another: there it is Bruno's turn
    lobby_a = a.context.new_page()
    frames = Recorder(lobby_a)  # the lobby shows no card at all: no frame may carry one
    lobby_a.goto(app_harness.frontend_url)
    a_row = lobby_a.locator(f'.my-table[href="/mesa/{code}"]')
    expect(a_row).to_contain_text("Vez de Bruno")
    expect(lobby_a).to_have_title("Pife ou Cacheta")  # nothing for Ana to do
    shots_all(lobby_a, "my_tables")
    # Bruno goes back through the list and plays his turn
    row.click()
    b2.wait_for_url(f"**/mesa/{code}")
    expect(hand(b2)).to_have_count(9)
    # the link is gone with the lobby: the focus is on the table's title, not lost on the body
    expect(b2.get_by_role("heading", level=1)).to_be_focused()
    b2.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b2)).to_have_count(10)
    first = hand(b2).first.get_attribute("id")
    b2.locator(f'[id="{first}"]').dblclick()
    expect(b2.get_by_test_id("discard").locator("[data-card]")).to_have_count(1)
    # Ana's lobby tab follows without a reload: her move now (or the round is over)
    expect(a_row).to_contain_text(re.compile("SUA VEZ"))
    expect(lobby_a).to_have_title("● Sua vez (1) · Pife ou Cacheta")
    expect(lobby_a.locator(".my-table").first).to_have_attribute("href", f"/mesa/{code}")
    shots_all(lobby_a, "my_tables_your_turn")
    assert any(code in f for f in frames.frames)  # the list itself came through these frames
    assert scan_frames(frames.frames, ALL_FACES) == []


def test_finished_tables_fold_under_older_after_seven_days(app_harness, new_page, code_of, shots_all):
    a = new_page(width=390, height=844)
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    code = code_of(a)
    a.get_by_role("button", name="COMPLETAR COM ROBÔS").click()
    expect(a.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    a.get_by_role("button", name="DESISTIR").click()
    a.locator("#confirm-resign").get_by_role("button", name="DESISTIR").click()
    expect(a.locator("#round-title")).to_be_visible()  # the resignation is saved: age it after
    _age_table(code, days=8)
    a.goto(app_harness.frontend_url)
    older = a.get_by_role("button", name=re.compile("Mais antigas"))
    expect(older).to_have_text(re.compile(r"Mais antigas \(1\)"))
    expect(older).to_have_attribute("aria-expanded", "false")
    expect(a.locator(f'.my-table[href="/mesa/{code}"]')).to_have_count(0)
    older.click()
    row = a.locator(f'.my-table[href="/mesa/{code}"]')
    expect(row).to_contain_text("Terminada")
    expect(row).to_contain_text("há 1 semana")  # Babel rounds 8 days to a week
    expect(older).to_have_attribute("aria-expanded", "true")
    shots_all(a, "my_tables_older")


def _age_table(code: str, days: float) -> None:
    """Move the table's last move back ``days`` in the app's database."""
    import os
    from datetime import timedelta

    import sqlalchemy as sa

    from pifecacheta.models import GameTable

    engine = sa.create_engine(os.environ["PIFECACHETA_DB_URL"])
    try:
        with engine.begin() as conn:
            last = conn.execute(sa.select(GameTable.last_move_at).where(GameTable.code == code)).scalar_one()
            conn.execute(
                sa.update(GameTable)
                .where(GameTable.code == code)
                .values(last_move_at=last - timedelta(days=days))
            )
    finally:
        engine.dispose()


def test_joining_needs_the_press(app_harness, new_page, code_of, shots_all):
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    code = code_of(a)
    # Bruno already has a name in this browser (he made a table of his own), then opens Ana's link
    b = new_page(width=390, height=844, locale="es-AR")
    b.goto(app_harness.frontend_url)
    b.locator("#name-input").fill("Bruno")
    b.get_by_role("button", name="CREAR MESA").click()
    b.wait_for_url("**/mesa/**")
    b.goto(a.url)
    expect(b.get_by_role("button", name="SENTARSE A LA MESA")).to_be_visible()
    expect(b.locator("#join-name")).to_have_value("Bruno")
    expect(b.locator("#table-rules")).to_contain_text("Cacheta")
    expect(b.locator("#table-rules")).to_contain_text("7 vidas")
    expect(b.locator(".lobby-seat").filter(has_text="Ana")).to_be_visible()
    assert _seats(code) == ["Ana"]  # looked at, not seated
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_have_count(0)
    shots_all(b, "invite")
    b.get_by_role("button", name="SENTARSE A LA MESA").click()
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    assert _seats(code) == ["Ana", "Bruno"]
    expect(b.get_by_role("button", name="LEVANTARSE")).to_be_visible()
    shots_all(b, "waiting_room_seated")
    # he gets up again: the form is back, Ana sees the free seat
    b.get_by_role("button", name="LEVANTARSE").click()
    expect(b.get_by_role("button", name="SENTARSE A LA MESA")).to_be_visible()
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_have_count(0)
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    # the creator: one bot, then remove it, then remove Bruno; COMPLETAR fills every free seat
    a.get_by_role("button", name="Pôr um robô num lugar livre").click()
    expect(a.locator(".lobby-seat").filter(has_text="Carmen")).to_be_visible()
    expect(a.locator(".lobby-seat").filter(has_text="Tito")).to_have_count(0)
    assert _seats(code) == ["Ana", "Bruno", "Carmen"]
    shots_all(a, "waiting_room_creator")
    a.get_by_role("button", name="Tirar Carmen da mesa").click()
    expect(a.locator(".lobby-seat").filter(has_text="Carmen")).to_have_count(0)
    a.get_by_role("button", name="Tirar Bruno da mesa").click()
    expect(b.get_by_role("button", name="SENTARSE A LA MESA")).to_be_visible()
    assert _seats(code) == ["Ana"]
    expect(a.get_by_role("button", name="Tirar Ana da mesa")).to_have_count(0)  # the creator stays
    a.get_by_role("button", name="COMPLETAR COM ROBÔS").click()
    expect(a.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
    assert _seats(code) == ["Ana", "Carmen", "Tito", "Luna"]
    expect(b.get_by_role("button", name="SENTARSE A LA MESA")).to_have_count(0)  # full: she watches


def test_rules_page_in_both_languages(app_harness, new_page, shots_all):
    pt = new_page()
    pt.goto(app_harness.frontend_url)
    pt.locator("#rules-link").click()
    pt.wait_for_url("**/regras")
    expect(pt.locator("#rules-title")).to_have_text("Regras do Pife e da Cacheta")
    expect(pt.locator("#rules-title")).to_be_focused()  # the new page's title (WCAG 2.4.3)
    expect(pt.locator("#rules-melds")).to_contain_text("Trincas e sequências")
    for caption, cards in (
        ("Trinca: três setes de naipes diferentes", ["7C", "7H", "7S"]),
        ("Ás antes do 2: A, 2, 3", ["AH", "2H", "3H"]),
        ("Ás depois do rei: Q, K, A", ["QS", "KS", "AS"]),
    ):
        group = pt.get_by_role("group", name=caption)
        expect(group.locator("[data-card]")).to_have_count(len(cards))
        assert group.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)") == cards
    expect(pt.get_by_role("img", name="7 de copas").first).to_be_visible()
    expect(pt.locator("#rules-naboa")).to_contain_text("NA BOA")
    shots_all(pt, "rules")
    es = new_page(width=390, height=844, locale="es-AR")
    es.goto(app_harness.frontend_url.rstrip("/") + "/reglas")
    expect(es.locator("#rules-title")).to_have_text("Reglas del Pife y de la Cacheta")
    expect(es.locator("#rules-naboa")).to_contain_text("ME FALTA UNA")
    expect(es.get_by_role("group", name="Trío: tres sietes de palos distintos")).to_be_visible()
    es.locator("#rules-back").click()
    expect(es.get_by_role("button", name="CREAR MESA")).to_be_visible()
    expect(es.get_by_role("heading", name="Crear una mesa")).to_be_focused()


def test_rules_from_the_waiting_room_and_the_pause_menu(app_harness, new_page, shot):
    a, b = start_two(new_page, app_harness, "pife", 12345)
    expect(a.locator("#table-rules")).to_have_text(
        "Esta mesa: Pife, sem coringa; a primeira batida vence a partida."
    )
    link = a.locator(".rules-link")
    expect(link).to_have_attribute("href", re.compile(r"^/regras\?mesa=[\w-]+$"))  # with its house rules
    expect(link).to_have_attribute("target", "_blank")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    a.locator("#pause-button").click()
    menu = a.locator("#pause-menu")
    expect(menu.locator("#table-rules")).to_contain_text("Pife, sem coringa")
    expect(menu).to_contain_text("Minhas mesas")
    expect(menu.locator(".rules-link")).to_have_attribute("href", re.compile(r"^/regras\?mesa=[\w-]+$"))
    for lang in ("pt", "es"):  # the open dialog covers the language switch: close, switch, reopen
        a.get_by_role("button", name="CONTINUAR").click()  # the same word in pt and es
        a.locator(f"#lang-{lang}").click()
        a.locator("#pause-button").click()
        expect(menu.locator("#table-rules")).to_contain_text("Pife, s")
        for w, h in ((390, 844), (1366, 900)):
            a.set_viewport_size({"width": w, "height": h})
            a.wait_for_timeout(150)
            shot(a, f"pause_menu_{w}_{lang}")


def test_a_double_click_on_criar_mesa_creates_one_table(app_harness, new_page):
    """Two presses of CRIAR MESA before the page leaves the lobby create ONE table: the second
    opens the table the first created (MINHAS MESAS would list a table nobody meant)."""
    from pifecacheta.service import get_service

    a = new_page()
    a.goto(app_harness.frontend_url)
    a.locator("#name-input").fill("Ana")
    a.get_by_role("button", name="CRIAR MESA").dblclick()
    a.wait_for_url("**/mesa/**")
    # a later event of the same tab: the tab's events run in order, so once the bots are seen
    # the second press has been answered
    a.locator("#add-bots").click()
    expect(a.locator(".lobby-seat").filter(has_text="Tito")).to_be_visible()
    mine = get_service().my_tables(browser_identity(a, "Ana"))
    assert [t.code for t in mine] == [a.url.rstrip("/").rsplit("/", 1)[-1]], mine


def test_the_lobby_keeps_the_last_game_house_rules_and_dicas(app_harness, new_page):
    """The create form shows again what this browser chose last (the game, a house rule, Dicas)
    after a reload and after a table, so a returning player need not choose it anew; a stored
    value the app cannot read leaves the form as a newcomer's."""
    from pifecacheta.service import get_service

    a = new_page()
    a.goto(app_harness.frontend_url)
    a.locator("#name-input").fill("Ana")
    expect(a.locator("#mode-cacheta7")).to_have_attribute("data-state", "checked")  # the default
    a.locator("#mode-pife").click()
    a.locator("#house-summary").click()
    a.locator("#house-set_may_repeat_suit").click()
    a.locator("#house-hints").click()
    expect(a.locator("#house-summary")).to_contain_text("(1)")
    expect(a.locator("#house-hints")).to_have_attribute("data-state", "checked")
    _wait_stored_choice(a, "pife", hints=True)  # the reload must find what the server stored
    a.reload()
    expect(a.locator("#mode-pife")).to_have_attribute("data-state", "checked")
    expect(a.locator("#house-summary")).to_contain_text("(1)")
    expect(a.locator("#house-hints")).to_have_attribute("data-state", "checked")
    a.get_by_role("button", name="CRIAR MESA").click()
    a.wait_for_url("**/mesa/**")
    snap = get_service().snapshot(a.url.rstrip("/").rsplit("/", 1)[-1], None)
    assert snap.rules.mode.name == "PIFE" and snap.rules.set_may_repeat_suit and snap.hints
    a.goto(app_harness.frontend_url)
    expect(a.locator("#mode-pife")).to_have_attribute("data-state", "checked")
    a.locator("#mode-cacheta10").click()  # a new choice replaces the kept one
    _wait_stored_choice(a, "cacheta10", hints=True)
    a.reload()
    expect(a.locator("#mode-cacheta10")).to_have_attribute("data-state", "checked")
    # another browser whose stored choice is not one the app wrote: a newcomer's form, that works
    b = new_page()
    b.context.add_init_script('localStorage.setItem(\'pc_lobby\', \'{"mode": "poker", "house": 7}\')')
    b.goto(app_harness.frontend_url)
    expect(b.locator("#name-input")).to_be_visible()
    expect(b.locator("#mode-cacheta7")).to_have_attribute("data-state", "checked")
    expect(b.locator("#house-summary")).not_to_contain_text("(")
    b.locator("#mode-pife").click()
    expect(b.locator("#mode-pife")).to_have_attribute("data-state", "checked")
    b.wait_for_function("() => (localStorage.getItem('pc_lobby') || '').includes('pife')")


def test_the_house_rules_count_shows_only_the_rules_of_the_chosen_game(app_harness, new_page):
    """A Cacheta-only rule ticked before switching to Pife is hidden there and left out of the
    count ("Regras da casa (1)", not 2); back in Cacheta it is still ticked and counted."""
    a = new_page()
    a.goto(app_harness.frontend_url)
    a.locator("#mode-cacheta7").click()
    a.locator("#house-summary").click()
    a.locator("#house-wild_same_colour").click()
    a.locator("#house-discard_only_to_go_out").click()
    expect(a.locator("#house-summary")).to_contain_text("(2)")
    a.locator("#mode-pife").click()
    expect(a.locator("#house-wild_same_colour")).to_have_count(0)
    expect(a.locator("#house-summary")).to_contain_text("(1)")
    expect(a.locator("#house-discard_only_to_go_out")).to_have_attribute("data-state", "checked")
    a.locator("#mode-cacheta7").click()
    expect(a.locator("#house-wild_same_colour")).to_have_attribute("data-state", "checked")
    expect(a.locator("#house-summary")).to_contain_text("(2)")


def _wait_stored_choice(page, mode: str, *, hints: bool) -> None:
    """Wait until the browser's stored lobby choice (LocalStorage ``pc_lobby``, written when the
    server's answer to the last click arrives) holds ``mode`` and ``hints``: a reload before
    that would find the previous choice."""
    page.wait_for_function(
        """([mode, hints]) => {
            try {
                const c = JSON.parse(localStorage.getItem('pc_lobby') || 'null');
                return c !== null && c.mode === mode && c.hints === hints;
            } catch (e) { return false; }
        }""",
        arg=[mode, hints],
    )
