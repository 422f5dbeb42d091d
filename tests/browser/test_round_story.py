"""FIM DA RODADA tells the round's story once, and the name box says its limit (issue 11, what
a fresh newcomer still found).

- A queue jump (seed 000 line 29, "furar a fila") is one sentence in FIM DA RODADA, with the
  card jumped on, in pt and es; no big text floats over the panel; the seat that went out says
  "bateu" / "cerró" instead of a card count (its cards are down in melds).
- Pife's round end (seed 000 lines 48, 68): the round's go-out decides the match, so FIM DA
  RODADA says so and that PRÓXIMA RODADA shows the end; "Ana venceu a partida!" is FIM DA
  PARTIDA's line, not a line above a next-round button.
- The name boxes (lobby, waiting room) stop at 24 characters and say so, visibly and to a
  screen reader, in pt and es.

Ana plays in Portuguese at 1366x900, Bruno in Spanish on a 390x844 phone; the planned games
(``_planner.find_seed``) go through the app's own service. Screenshots go to
``screenshots/round-story/``.
"""

from __future__ import annotations

import os
from pathlib import Path

from _flows import service_or_skip
from _planner import find_seed
from _replay import hand, play_planned
from _round_end import two_players
from playwright.sync_api import Page, expect

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7, PIFE

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "round-story"
NAMES = ("Ana", "Bruno")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _uncovered(page: Page, selector: str) -> None:
    """``selector``'s centre, scrolled into view, shows the element itself (nothing over it)."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    covered = target.evaluate(
        """(e) => { const r = e.getBoundingClientRect();
            const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            if (top && (e.contains(top) || top.contains(e))) return "";
            return top ? top.outerHTML.slice(0, 120) : "none"; }"""
    )
    assert covered == "", (selector, covered)


def test_a_queue_jump_is_told_once_and_the_winners_seat_says_it_went_out(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=True, max_actions=40, announce=True)
    a, b, code, who = two_players(new_page, app_harness, "cacheta7", seed)
    play_planned(svc, code, who, final, log)
    res = final.round.result
    winner, discarder = NAMES[res.winner], NAMES[res.discarder]
    key = "round.jump_from_ten" if res.plan.discard is None else "round.jump_from"
    for page, lang, went, told in ((a, "pt", "bateu", "furou a fila"), (b, "es", "cerró", "se coló")):
        expect(page.locator("#round-title")).to_have_text(i18n.text(lang, "round.title"))
        line = i18n.text(lang, key, name=winner).replace("{from}", discarder)
        expect(page.locator("#banner #went-out")).to_have_text(line)
        expect(page.locator("#banner #taken-card [data-card]")).to_have_count(1)
        # told once: one line says who went out and how; no big text floats over the panel
        body = page.locator("#round-over").inner_text()
        assert body.count(told) == 1, body
        assert body.count(went) == 1, body
        expect(page.locator("#jump-announce")).to_have_count(0)
        # the winner's seat: it went out (its cards are down in melds), no card count
        seat = page.locator(f'.seat[data-seat="{res.winner}"]')
        expect(seat.locator(".seat-went-out")).to_have_text(went)
        expect(seat.locator(".seat-cards")).to_have_count(0)
        expect(seat.locator(".seat-spoken")).to_contain_text(f"{winner}")
        expect(seat.locator(".seat-spoken")).to_contain_text(went)
        expect(seat.locator(".seat-spoken")).not_to_contain_text(i18n.text(lang, "table.cards"))
        expect(seat.locator(".fan-back")).to_have_count(0)
        # the other seat still counts its cards, and shows (and says) the lives the round cost
        other = page.locator(f'.seat[data-seat="{1 - res.winner}"]')
        expect(other.locator(".seat-cards")).to_have_count(1)
        lost = res.lives_lost[1 - res.winner]
        expect(other.locator(".seat-lost")).to_have_text(f"−{lost}")
        expect(other.locator(".seat-spoken")).to_contain_text(f"{i18n.text(lang, 'round.lost')} {lost}")
        expect(seat.locator(".seat-lost")).to_have_count(0)
        # nothing covers what a player must read or press
        for part in ("#round-title", "#banner", "#melds", "#lives", "#next-round-button"):
            _uncovered(page, part)
    _shot(a, "jump_round_over_1366_pt")
    b.evaluate("() => window.scrollTo(0, 0)")
    _shot(b, "jump_round_over_390_es")
    # the next round: the seat counts its cards again
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    expect(hand(a)).to_have_count(9)
    expect(a.locator(f'.seat[data-seat="{res.winner}"] .seat-went-out')).to_have_count(0)
    expect(a.locator(".seat-lost")).to_have_count(0)  # a round in play shows no cost
    expect(b.locator(f'.seat[data-seat="{res.winner}"] .seat-cards')).to_contain_text("9")


def test_pife_round_end_says_the_match_is_decided_and_the_end_names_the_winner(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(PIFE, 2, out_of_turn=False, max_actions=40)
    a, b, code, who = two_players(new_page, app_harness, "pife", seed)
    play_planned(svc, code, who, final, log)
    winner = NAMES[final.round.result.winner]
    for page, lang in ((a, "pt"), (b, "es")):
        expect(page.locator("#round-title")).to_have_text(i18n.text(lang, "round.title"))
        expect(page.locator("#went-out")).to_have_text(i18n.text(lang, "round.went_out", name=winner))
        # a round's screen: the go-out decided the match, PRÓXIMA RODADA shows its end
        expect(page.locator("#match-decided")).to_have_text(i18n.text(lang, "round.match_decided"))
        expect(page.locator("#winner")).to_have_count(0)
        expect(page.locator("#next-round-button")).to_have_text(i18n.text(lang, "btn.next_round"))
    b.evaluate("() => window.scrollTo(0, 0)")
    _shot(b, "pife_round_over_390_es")
    b.get_by_role("button", name="SIGUIENTE RONDA").click()
    for page, lang in ((a, "pt"), (b, "es")):
        expect(page.locator("#round-title")).to_have_text(i18n.text(lang, "match.title"))
        expect(page.locator("#winner")).to_have_text(i18n.text(lang, "match.winner", name=winner))
        expect(page.locator("#match-decided")).to_have_count(0)
        # the winner's seat went out in the round the match was won with
        seat = page.locator(f'.seat[data-seat="{final.round.result.winner}"]')
        expect(seat.locator(".seat-went-out")).to_have_text(i18n.text(lang, "seat.went_out"))
    b.evaluate("() => window.scrollTo(0, 0)")
    _shot(b, "pife_match_over_390_es")


def test_the_name_boxes_say_their_limit(app_harness, new_page):
    a = new_page()
    a.goto(app_harness.frontend_url)
    box = a.locator("#name-input")
    expect(box).to_have_attribute("maxlength", "24")
    expect(box).to_have_attribute("aria-describedby", "name-input-limit")
    box.fill("Ana")
    expect(a.locator("#name-input-limit")).to_have_text("Até 24 letras · 3/24")
    expect(a.locator("#name-input-at-limit")).to_have_text("")
    box.fill("")
    box.press_sequentially("x" * 30)  # typed: the box stops at 24
    expect(box).to_have_value("x" * 24)
    expect(a.locator("#name-input-limit")).to_have_text("Até 24 letras · 24/24")
    expect(a.locator("#name-input-at-limit")).to_have_text("Chegou ao limite de 24 letras.")
    expect(a.locator("#name-input-at-limit")).to_have_attribute("aria-live", "polite")
    _shot(a, "lobby_name_limit_1366_pt")
    box.fill("Ana")
    a.locator("#mode-pife").click()
    a.get_by_role("button", name="CRIAR MESA").click()
    a.wait_for_url("**/mesa/**")
    # the waiting room's box, in Spanish on a phone
    b = new_page(width=390, height=844, locale="es-AR")
    b.goto(a.url)
    join = b.locator("#join-name")
    expect(join).to_have_attribute("maxlength", "24")
    expect(join).to_have_attribute("aria-describedby", "join-name-limit")
    join.fill("y" * 24)
    expect(b.locator("#join-name-limit")).to_have_text("Hasta 24 letras · 24/24")
    expect(b.locator("#join-name-at-limit")).to_have_text("Llegaste al límite de 24 letras.")
    assert b.evaluate("() => document.documentElement.scrollWidth") <= 390
    _shot(b, "join_name_limit_390_es")


def _my_turn_words(page: Page, url: str, lang: str) -> str:
    """Create a Pife table with one bot on ``page``, start, and return the status line's words
    (what is shown, ``innerText``) once it is the player's turn to draw."""
    page.goto(url)
    page.locator("#name-input").fill("Ana")
    page.locator("#mode-pife").click()
    page.get_by_role("button", name=i18n.text(lang, "btn.create")).click()
    page.wait_for_url("**/mesa/**")
    page.locator("#add-one-bot").click()
    expect(page.locator(".lobby-seat").filter(has_text="Carmen")).to_be_visible()
    page.locator("#start-button").click()
    expect(page.get_by_role("button", name=i18n.text(lang, "btn.draw"), exact=True)).to_be_enabled(
        timeout=30_000
    )
    return page.locator("#status-line").inner_text()


def test_the_hints_speak_of_clicks_with_a_mouse_and_of_taps_on_a_touch_screen(app_harness, browser):
    os.environ["PIFECACHETA_FIXED_SEED"] = "5"
    mouse = browser.new_context(viewport={"width": 1366, "height": 900}, locale="pt-BR")
    touch = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="es-AR", has_touch=True, is_mobile=True
    )
    try:
        words = _my_turn_words(mouse.new_page(), app_harness.frontend_url, "pt")
        assert words == i18n.text("pt", "turn.draw_mouse"), words
        words = _my_turn_words(touch.new_page(), app_harness.frontend_url, "es")
        assert words == i18n.text("es", "turn.draw"), words
    finally:
        mouse.close()
        touch.close()
