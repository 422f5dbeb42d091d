"""Issue 11's defects that had only state tests, checked in a real browser (session 23):

- defect 3: a double click on COMPRAR draws one card and says nothing (no "A mesa mudou…");
  the same for COMEÇAR (no "A partida já começou.", session 27);
- defect 4: after the lixo's card is taken, its twin from the other deck is marked too and
  discarding the twin is refused with a message that names it; Escape in the hand dismisses
  that refusal (session 27);
- defect 8: a forged discard without its version (the websocket frame rewritten on its way
  out of the page) gets "Pedido inválido: nada mudou." and one log line, no traceback and no
  exception text in the page; the table does not change.

Ana (pt, seat 0) and Bruno (seat 1, plays first) at a two-seat Cacheta; Bruno's moves that
the test does not look at go through the app's own service (AppHarness runs it in this
process).
"""

from __future__ import annotations

import json
import logging
import re

from _flows import browser_identity, service_or_skip, start_two
from _replay import act, hand, wait_my_turn
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, Discard, Draw, apply, new_match, player_view
from pifecacheta.rules.cards import Card


def _bruno_draws(a: Page, b: Page) -> None:
    """Ana starts the match; Bruno, on turn, is shown his nine cards and COMPRAR."""
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    wait_my_turn(b)


def test_a_double_click_on_comprar_draws_one_card_and_says_nothing(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 7)
    _bruno_draws(a, b)
    b.get_by_role("button", name="COMPRAR", exact=True).dblclick()
    expect(hand(b)).to_have_count(10)
    # POR VALOR is an event of its own, queued behind both clicks: once the page shows it
    # pressed, the server has answered the second click too
    b.locator("#sort-rank").click()
    expect(b.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#message")).to_have_count(0)
    expect(b.get_by_role("alert")).to_have_count(0)
    expect(hand(b)).to_have_count(10)
    expect(a.locator('.seat[data-seat="1"]')).to_contain_text("10")  # one card, as Ana sees it


def test_a_double_click_on_comecar_starts_the_match_and_says_nothing(app_harness, new_page):
    """The second click of COMEÇAR finds the match begun: no "A partida já começou." (found
    by a newcomer trial, session 27)."""
    a, b = start_two(new_page, app_harness, "cacheta7", 7)
    a.get_by_role("button", name="COMEÇAR").dblclick()
    expect(hand(a)).to_have_count(9)
    # POR VALOR is queued behind both clicks: once it shows pressed, both are answered
    a.locator("#sort-rank").click()
    expect(a.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    expect(a.locator("#message")).to_have_count(0)
    expect(a.get_by_role("alert")).to_have_count(0)


def _twin_seed() -> tuple[int, str]:
    """A seed whose two-seat Cacheta deal lets Bruno, after his draw, discard a card (not a
    wild) whose twin from the other deck is in Ana's hand: ``(seed, that card)``."""
    for seed in range(1, 200):
        m = apply(new_match(CACHETA_7, 2, seed=seed), 1, Draw())
        bruno, ana = player_view(m, 1), player_view(m, 0)
        for c in bruno.hand:
            if c.twin in ana.hand and c.face not in bruno.wilds:
                return seed, str(c)
    raise LookupError("no seed")


def test_the_taken_cards_twin_is_marked_and_its_discard_refused_by_name(app_harness, new_page):
    svc = service_or_skip()
    seed, taken = _twin_seed()
    twin = taken + "'"
    a, b = start_two(new_page, app_harness, "cacheta7", seed)
    _bruno_draws(a, b)
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    bruno = browser_identity(b, "Bruno")
    act(svc, code, bruno, Draw())
    act(svc, code, bruno, Discard(Card.parse(taken)))
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", taken)
    wait_my_turn(a)
    a.get_by_role("button", name="PEGAR DO LIXO").click()
    expect(hand(a)).to_have_count(10)
    blue = re.compile(r"rgb\(95, 179, 255\)")
    for card in (taken, twin):
        expect(a.locator(f'[id="card-{card}"]')).to_have_css("outline-color", blue)
        expect(a.locator(f'[id="card-{card}"]')).to_have_css("outline-style", "solid")
        # a screen reader hears what the blue ring shows
        expect(a.locator(f'#hand .hand-card:has([id="card-{card}"])')).to_have_attribute(
            "aria-label", re.compile(r", não pode ser descartada nesta vez$")
        )
    names = a.locator("#hand .hand-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    noted = [n for n in names if n.endswith(", não pode ser descartada nesta vez")]
    assert len(names) == 10 and len(noted) == 2, names  # the other eight say nothing of it
    a.locator(f'[id="card-{twin}"]').dblclick()
    expect(a.locator("#message")).to_have_text(
        "A carta que veio do lixo não pode ser descartada nesta vez, nem a igual do outro baralho."
    )
    expect(hand(a)).to_have_count(10)
    # Escape with the focus in the hand dismisses the refusal (it covers the turn's buttons)
    a.locator(f'#hand [tabindex="0"]:has([id="card-{twin}"])').focus()
    a.keyboard.press("Escape")
    expect(a.locator("#message")).to_have_count(0)
    expect(hand(a)).to_have_count(10)


class _Forger:
    """Ana's websocket through Playwright: while ``armed``, the version is cut out of her
    page's next ``card_double`` event on its way to the server."""

    def __init__(self, page: Page) -> None:
        self.armed = False
        self.forged = 0
        page.route_web_socket(re.compile(r"/_event/"), self._connect)

    def _connect(self, ws) -> None:
        server = ws.connect_to_server()

        def outgoing(message) -> None:
            if self.armed and isinstance(message, str) and "card_double" in message:
                message = self._without_version(message)
            server.send(message)

        ws.on_message(outgoing)

    def _without_version(self, frame: str) -> str:
        head, sep, body = frame.partition("[")
        packet = json.loads(sep + body)
        event = packet[1]
        event["payload"].pop("version", None)
        self.armed = False
        self.forged += 1
        return head + json.dumps(packet)


class _Lines(logging.Handler):
    """Every log record of the app's backend (AppHarness runs it in this process)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_forged_discard_without_its_version_is_refused_clearly(app_harness, new_page):
    service_or_skip()
    a, b = start_two(new_page, app_harness, "cacheta7", 7)
    forger = _Forger(b)
    b.reload()  # the page's websocket now goes through the forger
    _bruno_draws(a, b)
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    lixo = a.get_by_test_id("discard").locator("[data-card]")
    expect(lixo).to_have_count(0)  # the first turn: the lixo is empty
    lines = _Lines()
    logging.getLogger().addHandler(lines)
    try:
        forger.armed = True
        hand(b).first.dblclick()
        toast = b.get_by_text("Pedido inválido: nada mudou.")
        expect(toast).to_be_visible()
    finally:
        logging.getLogger().removeHandler(lines)
    assert forger.forged == 1
    expect(hand(b)).to_have_count(10)  # nothing changed
    expect(lixo).to_have_count(0)
    body = b.locator("body").inner_text()
    assert "TypeError" not in body and "version" not in body and "argument" not in body, body
    tracebacks = [r for r in lines.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not tracebacks, [r.getMessage() for r in tracebacks]
    refused = [r for r in lines.records if "malformed" in r.getMessage()]
    assert len(refused) == 1, [r.getMessage() for r in lines.records]
