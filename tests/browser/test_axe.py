"""axe-core on every screen, in Portuguese and in Spanish (issue 16): no serious or critical
violation of WCAG 2.1 A/AA (axe's wcag2a, wcag2aa, wcag21a and wcag21aa rules).

Ana browses in pt-BR and Bruno in es-ES, each in a browser of their own; every screen is
checked on both pages: the lobby, /regras and /reglas, the waiting room, the table mid-round,
the Pausa and DESISTIR dialogs, /acesso (from the pause menu), FIM DA RODADA, MINHAS MESAS (the
lobby of a player with a table) and FIM DA PARTIDA (after a DESISTIR). The planned round is played through the
app's own service (AppHarness runs the backend in this process).

The counts of every screen (all impacts) are written to ``screenshots/axe_counts.json`` and
printed, so a run shows what is left below "serious".
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

from _flows import browser_identity, create_table, join_table, service_or_skip
from _planner import find_seed
from _replay import hand, play_moves, play_planned
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7

OUT = Path(__file__).resolve().parents[2] / "screenshots" / "axe_counts.json"
BLOCKING = ("serious", "critical")
OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
_AXE = Axe()


def _check(page: Page, screen: str, lang: str, counts: dict[str, dict[str, int]], found: list[str]) -> None:
    """Run axe on ``page`` as it stands; note its counts by impact under ``screen/lang`` and
    every serious or critical violation (rule, impact, first nodes) in ``found``."""
    results = _AXE.run(page, options=OPTIONS)
    tally: Counter[str] = Counter()
    for v in results.response["violations"]:
        tally[v["impact"] or "none"] += len(v["nodes"])
        if v["impact"] in BLOCKING:
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
            summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:200]
            found.append(f"{screen}/{lang}: {v['id']} ({v['impact']}, {len(v['nodes'])}) {targets} {summary}")
    # what axe could not decide (text over the felt's gradient, over translucent boxes): counted,
    # not failed; tests/browser/test_contrast.py measures those
    tally["needs_review"] = sum(len(v["nodes"]) for v in results.response.get("incomplete", []))
    counts[f"{screen}/{lang}"] = dict(tally)


def _open_dialog(page: Page, opener: str, dialog: str) -> None:
    page.locator(opener).click()
    expect(page.locator(dialog)).to_be_visible()


def _close_dialog(page: Page, dialog: str) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(dialog)).to_have_count(0)


def test_every_screen_in_both_languages_has_no_serious_axe_violation(app_harness, new_page):
    svc = service_or_skip()
    counts: dict[str, dict[str, int]] = {}
    found: list[str] = []
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=14)
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page()
    b = new_page(locale="es-ES")
    pages = {"pt": a, "es": b}
    url = app_harness.frontend_url.rstrip("/")

    def both(screen: str) -> None:
        for lang, page in pages.items():
            _check(page, screen, lang, counts, found)

    for lang, page in pages.items():
        page.goto(url + "/")
        expect(page.locator("#name-input")).to_be_visible()
        expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")
    both("lobby")
    a.goto(url + "/regras")
    b.goto(url + "/reglas")
    for page in pages.values():
        expect(page.locator("#rules-title")).to_be_visible()
    both("rules")

    create_table(a, url, "Ana", "cacheta7")
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    both("waiting_room")
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    a.get_by_role("button", name="COMEÇAR").click()
    for page in pages.values():
        expect(hand(page)).to_have_count(9)
    play_moves(svc, code, who, log[:2])
    for page in pages.values():
        expect(page.get_by_test_id("discard").locator("[data-card]")).to_have_count(1)
    both("table")
    for page in pages.values():
        _open_dialog(page, "#pause-button", "#pause-menu")
    both("pause_dialog")
    for page in pages.values():
        _close_dialog(page, "#pause-menu")
        _open_dialog(page, "#resign-button", "#confirm-resign")
    both("resign_dialog")
    for page in pages.values():
        _close_dialog(page, "#confirm-resign")

    # Meu acesso, reached as a player does, from the pause menu; then back to the table
    for lang, page in pages.items():
        _open_dialog(page, "#pause-button", "#pause-menu")
        page.locator("#pause-access").click()
        page.wait_for_url("**/acesso")
        # settled: the title in the page's language, the personal link in its box
        expect(page.locator("#access-title")).to_have_text(i18n.text(lang, "access.title"))
        expect(page.locator("#access-link")).to_have_value(re.compile("/acesso/entrar#"))
    both("access")
    for page in pages.values():
        page.go_back()
        expect(hand(page)).to_have_count(9)

    play_planned(svc, code, who, final, log[2:])
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    both("round_over")

    # MINHAS MESAS: the lobby of a player who sits at a table, in a second tab of each browser
    lobbies = {lang: page.context.new_page() for lang, page in pages.items()}
    for page in lobbies.values():
        page.goto(url + "/")
        expect(page.locator(f'[href="/mesa/{code}"]').first).to_be_visible()
    for lang, page in lobbies.items():
        _check(page, "my_tables", lang, counts, found)
        page.close()

    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    for page in pages.values():
        expect(hand(page)).to_have_count(9)
    _open_dialog(a, "#resign-button", "#confirm-resign")
    a.locator("#confirm-resign-ok").click()
    for page in pages.values():
        expect(page.locator("#round-title")).to_be_visible()
    both("match_over")

    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(counts, indent=1, sort_keys=True))
    print(json.dumps(counts, sort_keys=True))
    assert not found, "\n".join(found)
