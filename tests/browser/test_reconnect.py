"""A dropped connection: the page comes back by itself and stays live, and a move made while
it was gone is made once it is back (issue 11, defect 6).

Every change is pushed to the tabs watching the table on the live feed (``pifecacheta/live``);
a tab whose socket is gone stops watching, and watches again when Reflex reconnects it (the
reconnect's hydrate runs the page's on_load, ``TableState.load``). Here Ana's websocket is
cut and her reconnects refused (Playwright routes her page's websocket) while Bruno draws, so
the push finds her gone; once she may connect again her page shows Bruno's draw by itself, and
his next move reaches her live.
"""

from __future__ import annotations

import re
import time

from _flows import in_process_service, start_two
from _replay import hand
from playwright.sync_api import expect


class _Cable:
    """Ana's websocket to the app, through Playwright: ``cut()`` drops it and refuses new
    connections until ``mend()``."""

    def __init__(self, page) -> None:
        self.up = True
        self.routes: list = []
        self.refused = 0
        page.route_web_socket(re.compile(r"/_event/"), self._connect)

    def _connect(self, ws) -> None:
        if not self.up:
            self.refused += 1
            ws.close()
            return
        ws.connect_to_server()
        self.routes.append(ws)

    def cut(self) -> None:
        self.up = False
        for ws in self.routes:
            ws.close()
        self.routes.clear()

    def mend(self) -> None:
        self.up = True


def test_a_dropped_connection_comes_back_live(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 11)
    cable = _Cable(a)
    a.reload()  # her page's websocket now goes through the cable
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    draw = b.get_by_role("button", name="COMPRAR", exact=True)
    expect(draw).to_be_enabled()  # Bruno plays first
    bruno_cards = a.locator('.seat[data-seat="1"] .seat-cards')
    expect(bruno_cards).to_have_text("9")

    cable.cut()
    a.wait_for_timeout(300)
    draw.click()  # pushed while Ana has no socket: she is dropped from the table's tabs
    expect(hand(b)).to_have_count(10)
    # her page did try to come back meanwhile: the route counts each refused try while
    # Playwright waits, so wait for the count instead of sleeping a fixed 0.7 s (a loaded
    # machine may take longer to get the page's first retry through)
    deadline = time.monotonic() + 15
    while cable.refused < 1 and time.monotonic() < deadline:
        a.wait_for_timeout(100)
    assert cable.refused >= 1
    expect(bruno_cards).to_have_text("9")  # cut off: her page cannot know yet

    cable.mend()
    # the reconnect brings the table back. Not at once: the route refuses a try by accepting the
    # page's socket and closing it before the engine.io handshake, which socket.io-client's
    # Manager does not report (no connect_error, no disconnect: it listens only for "open" and
    # "error" then), so the page tries again only at its 20 s connect timeout, counted from the
    # refused try. A 20 s wait from here held only by the ~1 s the steps above took after that
    # try (3 of 3 loaded runs failed once the 0.7 s sleep above became a wait for the count)
    expect(bruno_cards).to_have_text("10", timeout=45_000)
    # ... and she is live again: Bruno's discard reaches her without a reload
    card = hand(b).first.get_attribute("data-card")
    hand(b).first.dblclick()
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", card)
    expect(bruno_cards).to_have_text("9")


def _restarted(app_harness, token: str) -> None:
    """What a restart of the server does to a tab: its state (kept in memory, rxconfig.py) is
    gone; the database keeps the table. Drops the state of the tab ``token`` from the running
    app's memory state manager (every substate key of that token)."""
    states = app_harness.app_instance._state_manager.states
    for key in [k for k in list(states) if str(k).startswith(token)]:
        states.pop(key, None)


def _refused_tries(page, cable: _Cable, at_least: int) -> None:
    deadline = time.monotonic() + 15
    while cable.refused < at_least and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert cable.refused >= at_least


def test_a_double_tap_made_while_the_server_was_down_is_made_once_it_is_back(app_harness, new_page, code_of):
    """Bruno double-taps a card while his page has no server (his socket cut, the server's memory
    of his tab gone, as after a restart). The page keeps the click in its queue and sends it
    right after the reconnect, before the page's on_load runs again on the fresh tab state: the
    discard must be made then, once, and shown to Ana, with no refusal."""
    a, b = start_two(new_page, app_harness, "cacheta7", 11)
    cable = _Cable(b)
    b.reload()  # his page's websocket now goes through the cable
    expect(b.locator(".lobby-seat").filter(has_text="Ana")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    draw = b.get_by_role("button", name="COMPRAR", exact=True)
    expect(draw).to_be_enabled()  # Bruno plays first
    draw.click()
    expect(hand(b)).to_have_count(10)
    card = hand(b).first.get_attribute("data-card")  # its face, as the lixo shows it
    card_id = (hand(b).first.get_attribute("id") or "").removeprefix("card-")  # and which deck's
    token = b.evaluate("() => window.sessionStorage.getItem('token')")
    assert token

    cable.cut()
    _refused_tries(b, cable, 1)  # the page knows it is offline and tries to come back
    _restarted(app_harness, token)
    hand(b).first.dblclick()  # the double tap, while the server is unreachable
    expect(hand(b)).to_have_count(10)  # nothing happens yet
    cable.mend()
    # the reconnect can take up to the page's 20 s connect timeout (see the test above)
    expect(hand(b)).to_have_count(9, timeout=45_000)
    expect(a.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", card)
    expect(b.locator("#message")).to_have_count(0)  # no refusal: the discard was his move
    svc = in_process_service()
    assert svc is not None
    log = svc.action_log(code_of(a))
    discards = [
        r for r in log if card_id in (r["action"].get("card"), r["action"].get("discard")) and r["seat"] == 1
    ]
    assert len(discards) == 1, log[-4:]
