"""Motion you can follow (issue 11, item 2): the card of each move travels between the stock or
the lixo and the seat that moved (``.pfc-fly``, components/table/centre.py and
assets/table.css), a new element for each move, and nothing travels under "reduce motion".

Ana plays against one bot, which waits ``BOT_DELAY`` seconds before each of its moves (the
app's own service, run in this process by AppHarness), so its draw stays on the table long
enough to be seen before its discard.
"""

from __future__ import annotations

import os
import re

import pytest
from _flows import create_table, in_process_service, service_or_skip
from _replay import BUTTONS, empty_the_stock, hand
from _round_end import PHONE, two_players
from playwright.sync_api import Page, expect

BOT_DELAY = 3.0  # seconds before each of the bot's moves (its draw is read while it shows, under load too)


def _animation(page: Page, selector: str) -> str:
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).animationName")


@pytest.fixture
def slow_bot():
    svc = in_process_service()
    if svc is None:
        pytest.skip("the app's service runs in another process")
    old = svc.bot_delay
    svc.bot_delay = BOT_DELAY
    yield svc
    svc.bot_delay = old


def test_a_bot_draw_and_discard_travel_and_reduce_motion_stops_them(app_harness, new_page, slow_bot):
    os.environ["PIFECACHETA_FIXED_SEED"] = "4242"
    a = new_page(width=1366, height=900)
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    a.locator("#add-one-bot").click()
    expect(a.locator(".lobby-seat").filter(has_text="robô")).to_have_count(1)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # Ana deals, so the bot (seat 1, across the felt) plays first: its draw leaves the stock
    # (or the lixo) toward its seat
    drawn = a.locator('.pfc-fly[data-seat="1"]:is([data-move="draw"], [data-move="take"])')
    expect(drawn).to_have_count(1, timeout=15_000)
    expect(drawn).to_have_attribute("data-place", "top")
    move = drawn.get_attribute("data-move")
    source = "stock" if move == "draw" else "discard"
    assert drawn.evaluate(f"el => !!el.closest('.pfc-source').querySelector('[data-testid={source}]')")
    assert _animation(a, '.pfc-fly[data-seat="1"]') == "pfc-fly-out"
    if move == "draw":  # a back, never a face: the drawn card is the bot's secret
        assert drawn.locator("[data-card]").count() == 0
    # then its discard lands on the lixo from its seat; the lixo's new top card appears under it
    landed = a.locator('.pfc-fly[data-seat="1"][data-move="discard"]')
    expect(landed).to_have_count(1, timeout=15_000)
    top = a.get_by_test_id("discard").locator("[data-card]")
    expect(landed.locator("[data-card]")).to_have_attribute("data-card", top.get_attribute("data-card"))
    assert _animation(a, '.pfc-fly[data-move="discard"]') == "pfc-fly-in"
    expect(top).to_have_class(re.compile(r"\bpfc-land\b"))
    assert _animation(a, '[data-testid="discard"] [data-card]') == "pfc-land"
    # each move is a new element (its animation plays anew): Ana's own draw goes to her seat
    landed.evaluate("el => { el.dataset.seen = '1'; }")
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    mine = a.locator('.pfc-fly[data-seat="0"][data-move="draw"]')
    expect(mine).to_have_attribute("data-place", "bottom")
    expect(a.locator(".pfc-fly[data-seen]")).to_have_count(0)
    # "reduce motion": the card does not travel, the lixo's card shows at once
    expect(top).not_to_have_class(re.compile(r"\bpfc-land\b"))
    a.emulate_media(reduced_motion="reduce")
    expect(mine).to_be_hidden()
    a.emulate_media(reduced_motion="no-preference")
    expect(mine).to_be_attached()
    assert _animation(a, '.pfc-fly[data-seat="0"]') == "pfc-fly-out"


# Each card that flies from the stock, as it appears: its move, and whether the stock under it
# showed a card back, or an empty slot the eye could see (not faded out).
_WATCH_STOCK = """() => {
  window.pfcFlights = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (!(node instanceof Element)) continue;
      const fly = node.matches('.pfc-fly') ? node : node.querySelector('.pfc-fly');
      const stock = fly && fly.closest('.pfc-source').querySelector('[data-testid=stock]');
      if (!stock) continue;
      const empty = stock.querySelector('.stock-empty');
      window.pfcFlights.push({move: fly.dataset.move, back: !!stock.querySelector('.stock-back'),
        emptyShown: !!empty && getComputedStyle(empty).opacity !== '0',
        label: stock.getAttribute('aria-label')});
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def _flights(page: Page) -> list[dict]:
    """The cards that flew from the stock since :data:`_WATCH_STOCK`, once there is one."""
    page.wait_for_function("() => window.pfcFlights.length > 0")
    return page.evaluate("() => window.pfcFlights.splice(0)")


def test_no_card_back_flies_off_an_empty_stock(app_harness, new_page):
    """The draw of the stock's last card: the back leaves the stock's place and the empty slot
    shows once it has gone (before, a back flew off a "Monte · 0" slot already drawn empty);
    the next draw, from the empty stock, turns the lixo into the stock first, and the back
    flies from that new stock. Both players' screens, pt and es."""
    svc = service_or_skip()
    a, b, code, who = two_players(new_page, app_harness, "pife", 7, b_size=PHONE)
    empty_the_stock(svc, code, who, down_to=1)
    pages = {0: (a, "pt"), 1: (b, "es")}
    for page, _ in pages.values():  # each screen caught up with the service's moves
        expect(page.get_by_test_id("stock")).to_have_attribute("aria-label", re.compile(r" 1$"))
        expect(page.get_by_test_id("stock").locator(".stock-back")).to_have_count(1)
        page.evaluate(_WATCH_STOCK)
    first = svc.snapshot(code, None).view.turn
    page, lang = pages[first]
    page.get_by_role("button", name=BUTTONS[lang]["draw"]).click()  # the last card
    for p, _ in pages.values():
        flights = _flights(p)
        assert [f["move"] for f in flights] == ["draw"], flights
        assert not flights[0]["back"] and not flights[0]["emptyShown"], flights
        expect(p.get_by_test_id("stock").locator(".stock-empty")).to_have_css("opacity", "1")
    page.locator("#hand [data-card]").first.dblclick()
    expect(hand(page)).to_have_count(9)
    page, lang = pages[1 - first]
    expect(page.get_by_role("button", name=BUTTONS[lang]["draw"])).to_be_enabled()
    page.evaluate("() => window.pfcFlights.splice(0)")
    page.get_by_role("button", name=BUTTONS[lang]["draw"]).click()  # from the empty stock
    expect(hand(page)).to_have_count(10)
    flights = _flights(page)
    assert [f["move"] for f in flights] == ["draw"] and flights[0]["back"], flights
    assert not flights[0]["label"].endswith(" 0"), flights
