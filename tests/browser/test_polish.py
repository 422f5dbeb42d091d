"""A newcomer's findings, checked in a real browser: long names on a phone, refusals that go
away when the table changes, COMPLETAR COM ROBÔS only while a seat is free, a translated 404."""

from __future__ import annotations

import re

from _flows import create_table, join_table
from _replay import hand, wait_my_turn
from playwright.sync_api import expect

LONG_A = "Maximilianoooooooooooooo"  # 24 characters, no space
LONG_B = "Bernardinhoooooooooooooo"
PHONE = 390


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE, f"page is {width} px wide on a {PHONE} px phone"


def test_long_names_refusal_and_full_table_on_a_phone(app_harness, new_page, shot):
    a = new_page(width=PHONE, height=844)
    a.goto(app_harness.frontend_url)
    a.locator("#name-input").fill(LONG_A)
    a.locator("#mode-pife").click()
    a.get_by_role("button", name="CRIAR MESA").click()
    a.wait_for_url("**/mesa/**")
    b = new_page(width=PHONE, height=844)
    b.goto(a.url)
    b.locator("#join-name").fill(LONG_B)
    b.get_by_role("button", name="SENTAR À MESA").click()
    expect(a.locator(".lobby-seat").filter(has_text=LONG_B)).to_be_visible()
    _no_sideways_scroll(a)
    # COMPLETAR COM ROBÔS fills the two free seats, then is no longer offered
    expect(a.locator("#add-bots")).to_be_enabled()
    a.locator("#add-bots").click()
    expect(a.locator(".lobby-seat").filter(has_text="Tito")).to_be_visible()
    expect(a.locator("#add-bots")).to_have_count(0)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # Ana deals (seed 000 line 50): the dealer's chip on her seat's corner covers none of her
    # name, whose last letters give way to "…" before it
    chip = a.locator('.seat[data-seat="0"] .dealer-chip').bounding_box()
    text_right = a.locator('.seat[data-seat="0"] .seat-name').evaluate(
        "(e) => e.getBoundingClientRect().right - parseFloat(getComputedStyle(e).paddingRight)"
    )
    assert chip is not None and text_right <= chip["x"] + 0.5, (text_right, chip)
    # a 200-character chat line without spaces wraps instead of widening the phone screen
    a.locator("#chat input").fill("k" * 200)
    a.get_by_role("button", name="ENVIAR").click()
    for p in (a, b):
        expect(p.locator(".chat-line")).to_have_count(1)
        _no_sideways_scroll(p)
    shot(a, "long_name_table_390_pt")
    # at desktop width the seats have room: a 24-letter name shows whole (on two lines at
    # most), not cut at 9 em, and its seat stays in the screen
    for w, h in ((1920, 1080), (1366, 900)):
        a.set_viewport_size({"width": w, "height": h})
        for seat in (0, 1):
            name = a.locator(f'.seat[data-seat="{seat}"] .seat-name')
            expect(name).to_be_visible()
            sizes = name.evaluate(
                "(e) => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight,"
                " parseFloat(getComputedStyle(e).lineHeight)]"
            )
            assert sizes[0] <= sizes[1] + 1 and sizes[2] <= sizes[3] + 1, (w, seat, sizes)
            assert sizes[3] <= 2.2 * sizes[4], (w, seat, sizes)
            box = a.locator(f'.seat[data-seat="{seat}"]').bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w, (w, seat, box)
        shot(a, f"long_name_table_{w}_pt")
    a.set_viewport_size({"width": PHONE, "height": 844})
    # a refusal (not Ana's turn: seat 1 plays first) stays while the table does not change ...
    a.get_by_test_id("stock").click()
    alert = a.locator("#message")
    expect(alert).to_have_text("Não é a sua vez.")
    a.wait_for_timeout(1500)
    expect(alert).to_be_visible()
    # ... and stays after the next table update (Bernardinho draws), until dismissed (WCAG 2.2.1)
    wait_my_turn(b)
    expect(b.get_by_role("button", name=re.compile(r"^Monte \d+$"))).to_be_visible()  # the stock's name
    b.get_by_role("button", name="COMPRAR").click()
    expect(hand(b)).to_have_count(10)
    # the discard hint offers BATER only while BATER is enabled
    go_out = b.get_by_role("button", name="BATER", exact=True)
    expect(b.locator("#status-line")).to_contain_text("Descarte uma carta")
    if go_out.is_disabled():
        expect(b.locator("#status-line")).not_to_contain_text("BATER")
    else:
        expect(b.locator("#status-line")).to_contain_text("Ou toque em BATER")
    expect(alert).to_be_visible()
    a.get_by_role("button", name="Fechar o aviso").press("Enter")  # its × dismisses it
    expect(alert).to_have_count(0)
    # a new refusal shows again; the viewer's own next action clears it at once
    a.get_by_test_id("stock").click()
    expect(alert).to_be_visible()
    hand(a).first.click()
    expect(alert).to_have_count(0)


def test_unknown_address_shows_a_translated_404(app_harness, new_page):
    pt = new_page(width=PHONE, height=844)
    pt.goto(app_harness.frontend_url.rstrip("/") + "/nao/existe")
    expect(pt.locator("#not-found-title")).to_have_text("Página não encontrada")
    expect(pt.get_by_text("404: Page not found")).to_have_count(0)
    es = new_page(locale="es-AR")
    es.goto(app_harness.frontend_url.rstrip("/") + "/no-existe")
    expect(es.locator("#not-found-title")).to_have_text("Página no encontrada")
    es.get_by_role("button", name="NUEVA MESA").click()
    es.wait_for_url(app_harness.frontend_url.rstrip("/") + "/")
    expect(es.get_by_role("button", name="CREAR MESA")).to_be_visible()


def test_a_table_that_does_not_exist_says_so_in_the_tab_title(app_harness, new_page):
    es = new_page(width=PHONE, height=844, locale="es-AR")
    es.goto(app_harness.frontend_url.rstrip("/") + "/mesa/no-existe")
    expect(es.get_by_text("Esta mesa no existe o expiró.")).to_be_visible()
    # not "Cacheta", as if a game were open in the tab
    expect(es).to_have_title("Pife o Cacheta · Página no encontrada")


DOLLARS = "R$ $& $' $` $1 fim"  # JavaScript's replacement patterns in a display name


def test_a_name_with_dollar_patterns_reads_as_typed(app_harness, new_page):
    """A sentence holding a name shows the name as typed: ``$&``, ``$'``, ``$``` and ``$1``
    are not expanded (the page fills ``{name}`` in the browser)."""
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    b = new_page(width=PHONE, height=844)
    join_table(b, a.url, DOLLARS)
    expect(a.locator(".lobby-seat").filter(has_text="fim")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    # seat 1 plays first in a two-player Pife: Ana's status line names Bruno's seat
    expect(a.locator("#status-line")).to_have_text(f"Vez de {DOLLARS}")
    expect(b.locator("#status-line")).to_contain_text("Sua vez")


BRACES = "{card} & {other}"  # the history's own placeholders in a display name


def test_a_name_with_placeholders_reads_as_typed_in_the_history(app_harness, new_page):
    """A history line shows a name as typed even when it holds the line's other placeholders
    ("{other}", "{card}"): they are filled in one pass, never inside the name."""
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    b = new_page(width=PHONE, height=844)
    join_table(b, a.url, BRACES)
    expect(a.locator(".lobby-seat").filter(has_text="other")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    # seat 1 plays first in a two-player Pife
    expect(b.locator("#status-line")).to_contain_text("Sua vez")
    b.get_by_role("button", name="COMPRAR").click()
    line = a.locator("#history-side .hist-line").first
    expect(line).to_contain_text(f"{BRACES} comprou do monte")
    expect(a.locator("#history-live")).to_have_text(f"{BRACES} comprou do monte")


def test_html_lang_follows_the_viewers_language(app_harness, new_page):
    """``<html lang>`` names the language the page is read in (not Reflex's default "en")."""
    es = new_page(locale="es-AR")
    es.goto(app_harness.frontend_url)
    expect(es.get_by_role("button", name="CREAR MESA")).to_be_visible()
    expect(es.locator("html")).to_have_attribute("lang", "es")
    expect(es).to_have_title("Pife o Cacheta")  # the tab's title in the reader's language too
    es.goto(app_harness.frontend_url.rstrip("/") + "/reglas")
    expect(es.locator("html")).to_have_attribute("lang", "es")
    expect(es).to_have_title("Pife o Cacheta · Reglas")
    es.goto(app_harness.frontend_url)
    es.locator("#lang-pt").click()
    expect(es.get_by_role("button", name="CRIAR MESA")).to_be_visible()
    expect(es.locator("html")).to_have_attribute("lang", "pt")
    expect(es).to_have_title("Pife ou Cacheta")
    es.reload()
    expect(es.get_by_role("button", name="CRIAR MESA")).to_be_visible()
    expect(es.locator("html")).to_have_attribute("lang", "pt")


def test_a_long_deck_name_keeps_the_phone_header_in_the_screen(app_harness, new_page, shot):
    """With "Quatro cores" / "Índice grande" chosen, the top bar still fits 390 px: the page
    does not slide sideways and ES stays on screen."""
    for lang_id, option in (("pt", "Quatro cores"), ("es", "Índice grande")):
        page = new_page(width=PHONE, height=844)
        page.goto(app_harness.frontend_url)
        page.locator(f"#lang-{lang_id}").click()
        page.get_by_role("combobox", name="Baralho" if lang_id == "pt" else "Baraja").click()
        page.get_by_role("option", name=option).click()
        expect(page.get_by_role("combobox")).to_contain_text(option[:4])
        _no_sideways_scroll(page)
        box = page.locator("#lang-es").bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE
        shot(page, f"header_deck_{lang_id}_390")


def test_the_invite_link_goes_out_by_whatsapp_or_the_share_sheet(app_harness, new_page):
    """Beside COPIAR LINK: WHATSAPP opens wa.me with the invitation typed in (in the viewer's
    language), COMPARTILHAR the system share sheet with the link."""
    from urllib.parse import parse_qs, urlparse

    a = new_page(width=PHONE, height=844)
    a.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    invite = a.locator("#invite-url").input_value()
    assert "/mesa/" in invite
    whatsapp = a.get_by_role("link", name="Convidar pelo WhatsApp")
    expect(whatsapp).to_have_attribute("href", re.compile(r"^https://wa\.me/\?text="))
    text = parse_qs(urlparse(whatsapp.get_attribute("href")).query)["text"][0]
    assert text == f"Vem jogar Pife ou Cacheta comigo: {invite}"
    a.get_by_role("button", name="Compartilhar o link").click()
    a.wait_for_function("() => window.__shared !== undefined")
    shared = a.evaluate("() => window.__shared")
    assert shared["url"] == invite and shared["title"] == "Pife ou Cacheta"
    a.locator("#lang-es").click()
    expect(a.get_by_role("link", name="Invitar por WhatsApp")).to_have_attribute(
        "href", re.compile(r"Ven%20a%20jugar")
    )
