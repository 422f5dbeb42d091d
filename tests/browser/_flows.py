"""Steps several browser tests share: create and join a table, start two players, screenshots
at both widths, a table as the app's database stores it, and the app's own service when
AppHarness runs the backend in this process (bots that act at once, a simple turn for the human
player)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator

import pytest
from _planner import least_connected
from _replay import hand
from playwright.sync_api import Page, expect

from pifecacheta.rules.cards import Card
from pifecacheta.rules.solver import best_go_out

SIZES = ((390, 844), (1366, 900))


def create_table(page, url, name, mode_id):
    """On the home page at ``url``: type ``name``, pick the mode ``mode_id``, CRIAR MESA; waits
    for the waiting room with its invite link."""
    page.goto(url)
    page.locator("#name-input").fill(name)
    page.locator(f"#mode-{mode_id}").click()
    page.get_by_role("button", name="CRIAR MESA").click()
    page.wait_for_url("**/mesa/**")
    expect(page.locator("#invite-url")).to_have_value(page.url)


def join_table(page, url, name, lang="pt"):
    """Open the table at ``url`` and sit down as ``name``: opening the link seats nobody, so
    this types the name and presses SENTAR À MESA (the button in ``lang``), then waits until
    the seat is taken (the form is gone)."""
    page.goto(url)
    sit = "SENTAR À MESA" if lang == "pt" else "SENTARSE A LA MESA"
    page.locator("#join-name").fill(name)
    page.get_by_role("button", name=sit).click()
    expect(page.locator("#join-name")).to_have_count(0)


def start_two(new_page, app_harness, mode_id, seed, *, b_size=(1366, 900), b_locale="pt-BR"):
    """Ana creates a ``mode_id`` table dealt with ``seed``, Bruno joins in a second browser
    (``b_size``, ``b_locale``); returns the two pages, in the waiting room."""
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", mode_id)
    b = new_page(width=b_size[0], height=b_size[1], locale=b_locale)
    join_table(b, a.url, "Bruno", "es" if b_locale.startswith("es") else "pt")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    return a, b


def shots(page: Page, shot, name: str) -> None:
    """``screenshots/<name>_390.png`` and ``<name>_1366.png``; restores the viewport."""
    size = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(200)
        shot(page, f"{name}_{w}")
    page.set_viewport_size(size)


def in_process_service():
    """The app's TableService when AppHarness runs the backend in this process, else None."""
    from pifecacheta.service import get_service

    svc = get_service()
    return svc if svc.store.listeners else None  # the app registered its live-update listener


def service_or_skip():
    """:func:`in_process_service`, or the test is skipped (the app's service runs elsewhere)."""
    svc = in_process_service()
    if svc is None:
        pytest.skip("the app's service runs in another process")
    return svc


def stored_table(code: str):
    """Table ``code`` as the app's database (env ``PIFECACHETA_DB_URL``) holds it:
    ``(match_json, rows)``, ``rows`` its ``ActionLog`` rows oldest first (read, then detached)."""
    import sqlalchemy as sa
    from sqlmodel import Session, col, select

    from pifecacheta.models import ActionLog, GameTable

    engine = sa.create_engine(os.environ["PIFECACHETA_DB_URL"])
    try:
        with Session(engine) as s:
            t = s.exec(select(GameTable).where(GameTable.code == code)).one()
            of_table = select(ActionLog).where(ActionLog.table_id == t.id)
            rows = s.exec(of_table.order_by(col(ActionLog.id))).all()
            return t.match_json, list(rows)
    finally:
        engine.dispose()


def browser_identity(page: Page, name: str):
    """The player id + secret this browser keeps (localStorage), as the service's Identity."""
    from pifecacheta.service import Identity

    raw = page.evaluate("() => [localStorage.getItem('pc_player'), localStorage.getItem('pc_secret')]")
    pid, secret = (json.loads(x) if x and x.startswith('"') else x for x in raw)
    return Identity(player_id=pid, secret=secret, name=name)


@contextlib.contextmanager
def fast_bots(round_over_delay: float = 2.0) -> Iterator[bool]:
    """Bots act as soon as it is their turn (the sweeper's ``drive_once`` in a loop); FIM DA
    RODADA of a bots-only round closes after ``round_over_delay`` s. Yields False when the app's
    service is not reachable from this process (then the app's own sweeper drives, slower)."""
    from pifecacheta.sweeper import drive_once

    svc = in_process_service()
    if svc is None:
        yield False
        return
    old = svc.round_over_delay
    svc.round_over_delay = round_over_delay
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            if not drive_once(svc):
                stop.wait(0.02)

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    try:
        yield True
    finally:
        stop.set()
        t.join(5)
        svc.round_over_delay = old


def tab_to(page: Page, predicate: str, *, back: bool = False, limit: int = 60) -> None:
    """Press Tab (Shift+Tab when ``back``) until the focused element satisfies ``predicate``
    (a JavaScript function of the element); AssertionError after ``limit`` presses."""
    key = "Shift+Tab" if back else "Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        if page.evaluate(f"({predicate})(document.activeElement)"):
            return
    raise AssertionError(f"{key} never reached {predicate}")


def simple_turn(page: Page) -> None:
    """COMPRAR; BATER when the ten cards go out; else discard the least connected card."""
    page.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(page)).to_have_count(10)
    cards = [Card.parse(i[len("card-") :]) for i in hand(page).evaluate_all("els => els.map(e => e.id)")]
    wild = Card.parse(page.get_by_test_id("wild").locator("[data-card]").get_attribute("data-card"))
    wilds = frozenset({wild.face})
    if best_go_out(cards, wilds=wilds) is not None:
        page.get_by_role("button", name="BATER", exact=True).click()
        expect(page.locator("#round-title")).to_be_visible()
        return
    card = least_connected(cards, wilds)
    page.locator(f'[id="card-{card}"]').dblclick()
    # the card leaves the hand: 9 cards left, or none shown when a bot jumped on it and Ana,
    # FORA now, is no longer dealt in (a bots-only FIM DA RODADA may already have closed)
    expect(page.locator(f'#hand [id="card-{card}"]')).to_have_count(0)
