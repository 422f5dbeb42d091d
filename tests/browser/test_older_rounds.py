"""RODADAS ANTERIORES: a table that played REVANCHE after REVANCHE keeps only its newest earlier
rounds in every tab; the viewer who asks gets the older ones, by keyboard, announced, in both
languages, at desktop (side panel) and phone width (the history dialog).

The app's service runs in this process (AppHarness): the test keeps one earlier round in memory
(``HistoryBook.past_kept``, env ``PIFECACHETA_PAST_ROUNDS`` in production) and plays the
matches through the service, so only the history panel is driven in the browser.
"""

from __future__ import annotations

from _flows import service_or_skip, shots
from _planner import play_pife_to_the_end
from playwright.sync_api import expect

from pifecacheta.rules import PIFE


def _rematch(svc, code: str, who) -> None:
    play_pife_to_the_end(svc, code, who)
    svc.vote_rematch(code, who[0])
    svc.vote_rematch(code, who[1])  # REVANCHE (seed 000 line 70): the played match's round is earlier now


def test_older_rounds_come_when_asked(app_harness, new_page, shot):
    svc = service_or_skip()
    book = svc._history
    kept_before = book.past_kept
    book.past_kept = 1
    try:
        who = {0: svc.identify(None, None, "Ana"), 1: svc.identify(None, None, "Bruno")}
        code = svc.create_table(who[0], PIFE)
        svc.join(code, who[1])
        svc.start(code, who[0])
        for _ in range(3):
            _rematch(svc, code, who)
        assert svc.history(code).past_older == 2
        s = new_page()  # a spectator: the results are public (seed 000 line 68)
        s.goto(f"{app_harness.frontend_url.rstrip('/')}/mesa/{code}")
        expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
        s.locator("#side-tab-rounds").click()
        side = s.locator("#history-side")
        rounds = side.locator(".hist-round h3")
        expect(rounds).to_have_text(["Partida 3 · 1ª rodada"])
        more = s.locator("#side-older-rounds")
        expect(more).to_have_text("Ver rodadas anteriores (2)")
        expect(more).to_have_attribute("aria-disabled", "false")
        more.focus()
        s.keyboard.press("Enter")
        expect(rounds).to_have_text(
            ["Partida 3 · 1ª rodada", "Partida 2 · 1ª rodada", "Partida 1 · 1ª rodada"]
        )
        expect(side.locator(".hist-round").nth(2)).to_contain_text("bateu")
        expect(s.locator("#side-older-live")).to_have_text("2 rodadas anteriores na lista")
        expect(more).to_have_text("Todas as rodadas anteriores estão na lista")
        expect(more).to_have_attribute("aria-disabled", "true")
        expect(more).to_be_focused()  # still in the page: the keyboard's place is kept
        s.keyboard.press("Enter")  # nothing more to add: nothing changes
        expect(more).to_have_text("Todas as rodadas anteriores estão na lista")
        expect(rounds).to_have_count(3)
        shots(s, shot, "older_rounds_pt")
        # one more REVANCHE makes match 3's round older: the list starts again from the newest
        _rematch(svc, code, who)
        expect(rounds).to_have_text(["Partida 4 · 1ª rodada"])
        expect(more).to_have_text("Ver rodadas anteriores (3)")
        expect(s.locator("#side-older-live")).to_have_text("")
        s.locator("#lang-es").click()
        expect(more).to_have_text("Ver rondas anteriores (3)")
        more.click()
        expect(rounds).to_have_text(
            ["Partida 4 · Ronda 1", "Partida 3 · Ronda 1", "Partida 2 · Ronda 1", "Partida 1 · Ronda 1"]
        )
        expect(s.locator("#side-older-live")).to_have_text("3 rondas anteriores en la lista")
        expect(more).to_have_text("Todas las rondas anteriores están en la lista")
        # a phone: the same list in the history dialog
        s.set_viewport_size({"width": 390, "height": 844})
        s.locator("#history-button").click()
        dialog = s.locator("#history-dialog")
        dialog.locator("#dialog-tab-rounds").click()
        expect(dialog.locator(".hist-round h3")).to_have_count(4)
        expect(dialog.locator("#dialog-older-rounds")).to_have_text(
            "Todas las rondas anteriores están en la lista"
        )
        shot(s, "older_rounds_dialog_390_es")
    finally:
        book.past_kept = kept_before
