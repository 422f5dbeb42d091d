"""Your turn, noticed: the tab title and favicon follow the viewer's turn, the chime plays only
when switched on, and a hidden tab shows a notification once the player allowed it.

Chromium's headless tabs are always visible, so ``_access.NOTIFICATION_SPY`` (an init script)
lets the test hide the tab, records every ``Notification`` the page creates and every sound
it plays; the permission is granted to the context as a player would grant it.
"""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

from _access import NOTIFICATION_SPY
from _flows import create_table, join_table, simple_turn
from playwright.sync_api import expect

SOUND_SPY = """
(() => { window.__sounds = [];
  HTMLMediaElement.prototype.play = function () { window.__sounds.push(this.src); return Promise.resolve(); };
})();
"""
ICON = "link[rel~='icon']"
SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "access"  # beside the other browser shots


def _pause_shots(page) -> None:
    """screenshots/access/pause_menu_{390,1366}_{pt,es}.png: the pause menu with Meu acesso and
    the notice switches; ends with the menu closed, in pt."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for lang in ("es", "pt"):
        page.locator(f"#lang-{lang}").click()
        expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")
        page.locator("#pause-button").click()
        expect(page.locator("#pause-menu")).to_be_visible()
        for w, h in ((390, 844), (1366, 900)):
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(200)
            page.screenshot(path=str(SHOTS / f"pause_menu_{w}_{lang}.png"))
        page.keyboard.press("Escape")
        expect(page.locator("#pause-menu")).to_have_count(0)
    page.set_viewport_size(size)


def _icons(page) -> list[str]:
    return page.eval_on_selector_all(ICON, "els => els.map(e => e.getAttribute('href'))")


def test_title_favicon_sound_and_a_notification_in_a_hidden_tab(app_harness, new_page):
    os.environ["PIFECACHETA_FIXED_SEED"] = "11"  # Cacheta 7: Bruno plays first
    url = app_harness.frontend_url.rstrip("/")
    a = new_page()
    a.context.grant_permissions(["notifications"], origin=url)
    a.context.add_init_script(NOTIFICATION_SPY)
    a.context.add_init_script(SOUND_SPY)
    create_table(a, url, "Ana", "cacheta7")
    b = new_page()
    join_table(b, a.url, "Bruno")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()

    # Bruno's turn: his tab says so (in his language), Ana's does not
    expect(b).to_have_title("● Sua vez · Cacheta · Ana, Bruno")
    assert set(_icons(b)) == {"/icon-turn.svg"}
    b.locator("#lang-es").click()
    expect(b).to_have_title("● Tu turno · Cacheta · Ana, Bruno")
    b.locator("#lang-pt").click()
    expect(b).to_have_title("● Sua vez · Cacheta · Ana, Bruno")
    expect(a).to_have_title("Cacheta · Ana, Bruno")
    assert set(_icons(a)) == {"/favicon.svg"}

    # Ana allows notifications (the browser grants them) and leaves the sound off (the default)
    a.locator("#pause-button").click()
    expect(a.locator("#sound-switch")).to_have_attribute("aria-checked", "false")
    expect(a.locator("#notify-switch")).to_have_attribute("aria-checked", "false")
    expect(a.get_by_role("switch", name="Notificar quando a aba estiver escondida")).to_be_visible()
    a.get_by_role("switch", name="Notificar quando a aba estiver escondida").click()
    expect(a.locator("#notify-switch")).to_have_attribute("aria-checked", "true")
    a.keyboard.press("Escape")
    expect(a.locator("#pause-menu")).to_have_count(0)
    _pause_shots(a)

    # Ana's tab is hidden; Bruno moves: her title, icon and a notification say it is her turn
    a.evaluate("window.__hidden = true")
    simple_turn(b)
    expect(a).to_have_title("● Sua vez · Cacheta · Ana, Bruno")
    assert set(_icons(a)) == {"/icon-turn.svg"}
    expect(b).to_have_title("Cacheta · Ana, Bruno")
    notes = a.evaluate("window.__notes")
    assert notes == [
        {
            "title": "Sua vez · Cacheta · Ana, Bruno",
            "body": "É a sua vez de jogar.",
            "tag": "pifecacheta-turn",
        }
    ]
    assert a.evaluate("window.__sounds") == []  # the chime is off by default

    # visible again, with the sound on: the next turn chimes and shows no notification
    a.evaluate("window.__hidden = false")
    a.locator("#pause-button").click()
    a.get_by_role("switch", name="Tocar um som na minha vez").click()
    expect(a.locator("#sound-switch")).to_have_attribute("aria-checked", "true")
    a.keyboard.press("Escape")
    simple_turn(a)
    expect(a).to_have_title("Cacheta · Ana, Bruno")
    simple_turn(b)
    expect(a).to_have_title("● Sua vez · Cacheta · Ana, Bruno")
    a.wait_for_function("window.__sounds.length === 1")
    assert a.evaluate("window.__sounds")[0].endswith("/turn.wav")
    assert len(a.evaluate("window.__notes")) == 1
    assert a.evaluate("localStorage.getItem('pc_sound')").strip('"') == "1"


def test_the_icons_and_the_manifest_are_served(app_harness):
    base = app_harness.frontend_url.rstrip("/")
    for path, kind in (
        ("/favicon.ico", "image/"),
        ("/favicon.svg", "image/svg"),
        ("/icon-turn.svg", "image/svg"),
        ("/icon-192.png", "image/png"),
        ("/turn.wav", "audio/"),
    ):
        with urllib.request.urlopen(base + path) as r:
            body = r.read()
            assert r.headers.get_content_type().startswith(kind), (path, r.headers.get_content_type())
            assert b"<html" not in body[:200].lower()
    with urllib.request.urlopen(base + "/manifest.webmanifest") as r:
        import json

        manifest = json.loads(r.read())
    assert manifest["name"] == "Pife ou Cacheta" and any(
        i["src"] == "/icon-192.png" for i in manifest["icons"]
    )
