"""Text contrast at AA on the felt (issue 16 item 7, WCAG 1.4.3), measured where axe could not
decide (tests/browser/_contrast.py): the seat whose turn it is, DESISTIR, Pausa, POR VALOR,
COMPLETAR COM ROBÔS and + ROBÔ, "criou a mesa", REVANCHE (white on green, as BATER), a seat that left (once
dimmed), the placeholders; and the motion of the page under ``prefers-reduced-motion``.

Every ratio is printed (``-s``) and written to ``screenshots/contrast.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from _contrast import contrast, placeholder_contrast
from _flows import create_table, join_table
from _replay import hand
from playwright.sync_api import Page, expect

AA = 4.5
OUT = Path(__file__).resolve().parents[2] / "screenshots" / "contrast.json"


def _measure(page: Page, found: dict[str, float], name: str, selector: str) -> None:
    target = page.locator(selector).first
    expect(target).to_be_visible()
    found[name] = round(contrast(target), 2)


def _seconds(durations: str) -> float:
    """The longest of a computed CSS duration list ("0.12s, 1e-05s", "300ms"), in seconds."""
    values = [d.strip() for d in durations.split(",")]
    return max(float(d[:-2]) / 1000 if d.endswith("ms") else float(d[:-1]) for d in values)


def test_text_on_the_felt_reaches_aa_and_reduced_motion_stops_the_motion(app_harness, new_page):
    found: dict[str, float] = {}
    a = new_page()
    a.emulate_media(reduced_motion="reduce")
    a.goto(app_harness.frontend_url)
    expect(a.locator("#name-input")).to_be_visible()
    found["placeholder: lobby name"] = round(placeholder_contrast(a.locator("#name-input")), 2)
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    b = new_page()
    b.goto(a.url)
    expect(b.locator("#join-name")).to_be_visible()
    found["placeholder: waiting room name"] = round(placeholder_contrast(b.locator("#join-name")), 2)
    join_table(b, a.url, "Bruno")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    _measure(a, found, "criou a mesa", '.lobby-seat span[data-accent-color="green"]')
    _measure(a, found, "COMPLETAR COM ROBÔS", "#add-bots")
    _measure(a, found, "+ ROBÔ", "#add-one-bot")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    _measure(a, found, "seat on turn: name", ".seat:has(.rt-Badge[data-accent-color=yellow]) .seat-name")
    _measure(a, found, "DESISTIR", "#resign-button")
    _measure(a, found, "Pausa", "#pause-button")
    _measure(a, found, "POR VALOR", "#sort-rank")  # the sort not in use: a soft button
    _measure(a, found, "status line", "#status-line")
    found["placeholder: chat"] = round(placeholder_contrast(a.locator("#chat-input")), 2)

    # reduced motion: the card's lift and the page's fades take no time
    durations = a.locator("#hand [data-card]").first.evaluate(
        "e => [getComputedStyle(e).transitionDuration, getComputedStyle(e).animationDuration]"
    )
    motion = max(_seconds(d) for d in durations)

    # Ana resigns: FIM DA PARTIDA; her seat (left) on Bruno's page, and REVANCHE or not
    a.locator("#resign-button").click()
    a.locator("#confirm-resign-ok").click()
    expect(b.locator("#round-title")).to_be_visible()
    _measure(b, found, "seat that left: name", '.seat[data-seat="0"] .seat-name')
    if b.locator("#rematch-button:enabled").count():  # white on green, as BATER
        _measure(b, found, "REVANCHE", "#rematch-button")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(found, indent=1, ensure_ascii=False))
    print(json.dumps(found, ensure_ascii=False))
    low = {k: v for k, v in found.items() if v < AA}
    assert not low, low
    assert motion < 0.001, durations
