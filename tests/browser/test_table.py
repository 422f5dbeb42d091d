"""Two players at a table in two browsers: lobby, invite link, live moves, go-out, FIM DA RODADA."""

from __future__ import annotations

import re

from _flows import start_two
from _planner import find_seed
from _replay import BUTTONS, hand, planned_go_out, play, play_log, wait_my_turn
from playwright.sync_api import expect

from pifecacheta.rules import CACHETA_7, PIFE, AnnounceOneAway, Discard, Draw

# test_reconnect.py and test_read_failure.py import it from here


def test_cacheta_round_between_two_browsers(app_harness, new_page, shot, shots_all):
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=14)
    a, b = start_two(new_page, app_harness, "cacheta7", seed, b_size=(390, 844), b_locale="es-AR")
    shot(a, "waiting_room_1366_pt")
    shot(b, "waiting_room_390_es")
    a.get_by_role("button", name="COMEÇAR").click()
    # Seat 0 (Ana, the creator) deals; seat 1 (Bruno) plays first, in Spanish (browser language).
    wait_my_turn(b, "es")
    expect(hand(a)).to_have_count(9)
    expect(hand(b)).to_have_count(9)
    expect(a.get_by_test_id("stock")).to_be_visible()
    expect(a.get_by_test_id("vira")).to_be_visible()
    expect(b.locator("#hand [data-card]").first).to_have_attribute("aria-label", re.compile(" de "))
    # a spectator arriving after the start watches live, with no hand and no buttons
    s = new_page(width=390, height=844)
    s.goto(a.url)
    expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    expect(s.locator("#hand")).to_have_count(0)
    pages, langs = {0: a, 1: b}, {0: "pt", 1: "es"}
    # the final go-out: drag the leftover card onto the pile (GoOut with that discard)
    log = planned_go_out(final, log)
    for i, (seat, action) in enumerate(log):
        page = pages[seat]
        play(page, action, langs[seat], gesture=("drag", "tap", "dblclick")[i % 3])
        if isinstance(action, Discard):
            # the other browser sees the move without reloading
            for other in (pages[1 - seat], s):
                expect(other.get_by_test_id("discard").locator("[data-card]")).to_have_attribute(
                    "data-card", action.card.code
                )
        if i == 5:
            shots_all(a, "table_mid")
    winner = final.round.result.winner
    wname = ("Ana", "Bruno")[winner]
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    expect(s.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(a.locator("#went-out")).to_contain_text(wname)
    n_melded = sum(len(m.cards) for m in final.round.result.plan.melds)
    expect(a.locator("#melds [data-card]")).to_have_count(n_melded)
    expect(a.locator("#lives .lives-row")).to_have_count(2)
    loser_lives = final.lives[1 - winner]
    expect(a.locator("#lives .lives-row").nth(1 - winner)).to_contain_text(str(loser_lives))
    shots_all(a, "round_over")
    shot(b, "round_over_390_es_bruno")
    # PRÓXIMA RODADA: any player; the next round is dealt, both see 9 cards again.
    b.get_by_role("button", name=BUTTONS["es"]["next"]).click()
    expect(hand(a)).to_have_count(9)
    expect(hand(b)).to_have_count(9)
    expect(a.locator("#round-title")).to_have_count(0)
    # reload gives the same view
    a.reload()
    expect(hand(a)).to_have_count(9)


def test_pife_won_with_the_louca(app_harness, new_page, shot):
    seed, final, log = find_seed(PIFE, 2, out_of_turn=True, max_actions=40)
    a, b = start_two(new_page, app_harness, "pife", seed)
    a.get_by_role("button", name="COMEÇAR").click()
    pages = {0: a, 1: b}
    play_log(pages, log[:-1])
    seat, last = log[-1]
    assert isinstance(last, Discard)
    pages[seat].locator(f'[id="card-{last.card}"]').dblclick()
    winner = final.round.result.winner
    wname = ("Ana", "Bruno")[winner]
    for p in (a, b):
        expect(p.locator("#round-title")).to_have_text("FIM DA RODADA")
        expect(p.locator("#banner #went-out")).to_contain_text(f"{wname} bateu com a louca, o descarte de")
    shot(a, "pife_louca_1366_pt")
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    for p in (a, b):
        expect(p.locator("#winner")).to_have_text(f"{wname} venceu a partida!")
    shot(b, "pife_match_over_1366_pt")


def test_cacheta_na_boa_and_jump_the_queue(app_harness, new_page, shot):
    """NA BOA, then the other player's discard makes the announcer go out out of turn."""
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=True, max_actions=40, announce=True)
    a, b = start_two(new_page, app_harness, "cacheta7", seed)
    a.get_by_role("button", name="COMEÇAR").click()
    pages = {0: a, 1: b}
    for seat, action in log:
        play(pages[seat], action)
        if isinstance(action, AnnounceOneAway):
            for p in (a, b):
                expect(p.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("NA BOA")
            shot(a, "na_boa_1366_pt")
    wname = ("Ana", "Bruno")[final.round.result.winner]
    for p in (a, b):
        expect(p.locator("#banner #went-out")).to_contain_text(f"{wname} furou a fila e bateu")
        expect(p.locator("#round-title")).to_have_text("FIM DA RODADA")
        expect(p.locator(".seat").filter(has_text="NA BOA")).to_have_count(0)  # the round is over
    shot(b, "jump_queue_1366_pt")


def test_spectator_refusal_and_language(app_harness, new_page, shot):
    a, b = start_two(new_page, app_harness, "cacheta10", 7)
    a.get_by_role("button", name="COMEÇAR").click()
    # A spectator arriving after the start sees the table but no hand and no action buttons.
    s = new_page(width=390, height=844)
    s.goto(a.url)
    expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    expect(s.get_by_test_id("stock")).to_be_visible()
    expect(s.locator("#hand")).to_have_count(0)
    expect(s.get_by_role("button", name="COMPRAR")).to_have_count(0)
    # the stock and the lixo are pictures to a spectator, controls to a player
    for test_id in ("stock", "discard"):
        expect(s.get_by_test_id(test_id)).to_have_attribute("role", "img")
        expect(s.get_by_test_id(test_id)).to_have_attribute("tabindex", "-1")
        expect(a.get_by_test_id(test_id)).to_have_attribute("role", "button")
        expect(a.get_by_test_id(test_id)).to_have_attribute("tabindex", "0")
    s.get_by_test_id("stock").click()
    expect(s.get_by_role("alert")).to_be_visible()
    expect(b.locator("#hand [data-card]")).to_have_count(9)
    # Chat: players write, everyone reads, the spectator cannot write (seed 000 line 74).
    a.locator("#chat input").fill("Boa sorte!")
    a.get_by_role("button", name="ENVIAR").click()
    for p in (a, b, s):
        expect(p.locator("#chat")).to_contain_text("Ana: Boa sorte!")
    expect(s.locator("#chat input")).to_have_count(0)
    # Bruno draws and discards; Ana takes that card and tries to throw it back: refused.
    play(b, Draw())
    first = b.locator("#hand [data-card]").first
    code = first.get_attribute("data-card")
    first.dblclick()
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", code)
    wait_my_turn(a)
    a.get_by_role("button", name="PEGAR DO LIXO").click()
    expect(hand(a)).to_have_count(10)
    a.locator(f'#hand [data-card="{code}"]').first.dblclick()
    expect(a.get_by_role("alert")).to_have_text(
        "A carta que veio do lixo não pode ser descartada nesta vez, nem a igual do outro baralho."
    )
    expect(hand(a)).to_have_count(10)
    # The two sorts, the one in use pressed: by rank, then back by suit.
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    expect(a.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    a.locator("#sort-rank").click()
    expect(a.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    expect(a.locator("#sort-suit")).to_have_attribute("aria-pressed", "false")
    ranks = [order.index(c[:-1]) for c in hand(a).evaluate_all("els => els.map(e => e.dataset.card)")]
    assert ranks == sorted(ranks)
    a.locator("#sort-suit").click()
    expect(a.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    suits = [c[-1] for c in hand(a).evaluate_all("els => els.map(e => e.dataset.card)")]
    assert suits == sorted(suits, key="CDHS".index)
    # Language switch: ES on every page, remembered after reload.
    a.locator("#lang-es").click()
    expect(a.get_by_role("button", name="CERRAR", exact=True)).to_be_visible()
    a.reload()
    expect(a.get_by_role("button", name="CERRAR", exact=True)).to_be_visible()
    expect(a.locator("#hand [data-card]").first).to_have_attribute("aria-label", re.compile(" de "))
    a.locator("#lang-pt").click()
    expect(a.get_by_role("button", name="BATER", exact=True)).to_be_visible()
    # Deck design: four colours (diamonds blue), remembered; only this viewer's cards change.
    red, blue = "rgb(200, 16, 46)", "rgb(21, 88, 176)"
    for deck, name in (("four", "Quatro cores"), ("large", "Índice grande")):
        a.get_by_role("combobox", name="Baralho").click()
        a.get_by_role("option", name=name).click()
        shot(a, f"deck_{deck}_1366_pt")
    a.get_by_role("combobox", name="Baralho").click()
    a.get_by_role("option", name="Quatro cores").click()
    diamond = a.locator('#hand [data-card$="D"]').first
    if diamond.count():
        expect(diamond).to_have_css("color", blue)
        expect(b.locator('#hand [data-card$="D"]').first).to_have_css("color", red)
