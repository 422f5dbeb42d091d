"""The creator fills the table with Carmen, Tito and Luna; the bots play on their own."""

from __future__ import annotations

import os

from playwright.sync_api import expect


def test_bots_fill_seats_and_play(app_harness, new_page, shot):
    os.environ["PIFECACHETA_FIXED_SEED"] = "3"
    a = new_page(width=390, height=844)
    a.goto(app_harness.frontend_url)
    a.locator("#name-input").fill("Ana")
    a.locator("#mode-cacheta7").click()
    a.get_by_role("button", name="CRIAR MESA").click()
    a.wait_for_url("**/mesa/**")
    a.get_by_role("button", name="COMPLETAR COM ROBÔS").click()
    for bot in ("Carmen", "Tito", "Luna"):
        expect(a.locator(".lobby-seat").filter(has_text=bot)).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    # Ana (seat 0) deals: the three bots play first, then it is her turn (or a bot went out).
    my_turn_or_round_over = a.get_by_role("button", name="COMPRAR").or_(a.locator("#round-title"))
    expect(my_turn_or_round_over).to_be_enabled(timeout=30_000)
    expect(a.locator(".seat")).to_have_count(4)
    if a.locator("#round-title").count() == 0:
        expect(a.locator("#hand [data-card]")).to_have_count(9)
        expect(a.get_by_text("Lixo · 3")).to_be_visible()
    shot(a, "bots_table_390_pt")
