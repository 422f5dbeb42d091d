"""House rules and Dicas in the browser: chosen in the lobby's folded section, shown to all in
the waiting room and at the table, and a go-out that only a house rule allows (seed 000
"Variações", lines 36 and 39-43; seed 002 the same lines in Spanish).

The planned game (``_planner.greedy_game`` with four wilds, seed 3) is played through the
app's own service except for the moves the test looks at, which go through the pages.
Screenshots go to ``screenshots/house_rules/`` beside the other browser shots.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import replace
from pathlib import Path

import pytest
from _flows import SIZES, browser_identity, in_process_service, join_table
from _frames import Recorder, parse_frame
from _planner import greedy_game
from _replay import act, hand, play_moves
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, Discard, Draw, GoOut, TakeDiscard, apply, new_match, player_view
from pifecacheta.rules.melds import wild_faces
from pifecacheta.rules.solver import best_go_out
from pifecacheta.state.hints import hints_for

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "house_rules"  # beside the other browser shots
SAME_COLOUR = replace(CACHETA_7, wild_same_colour=True)
SEED = 3


def _shots(page: Page, name: str) -> None:
    """``SHOTS/<name>_390.png`` and ``<name>_1366.png`` (the full page); restores the viewport."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(200)  # the layout settles at the new width (no state to wait on)
        page.screenshot(path=str(SHOTS / f"{name}_{w}.png"), full_page=True)
    page.set_viewport_size(size)


def _open_house_rules(page: Page) -> None:
    """Open the folded "Regras da casa" from the keyboard (Enter on its summary)."""
    summary = page.locator("#house-summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#house-rules")).to_have_attribute("open", "")


def _create(page: Page, url: str, rules: tuple[str, ...], *, hints: bool) -> None:
    """Ana, Cacheta 7, the named house rules ticked from the keyboard, Dicas, CRIAR MESA."""
    page.goto(url)
    page.locator("#name-input").fill("Ana")
    page.locator("#mode-cacheta7").click()
    _open_house_rules(page)
    for label in rules:
        box = page.get_by_role("checkbox", name=label, exact=True)
        box.focus()
        page.keyboard.press("Space")
        expect(box).to_have_attribute("aria-checked", "true")
    if hints:
        page.get_by_role("checkbox", name="Dicas para quem está começando").click()
    page.get_by_role("button", name="CRIAR MESA").click()
    page.wait_for_url("**/mesa/**")


def test_lobby_section_and_waiting_room(app_harness, new_page):
    url = app_harness.frontend_url
    a = new_page()
    a.goto(url)
    expect(a.locator("#house-set_may_repeat_suit")).not_to_be_visible()  # folded at first
    _open_house_rules(a)
    options = a.locator("#house-rules .house-option")
    expect(options).to_have_count(5)  # Cacheta: all five
    for box in options.locator("button[role=checkbox]").all():
        expect(box).to_have_attribute("aria-checked", "false")  # all off
    a.locator("#mode-pife").click()
    expect(options).to_have_count(3)  # Pife has no wild: no wild rules
    expect(a.locator("#house-wild_same_colour")).to_have_count(0)
    box = a.get_by_role("checkbox", name="Trinca com naipe repetido")
    expect(box).to_have_accessible_description(
        "A trinca cresce com um naipe que já está nela, com pelo menos três naipes diferentes."
    )
    a.locator("#mode-cacheta7").click()
    expect(options).to_have_count(5)
    a.get_by_role("checkbox", name="Coringa da mesma cor").click()
    expect(a.locator("#house-summary")).to_contain_text("(1)")
    _shots(a, "lobby_pt")
    es = new_page(locale="es-AR")
    es.goto(url)
    _open_house_rules(es)
    expect(es.locator("#house-summary")).to_contain_text("Reglas de la casa")
    es.get_by_role("checkbox", name="Trío sin comodín").click()
    es.get_by_role("checkbox", name="Consejos para quien empieza").click()
    _shots(es, "lobby_es")

    os.environ["PIFECACHETA_FIXED_SEED"] = str(SEED)
    _create(a, url, ("Trinca com naipe repetido",), hints=True)  # adds to Coringa da mesma cor
    room = a.locator("#table-house-rules")
    expect(room).to_contain_text("Regras desta mesa")
    expect(room.locator(".house-name")).to_have_text(["Trinca com naipe repetido", "Coringa da mesma cor"])
    expect(room).to_contain_text("Dicas ligadas")
    # the invite link, opened by someone not seated yet, says the same in their language
    b = new_page(width=390, height=844, locale="es-AR")
    b.goto(a.url)
    expect(b.locator("#table-house-rules .house-name")).to_have_text(
        ["Trío con palo repetido", "Comodín del mismo color"]
    )
    expect(b.locator("#table-house-rules")).to_contain_text("Consejos activados")
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    _shots(a, "waiting_room_pt")
    _shots(b, "waiting_room_es")
    # the rules page opened from the table lists the table's house rules first
    href = b.locator(".rules-link").get_attribute("href")
    assert href is not None and href.startswith("/regras?mesa=")
    b.goto(url.rstrip("/") + href)
    here = b.locator("#rules-this-table")
    expect(here.locator(".house-name")).to_have_text(["Trío con palo repetido", "Comodín del mismo color"])
    expect(here).to_contain_text("Consejos activados")
    b.goto(url.rstrip("/") + "/regras?mesa=no-such-table")
    expect(b.locator("#rules-title")).to_be_visible()
    expect(b.locator("#rules-this-table")).to_have_count(0)


def _hints_received(rec: Recorder) -> list[dict]:
    """Every ``hints`` object (a ``HintsUi``) in the frames a page received."""
    found: list[dict] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            h = node.get("hints")
            if isinstance(h, dict) and "melded" in h:
                found.append(h)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for frame in rec.frames:
        walk(parse_frame(frame))
    return found


def _own_hints(log, seat: int) -> list[dict]:
    """The hints ``seat`` may be shown at any point of the planned round, each computed from
    that seat's own view alone (the empty one included)."""
    m = new_match(SAME_COLOUR, 2, seed=SEED)
    out = [dataclasses.asdict(hints_for(player_view(m, seat)))]
    for s, action in log:
        m = apply(m, s, action)
        out.append(dataclasses.asdict(hints_for(player_view(m, seat))))
    return [*out, dataclasses.asdict(type(hints_for(player_view(m, seat)))())]


def _plan():
    """The planned game and the check that its last go-out needs the four wilds."""
    _final, log = greedy_game(SAME_COLOUR, 2, SEED)
    m = new_match(SAME_COLOUR, 2, seed=SEED)
    for seat, action in log[:-1]:
        m = apply(m, seat, action)
    seat, last = log[-1]
    assert seat == 0 and isinstance(last, GoOut) and len(log) == 20
    view = player_view(m, 0)
    two_wilds = wild_faces(m.round.vira, CACHETA_7)
    assert best_go_out(view.hand, wilds=two_wilds, plain=view.plain, rules=CACHETA_7) is None
    assert best_go_out(view.hand, wilds=view.wilds, plain=view.plain, rules=SAME_COLOUR) is not None
    return log


def same_colour_with_dicas(new_page, app_harness, *, a_size=(1366, 900), watch=None):
    """Ana (pt, ``a_size``) creates the Cacheta 7 table dealt with ``SEED``, Coringa da mesma cor
    and Dicas ticked; Bruno (es, phone) joins; Ana starts the match. ``watch(seat, page)`` is
    called on each new page before it opens anything. Skips the test when the app's service
    runs in another process. Returns ``(svc, ana_page, bruno_page, code, who)``, ``who`` the
    identities by seat."""
    svc = in_process_service()
    if svc is None:
        pytest.skip("the app's service runs in another process")
    os.environ["PIFECACHETA_FIXED_SEED"] = str(SEED)
    a = new_page(width=a_size[0], height=a_size[1])
    if watch is not None:
        watch(0, a)
    _create(a, app_harness.frontend_url, ("Coringa da mesma cor",), hints=True)
    b = new_page(width=390, height=844, locale="es-AR")
    if watch is not None:
        watch(1, b)
    join_table(b, a.url, "Bruno", "es")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    return svc, a, b, code, who


def test_a_go_out_only_the_house_rule_allows_with_dicas(app_harness, new_page):
    log = _plan()
    frames: dict[int, Recorder] = {}
    svc, a, b, code, who = same_colour_with_dicas(
        new_page, app_harness, watch=lambda seat, page: frames.__setitem__(seat, Recorder(page))
    )
    expect(a.locator("#house-line")).to_contain_text("Coringa da mesma cor")
    expect(a.locator("#house-line")).to_contain_text("Dicas ligadas")
    expect(b.locator("#house-line")).to_contain_text("Comodín del mismo color")
    # four wilds: the centre shows the wild of both suits of the vira's colour
    expect(a.get_by_test_id("wild").locator("[data-card]")).to_have_attribute("data-card", "2S")
    expect(a.get_by_test_id("wild-other").locator("[data-card]")).to_have_attribute("data-card", "2C")
    play_moves(svc, code, who, log[:15])
    # Ana's planned discard, 5D, is in one of her melds: the table asks first
    seat, planned = log[15]
    assert seat == 0 and isinstance(planned, Discard) and str(planned.card) == "5D"
    expect(hand(a)).to_have_count(10)
    a.locator('[id="card-5D"]').dblclick()
    ask = a.locator("#hint-confirm")
    expect(ask).to_contain_text("5 de ouros está num jogo seu")
    keep = a.get_by_role("button", name="MANTER")
    keep.focus()
    a.keyboard.press("Enter")  # MANTER: nothing is sent
    expect(ask).to_have_count(0)
    expect(hand(a)).to_have_count(10)
    a.locator('[id="card-5D"]').dblclick()
    expect(ask).to_be_visible()
    _shots(a, "table_confirm_pt")
    anyway = a.get_by_role("button", name="DESCARTAR MESMO ASSIM")
    anyway.focus()
    a.keyboard.press("Enter")
    expect(hand(a)).to_have_count(9)
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", "5D")

    # Bruno to draw, one card away: "esperas:" and the faces from his own view
    wanted = [c.code for c in hints_for(svc.snapshot(code, who[1]).view).wait]
    assert wanted == ["2C", "6C", "10D", "KD", "2S"]
    waits = b.locator("#hint-wait .hint-wait-card")
    expect(waits).to_have_count(len(wanted))
    assert [w.get_attribute("data-card") for w in waits.all()] == wanted
    expect(b.locator("#hint-wait")).to_contain_text("esperas:")
    expect(waits.first).to_have_attribute("aria-label", "2 de tréboles")
    _shots(b, "table_hints_es")
    play_moves(svc, code, who, log[16:18])

    # Ana to draw: her espera, then the go-out the four wilds allow
    wanted = [c.code for c in hints_for(svc.snapshot(code, who[0]).view).wait]
    waits = a.locator("#hint-wait .hint-wait-card")
    expect(waits).to_have_count(len(wanted))
    expect(a.locator("#hint-wait")).to_contain_text("espera:")
    expect(a.locator("#hint-tip")).to_be_visible()
    _shots(a, "table_hints_pt")
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(a)).to_have_count(10)
    go_out = a.get_by_role("button", name="BATER", exact=True)
    expect(go_out).to_be_enabled()
    go_out.click()
    expect(a.locator("#round-title")).to_be_visible()
    result = svc.snapshot(code, who[0]).view.result
    assert result is not None and result.winner == 0
    expect(b.locator("#round-title")).to_be_visible()
    # frame level: every hint a browser received is one computed from its own seat's view
    for seat in (0, 1):
        got = _hints_received(frames[seat])
        assert any(h["wait"] for h in got), seat
        # Ana's discard question went through her page; Bruno's moves are made through the
        # service, draw and discard back to back, so his page may never hold the state between
        if seat == 0:
            assert any(h["melded"] for h in got)
        own = _own_hints(log, seat)
        assert all(h in own for h in got), (seat, [h for h in got if h not in own][:1])


def test_pegar_do_lixo_is_enabled_only_for_a_go_out_under_the_pile_rule(app_harness, new_page):
    """ "Lixo só para bater" (seed 000 line 38): PEGAR DO LIXO is enabled only when the top card
    lets the player go out (``PlayerView.can_take``), as the engine accepts it; COMPRAR stays."""
    svc = in_process_service()
    if svc is None:
        pytest.skip("the app's service runs in another process")
    os.environ["PIFECACHETA_FIXED_SEED"] = str(SEED)
    a = new_page(width=390, height=844)
    _create(a, app_harness.frontend_url, ("Lixo só para bater",), hints=False)
    b = new_page(width=390, height=844, locale="es-AR")
    join_table(b, a.url, "Bruno", "es")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # the round's first turn: the lixo is empty, so the hint names only the stock
    expect(b.get_by_role("button", name="TOMAR DEL POZO", exact=True)).to_be_disabled()
    expect(b.locator("#status-line")).to_have_text(
        "Tu turno: haz clic en ROBAR (o en el mazo).", use_inner_text=True
    )
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    act(svc, code, who[1], Draw())  # Bruno plays first: he draws and discards his first card
    act(svc, code, who[1], Discard(svc.snapshot(code, who[1]).view.hand[0]))
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_count(1)
    with pytest.raises(ValueError) as refused:  # this deal: Ana cannot go out with that card
        act(svc, code, who[0], TakeDiscard())
    assert getattr(refused.value, "code", "") == "discard_only_to_go_out"  # refused: nothing changed
    expect(a.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    expect(a.get_by_role("button", name="PEGAR DO LIXO", exact=True)).to_be_disabled()
    status = a.locator("#status-line")
    expect(status).to_have_text("Sua vez: clique em COMPRAR (ou no monte).", use_inner_text=True)
    _shots(a, "table_pile_only_to_go_out_pt")
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(a)).to_have_count(10)
