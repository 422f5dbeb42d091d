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
from _flows import create_table, in_process_service
from _replay import hand
from playwright.sync_api import Page, expect

BOT_DELAY = 1.5  # seconds before each of the bot's moves


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
