"""Quick check that the lobby renders and a table can be created."""

from playwright.sync_api import expect


def test_lobby_and_create(app_harness, new_page, shot):
    page = new_page()
    page.goto(app_harness.frontend_url)
    expect(page.get_by_role("button", name="CRIAR MESA")).to_be_visible()
    shot(page, "smoke_lobby")
    page.locator("#name-input").fill("Ana")
    page.get_by_role("button", name="CRIAR MESA").click()
    page.wait_for_url("**/mesa/**")
    expect(page.get_by_role("button", name="COMEÇAR")).to_be_visible()
    shot(page, "smoke_table_lobby")
