"""The end of a round on a phone and what the other players keep of it (issue 11: defect 10,
the card just drawn, who discarded the lixo's top; a newcomer's finding on PRÓXIMA RODADA).

Two players at 390x844, one in Portuguese and one in Spanish. The planned games
(``_planner.find_seed``) are played through the app's own service (AppHarness runs the backend
in this process) except for the moves the test looks at, which go through the page.
Screenshots go to ``screenshots/round-end/`` at the repository's root.
"""

from __future__ import annotations

import re
from pathlib import Path

from _flows import service_or_skip
from _frames import Recorder
from _planner import find_seed
from _replay import BUTTONS, act, hand, play, play_planned
from _round_end import PHONE, two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, PIFE, Discard, Draw

FRAMES: dict[int, Recorder] = {}
DRAWN_TRUE = re.compile(r'"drawn"\s*:\s*true')
SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "round-end"  # beside the other browser shots


def _shot(page: Page, name: str) -> None:
    """What the phone's screen shows (the viewport, not the full page): ``SHOTS/<name>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _two_phones(new_page, app_harness, mode_id: str, seed: int, *, others: tuple[str, ...] = ()):
    """:func:`_round_end.two_players` on two 390x844 phones; ``FRAMES[seat]`` records the
    websocket frames each page receives."""

    def record(seat: int, page: Page) -> None:
        FRAMES[seat] = Recorder(page)

    return two_players(
        new_page, app_harness, mode_id, seed, a_size=PHONE, b_size=PHONE, others=others, watch=record
    )


def _on_screen(page: Page, selector: str) -> None:
    """``selector`` is visible and wholly inside the viewport, the page scrolled to its top."""
    page.evaluate("() => window.scrollTo(0, 0)")
    target = page.locator(selector)
    expect(target).to_be_visible()
    box = target.bounding_box()
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= vh, (selector, box, vh)


def test_cacheta_drawn_card_discarder_round_over_and_last_round_card(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=14)
    a, b, code, who = _two_phones(new_page, app_harness, "cacheta7", seed)
    assert log[0][0] == 1 and isinstance(log[0][1], Draw), log[:2]
    # Bruno (seat 1) draws on his page: the new card is marked for him, for nobody else
    play(b, log[0][1], "es")
    new = svc.snapshot(code, who[1]).view.hand[-1]
    marked = b.locator("#hand .hand-card").filter(has=b.locator(".drawn-mark"))
    expect(marked).to_have_count(1)
    expect(marked.locator("[data-card]")).to_have_attribute("id", f"card-{new}")
    expect(marked.locator(".drawn-mark")).to_have_text("nueva")
    expect(a.locator(".drawn-mark")).to_have_count(0)
    # the mark travels in Bruno's frames only: none of Ana's frames carries a drawn card
    assert any(DRAWN_TRUE.search(f) for f in FRAMES[1].frames)
    assert not any(DRAWN_TRUE.search(f) for f in FRAMES[0].frames)
    _shot(b, "drawn_card_390_es")
    # his discard ends the mark; the lixo says whose card is on top, to each in their words
    seat, discard = log[1]
    assert seat == 1 and isinstance(discard, Discard)
    play(b, discard, "es")
    expect(b.locator(".drawn-mark")).to_have_count(0)
    expect(a.locator("#discard-by")).to_have_text("de Bruno")
    expect(b.locator("#discard-by")).to_have_text("tu descarte")
    _shot(a, "discard_by_390_pt")
    # the rest of the planned round, through the service (the last move is the go-out)
    play_planned(svc, code, who, final, log[2:])
    plan = final.round.result.plan
    wname = ("Ana", "Bruno")[final.round.result.winner]
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    # defect 10: PRÓXIMA RODADA is on the phone's screen without scrolling, in both languages
    _on_screen(a, "#next-round-button")
    _on_screen(b, "#next-round-button")
    expect(a.locator("#next-round-button")).to_have_text(BUTTONS["pt"]["next"])
    _shot(a, "round_over_390_pt")
    _shot(b, "round_over_390_es")
    # Bruno starts the next round: Ana's FIM DA RODADA closes, its summary stays on her table
    b.get_by_role("button", name=BUTTONS["es"]["next"]).click()
    expect(a.locator("#round-title")).to_have_count(0)
    card = a.locator("#last-round")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Fim da 1ª rodada")
    expect(a.locator("#last-round-went-out")).to_contain_text(wname)
    expect(card.locator(".last-round-lives")).to_have_count(2)
    loser = 1 - final.round.result.winner
    expect(card.locator(".last-round-lives").nth(loser)).to_contain_text(f"♥ {final.lives[loser]}")
    expect(card.locator(".last-round-lives").nth(loser)).to_contain_text("(−1)")
    expect(a.locator("#last-round-live")).to_have_attribute("aria-live", "polite")
    # the melds are one tap away (a native <details>, keyboard ready)
    card.locator("summary").click()
    n_melded = sum(len(m.cards) for m in plan.melds)
    expect(card.locator(".meld [data-card]")).to_have_count(n_melded)
    _shot(a, "last_round_card_390_pt")
    a.set_viewport_size({"width": 1366, "height": 900})
    expect(card).to_be_visible()
    _shot(a, "last_round_card_1366_pt")
    a.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    # Bruno pressed the button: he read the result already and gets no card
    expect(hand(b)).to_have_count(9)
    expect(b.locator("#last-round")).to_have_count(0)
    # Ana closes it (keyboard: the close button has a name and takes focus)
    close = a.get_by_role("button", name="Fechar o resumo da última rodada")
    close.focus()
    a.keyboard.press("Enter")
    expect(a.locator("#last-round")).to_have_count(0)
    expect(hand(a)).to_have_count(9)


def test_cacheta_last_round_card_goes_when_the_viewer_moves(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=14)
    a, b, code, who = _two_phones(new_page, app_harness, "cacheta7", seed)
    play_planned(svc, code, who, final, log)
    expect(b.locator("#round-title")).to_be_visible()
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    expect(b.locator("#last-round")).to_be_visible()
    expect(b.locator("#last-round")).to_contain_text("Fin de la ronda 1")
    _shot(b, "last_round_card_390_es")
    # Bruno keeps it while Ana moves, and through his own draw (its going would move his hand
    # under the finger about to discard); his first discard of round 2 takes it away
    if svc.snapshot(code, who[0]).view.turn == 0:
        act(svc, code, who[0], Draw())
        act(svc, code, who[0], Discard(svc.snapshot(code, who[0]).view.hand[0]))
        expect(b.locator("#discard-by")).to_have_text("de Ana")
        expect(b.locator("#last-round")).to_be_visible()
    play(b, Draw(), "es")
    expect(hand(b)).to_have_count(10)
    expect(b.locator("#last-round")).to_be_visible()
    play(b, Discard(svc.snapshot(code, who[1]).view.hand[0]), "es")
    expect(b.locator("#last-round")).to_have_count(0)


def test_four_seats_queue_jump_round_over_fits_a_phone(app_harness, new_page):
    """The tallest FIM DA RODADA: four lives rows, the FUROU A FILA line and the card jumped on."""
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 4, out_of_turn=True, max_actions=60, announce=True)
    a, b, code, who = _two_phones(new_page, app_harness, "cacheta7", seed, others=("Carla", "Davi"))
    play_planned(svc, code, who, final, log)
    res = final.round.result
    wname = ("Ana", "Bruno", "Carla", "Davi")[res.winner]
    # up to 60 moves at once: under load the pages take longer than the default to catch up
    expect(a.locator("#round-title")).to_be_visible(timeout=60_000)
    expect(a.locator("#banner #went-out")).to_contain_text(f"{wname} furou a fila e bateu")
    expect(a.locator("#lives .lives-row")).to_have_count(4)
    expect(a.locator("#taken-card")).to_be_visible()
    _on_screen(a, "#next-round-button")
    _on_screen(b, "#next-round-button")
    _shot(a, "jump_round_over_390_pt")
    a.set_viewport_size({"width": 1366, "height": 900})
    _on_screen(a, "#next-round-button")
    _shot(a, "jump_round_over_1366_pt")
    a.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    _shot(b, "jump_round_over_390_es")
    # scrolled down to the hand, the button is still there at the bottom edge
    a.evaluate("() => window.scrollTo(0, 250)")
    box = a.locator("#next-round-button").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE[1], box
    b.get_by_role("button", name=BUTTONS["es"]["next"]).click()
    card = a.locator("#last-round")
    expect(card).to_contain_text(f"{wname} furou a fila")
    expect(card.locator(".last-round-lives")).to_have_count(4)
    _shot(a, "jump_last_round_card_390_pt")


def test_pife_round_over_and_match_over_fit_a_phone(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(PIFE, 2, out_of_turn=False, max_actions=40)
    a, b, code, who = _two_phones(new_page, app_harness, "pife", seed)
    s = new_page(width=390, height=844, locale="es-AR")  # a spectator, from the invite link
    s.goto(a.url)
    expect(s.locator("#join-name")).to_have_count(0)  # the match began: no seat to take
    play_planned(svc, code, who, final, log)
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    # the spectator has no PRÓXIMA RODADA: it is told a player presses it (seed 000 line 68)
    expect(s.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    expect(s.locator("#spectator-next")).to_have_text("Quien juega toca SIGUIENTE RONDA para seguir.")
    expect(s.locator("#next-round-button")).to_have_count(0)
    for p in (a, b):
        expect(p.locator("#spectator-next")).to_have_count(0)
    _on_screen(a, "#next-round-button")
    _on_screen(b, "#next-round-button")
    _shot(a, "pife_round_over_390_pt")
    _shot(b, "pife_round_over_390_es")
    # Pife: PRÓXIMA RODADA shows the end of the match (seed 000 line 68) with REVANCHE
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    wname = ("Ana", "Bruno")[final.round.result.winner]
    expect(a.locator("#winner")).to_have_text(f"{wname} venceu a partida!")
    expect(b.locator("#rematch-button")).to_have_text("REVANCHA")
    expect(s.locator("#winner")).to_be_visible()
    expect(s.locator("#spectator-next")).to_have_count(0)  # FIM DA PARTIDA: nothing to wait for
    for p in (a, b):
        _on_screen(p, "#rematch-button")
    _shot(a, "pife_match_over_390_pt")
    _shot(b, "pife_match_over_390_es")
