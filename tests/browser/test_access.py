"""Meu acesso: the personal link moves a player to another browser, replacing the key cuts the
old one off, and the key never rides in a URL or in the frames of a page other than its own.

Frames are filed under the step they came in (``_access.LabelledFrames``): the secret may
reach a browser only on the first visit (when the server hands out a new identity), on the
page the link opens (``/acesso/entrar``) and on ``/acesso`` (which shows the link); never on
the lobby or the table. Known limit: the browser itself still SENDS the stored secret with
every page load (Reflex hydrates localStorage values), as a cookie would be sent.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

from _access import LabelledFrames, stored_identity
from _flows import create_table, join_table, simple_turn, start_two
from _replay import hand
from playwright.sync_api import expect

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "access"  # beside the other browser shots


def shots4(page, name: str) -> None:
    """screenshots/access/<name>_{390,1366}_{pt,es}.png, then back to pt at the page's size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for lang in ("es", "pt"):
        page.locator(f"#lang-{lang}").click()
        expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")
        for w, h in ((390, 844), (1366, 900)):
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(200)
            page.screenshot(path=str(SHOTS / f"{name}_{w}_{lang}.png"), full_page=True)
    page.set_viewport_size(size)


def test_personal_link_moves_the_player_and_a_new_key_cuts_the_old_browser_off(app_harness, new_page):
    import os

    os.environ["PIFECACHETA_FIXED_SEED"] = "11"  # Cacheta 7: Bruno plays first
    url = app_harness.frontend_url.rstrip("/")
    a = new_page()
    fa = LabelledFrames(a)
    fa.label = "first-visit"  # the server hands Ana's browser its new identity here
    create_table(a, url, "Ana", "cacheta7")
    table_url = a.url
    b = new_page()
    join_table(b, table_url, "Bruno")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    fa.step("table")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    pid, s1 = stored_identity(a)
    assert re.fullmatch(r"[0-9a-f]{32}", pid) and len(s1) >= 40

    # Meu acesso from the pause menu: the link, its QR code and the warning that it is a key
    a.locator("#pause-button").click()
    expect(a.locator("#notice-controls")).to_be_visible()
    fa.step("acesso")
    a.locator("#pause-access").click()
    a.wait_for_url("**/acesso")
    expect(a.locator("#access-warning")).to_contain_text("Este link é uma chave")
    link = f"{url}/acesso/entrar#{pid}.{s1}.pt"  # the link carries the player's language
    expect(a.locator("#access-link")).to_have_value(link)
    expect(a.locator("#access-enters-as")).to_have_text("Quem abrir este link entra como Ana.")
    a.locator("#lang-es").click()
    link_es = f"{url}/acesso/entrar#{pid}.{s1}.es"
    expect(a.locator("#access-link")).to_have_value(link_es)
    a.locator("#lang-pt").click()
    expect(a.locator("#access-link")).to_have_value(link)
    assert (a.locator("#access-qr").get_attribute("src") or "").startswith("data:image/svg+xml")
    expect(a.locator("#access-qr")).to_have_attribute("alt", "Código QR do seu link pessoal")
    shots4(a, "access_panel")

    # a phone opens the link Ana copied in Spanish: it becomes Ana, speaks Spanish, the key
    # leaves the address bar, the lobby shows
    phone = new_page(width=390, height=844)
    fp = LabelledFrames(phone)
    fp.label = "link"
    phone.goto(link_es)
    phone.wait_for_url(lambda u: urlparse(u).path == "/")
    assert "#" not in phone.evaluate("location.href") and s1 not in phone.evaluate("location.href")
    expect(phone.locator("#name-input")).to_have_value("Ana")
    expect(phone.locator("#lang-es")).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    assert stored_identity(phone) == (pid, s1)
    shots4(phone, "lobby_access_link")
    fp.step("table")
    phone.goto(table_url)
    expect(hand(phone)).to_have_count(9)  # Ana's seat

    # the phone plays Ana's turn; the desktop (back at the table) keeps working too
    fa.step("table-again")
    a.goto(table_url)
    expect(hand(a)).to_have_count(9)
    ids = "els => els.map(e => e.id).sort()"
    assert hand(a).evaluate_all(ids) == hand(phone).evaluate_all(ids)  # Ana's cards on both
    simple_turn(b)
    simple_turn(phone)
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    expect(hand(a)).to_have_count(9)
    simple_turn(b)
    simple_turn(a)  # the desktop acts for the seat as well
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()

    # a second tab of the phone stays at the table while the first replaces the key
    phone_tab = phone.context.new_page()
    phone_tab.goto(table_url)
    expect(hand(phone_tab)).to_have_count(9)
    # the phone replaces the key (from the lobby's link to Meu acesso)
    fp.step("lobby")
    phone.goto(url + "/")
    fp.step("acesso")
    phone.locator("#lobby-access").click()
    phone.wait_for_url("**/acesso")
    expect(phone.locator("#access-link")).to_have_value(link)
    phone.locator("#access-renew").click()
    expect(phone.get_by_role("alertdialog")).to_contain_text("perdem o acesso")
    phone.locator("#confirm-renew-ok").click()
    expect(phone.locator("#access-renewed")).to_contain_text("Chave trocada")
    expect(phone.locator("#access-link")).not_to_have_value(link)
    pid2, s2 = stored_identity(phone)
    assert pid2 == pid and s2 != s1
    expect(phone.locator("#access-link")).to_have_value(f"{url}/acesso/entrar#{pid}.{s2}.pt")
    fp.step("after")
    phone.goto(table_url)
    expect(hand(phone)).to_have_count(9)

    # the desktop is cut off: at the next change its open table tab loses the seat and goes
    # to Meu acesso, which says plainly that this access was replaced
    fa.step("replaced")
    simple_turn(b)
    expect(phone.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    a.wait_for_url("**/acesso")
    expect(a.locator("#access-replaced")).to_have_text("Este acesso foi substituído")
    # the phone's other tab got the new key (localStorage sync) and keeps the seat
    expect(phone_tab.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    assert "/mesa/" in phone_tab.url
    phone_tab.close()
    a.goto(table_url)  # any page it opens says the same
    a.wait_for_url("**/acesso")
    expect(a.locator("#access-replaced")).to_have_text("Este acesso foi substituído")
    expect(a.locator("#access-link")).to_have_count(0)
    shots4(a, "access_replaced")
    # the old link, opened anywhere, says it was replaced and stores nothing
    other = new_page()
    other.goto(link)
    expect(other.locator("#enter-bad")).to_contain_text("Este link de acesso foi substituído")
    assert stored_identity(other) == ("", "")
    shots4(other, "access_link_replaced")
    # starting over on the desktop makes it a new player, away from Ana's seat
    a.locator("#access-fresh").click()
    a.wait_for_url(lambda u: urlparse(u).path == "/")
    assert stored_identity(a)[0] not in ("", pid)
    phone.goto(table_url)
    expect(hand(phone)).to_have_count(9)  # the phone still is Ana

    # the key never rode in a URL, nor in the frames of the lobby or the table
    fa.settle()
    fp.settle()
    for rec in (fa, fp):
        # the link itself is the only address with the key (its fragment: never sent over HTTP)
        leaked = [u for u in rec.urls if (s1 in u or s2 in u) and u not in (link, link_es)]
        assert not leaked, leaked
    assert any(u.startswith("ws") for u in fp.urls)  # the websocket's address was checked too
    assert fa.labels_with(s1) <= {"first-visit", "acesso"}, fa.labels_with(s1)
    assert "first-visit" in fa.labels_with(s1) and "acesso" in fa.labels_with(s1)  # the check can see it
    assert not fa.labels_with(s2)
    assert fp.labels_with(s1) <= {"link", "acesso"}, fp.labels_with(s1)
    assert fp.labels_with(s2) <= {"acesso"}, fp.labels_with(s2)
    assert "acesso" in fp.labels_with(s2)


def test_a_link_that_is_not_a_key_is_refused_and_stores_nothing(app_harness, new_page):
    page = new_page(locale="es-ES")
    page.goto(
        app_harness.frontend_url.rstrip("/") + "/acesso/entrar#" + "ab" * 16 + ".not-a-real-secret-at-all"
    )
    expect(page.locator("#enter-bad")).to_have_text(
        "Este enlace de acceso no es válido. Comprueba que se copió entero."
    )
    assert "#" not in page.evaluate("location.href")
    assert stored_identity(page) == ("", "")
    shots4(page, "access_link_invalid")


def test_a_key_replaced_in_another_tab_leaves_this_tabs_move_standing(app_harness, new_page):
    """TROCAR MINHA CHAVE in one tab of a browser says "this browser stays you": its other
    tab, still showing the table with the old key, makes the player's next move (COMPRAR, a
    chat line) with the new one instead of refusing it as a replaced access."""
    a, b = start_two(new_page, app_harness, "cacheta7", 11)  # Bruno plays first
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    simple_turn(b)
    expect(a.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    _, s1 = stored_identity(a)
    # Ana's second tab replaces the key; the table tab does not change meanwhile. The page's
    # own storage listener (Reflex's localStorage sync) was added first, so once this one has
    # run the sync is queued ahead of the click below, as for a person who clicks later
    a.evaluate(
        "() => addEventListener('storage', e => { if (e.key === 'pc_secret') window.pcSynced = true; })"
    )
    keys = a.context.new_page()
    keys.goto(app_harness.frontend_url.rstrip("/") + "/acesso")
    keys.locator("#access-renew").click()
    keys.locator("#confirm-renew-ok").click()
    expect(keys.locator("#access-renewed")).to_contain_text("Chave trocada")
    _, s2 = stored_identity(keys)
    assert s2 != s1
    a.bring_to_front()
    a.wait_for_function("() => window.pcSynced === true")
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(a)).to_have_count(10)
    expect(a.locator("#message")).to_have_count(0)
    a.locator("#chat-input").fill("ainda sou eu")
    a.locator("#chat-input").press("Enter")
    expect(b.locator("#chat").get_by_text("ainda sou eu")).to_be_visible()
    expect(a.locator("#message")).to_have_count(0)
    assert "/mesa/" in a.url
    # the key replaced on another device instead (no tab of this browser has the new one):
    # the tab's next move is refused and the tab goes to Meu acesso, which says so
    from pifecacheta.service import Identity, get_service

    pid, _ = stored_identity(a)
    get_service().replace_secret(Identity(player_id=pid, secret=s2, name="Ana"))
    hand(a).first.dblclick()
    a.wait_for_url("**/acesso")
    expect(a.locator("#access-replaced")).to_have_text("Este acesso foi substituído")
