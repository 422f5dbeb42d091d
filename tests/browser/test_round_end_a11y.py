"""A round ended by the other player's move, read by keyboard and screen reader, in pt and es:
the focus leaves the viewer's hand for FIM DA RODADA's title (WCAG 2.4.3), REVER A RODADA's
slider has a name and a value text and the replay shows the vira and the wild, and the page's
toast region has a name in the page's language (not sonner's English "Notifications alt+T").

Ana (pt, desktop) and Bruno (es, phone) play a planned verifiable Cacheta round (REVER A RODADA
reads its record) in which the winner goes out on their turn; the other one's focus is on a
card of their own hand, moved there by the arrows, when the winner's BATER / CERRAR lands.
"""

from __future__ import annotations

from _fair import start_verifiable_round
from _replay import planned_go_out, play, play_log
from playwright.sync_api import Page, expect

SEEDS = range(55_100, 55_500)
HAND_STOP = '#hand .hand-card[tabindex="0"]'
WORDS = {
    "pt": {
        "title": "FIM DA RODADA",
        "slider": "Passo da rodada",
        "step": "Passo",
        "vira": "Vira",
        "wild": "Coringa",
    },
    "es": {
        "title": "FIN DE LA RONDA",
        "slider": "Paso de la ronda",
        "step": "Paso",
        "vira": "Volteada",
        "wild": "Comodín",
    },
}


def _toast_region_named(page: Page) -> None:
    """The page has one toast region, named "Avisos", and none in English."""
    expect(page.get_by_role("region", name="Avisos", exact=True)).to_have_count(1)
    expect(page.get_by_role("region", name="Notifications", exact=False)).to_have_count(0)
    assert "Notifications" not in page.locator("body").aria_snapshot()


def _replay_named(page: Page, lang: str, vira: str, wild: str) -> None:
    """REVER A RODADA: the slider's name and value text follow the steps; the vira and the wild;
    closed, the focus is back on the button that opened it."""
    w = WORDS[lang]
    opener = page.locator("#replay-button")
    opener.focus()
    page.keyboard.press("Enter")  # opened by keyboard: Escape gives the focus back to this button
    rd = page.locator("#replay-dialog")
    slider = rd.get_by_role("slider", name=w["slider"], exact=True)
    expect(slider).to_have_count(1)
    n = rd.locator("#replay-position").inner_text().rsplit(" ", 1)[-1]
    expect(slider).to_have_attribute("aria-valuetext", f"{w['step']} 1 de {n}")
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(rd.locator("#replay-position")).to_have_text(f"{w['step']} 3 de {n}")
    expect(slider).to_have_attribute("aria-valuetext", f"{w['step']} 3 de {n}")
    snap = rd.aria_snapshot()
    assert f'slider "{w["slider"]}"' in snap, snap
    expect(rd.locator("#replay-vira")).to_contain_text(w["vira"])
    expect(rd.locator("#replay-vira [data-card]")).to_have_attribute("data-card", vira)
    expect(rd.locator("#replay-wild")).to_contain_text(w["wild"])
    expect(rd.locator("#replay-wild [data-card]")).to_have_attribute("data-card", wild)
    page.keyboard.press("Escape")
    expect(rd).to_have_count(0)
    expect(opener).to_be_focused()  # where the player was, not FIM DA RODADA's title (WCAG 2.4.3)


def test_round_ended_by_the_other_player_focus_replay_and_toasts(app_harness, new_page) -> None:
    a, b, seed, final_plan, log = start_verifiable_round(new_page, app_harness, SEEDS)
    vira = a.get_by_test_id("vira").locator("[data-card]").get_attribute("data-card")
    wild = a.get_by_test_id("wild").locator("[data-card]").get_attribute("data-card")
    log = planned_go_out(final_plan, log)
    pages, langs = {0: a, 1: b}, {0: "pt", 1: "es"}
    play_log(pages, log[:-1], langs)
    winner = log[-1][0]
    other = pages[1 - winner]
    # the other player's focus on a card of their hand, moved there by keys
    other.locator(HAND_STOP).focus()
    other.keyboard.press("Home")
    other.keyboard.press("ArrowRight")
    expect(other.locator("#hand-pos-1")).to_be_focused()
    play(pages[winner], log[-1][1], langs[winner])
    for seat, p in pages.items():
        title = p.locator("#round-title")
        expect(title).to_have_text(WORDS[langs[seat]]["title"])
        expect(title).to_be_focused()  # the winner's by BATER's request, the other's by the keeper
    for seat, p in pages.items():
        _toast_region_named(p)
        _replay_named(p, langs[seat], vira, wild)
