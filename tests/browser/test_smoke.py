"""The home page in both languages and the deck designs."""

from playwright.sync_api import expect


def test_lobby_languages_and_decks(app_harness, new_page, shots_all):
    page = new_page(locale="es-ES")
    page.goto(app_harness.frontend_url)
    # first visit follows the browser language
    expect(page.get_by_role("button", name="CREAR MESA")).to_be_visible()
    shots_all(page, "lobby")
    page.locator("#lang-pt").click()
    expect(page.get_by_role("button", name="CRIAR MESA")).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name="CRIAR MESA")).to_be_visible()
