"""Replay engine actions as a player's clicks (used by the browser tests)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from pifecacheta.rules import AnnounceOneAway, Discard, Draw, GoOut, TakeDiscard

BUTTONS = {
    "pt": {
        "draw": "COMPRAR",
        "take": "PEGAR DO LIXO",
        "go_out": "BATER",
        "announce": "NA BOA",
        "next": "PRÓXIMA RODADA",
    },
    "es": {
        "draw": "ROBAR",
        "take": "TOMAR DEL POZO",
        "go_out": "CERRAR",
        "announce": "ME FALTA UNA",
        "next": "SIGUIENTE RONDA",
    },
}


def hand(page: Page):
    return page.locator("#hand [data-card]")


def card(page: Page, c) -> object:
    return page.locator(f'[id="card-{c}"]')


def wait_my_turn(page: Page, lang: str = "pt") -> None:
    expect(page.get_by_role("button", name=BUTTONS[lang]["draw"], exact=True)).to_be_enabled(timeout=10_000)


def play(page: Page, action, lang: str = "pt", *, gesture: str = "dblclick") -> None:
    """Do ``action`` through the UI of ``page`` (the acting player's own page)."""
    b = BUTTONS[lang]
    if isinstance(action, Draw):
        wait_my_turn(page, lang)
        if gesture == "tap":
            page.get_by_test_id("stock").click()
        else:
            page.get_by_role("button", name=b["draw"], exact=True).click()
        expect(hand(page)).to_have_count(10)
    elif isinstance(action, TakeDiscard):
        wait_my_turn(page, lang)
        page.get_by_role("button", name=b["take"], exact=True).click()
        expect(hand(page)).to_have_count(10)
    elif isinstance(action, Discard):
        target = card(page, action.card)
        if gesture == "drag":
            target.drag_to(page.get_by_test_id("discard"))
        elif gesture == "tap":
            target.click()
            page.get_by_test_id("discard").click()
        else:
            target.dblclick()
        expect(hand(page)).to_have_count(9)
    elif isinstance(action, GoOut):
        if action.discard is None:
            page.get_by_role("button", name=b["go_out"], exact=True).click()
        else:
            card(page, action.discard).drag_to(page.get_by_test_id("discard"))
    elif isinstance(action, AnnounceOneAway):
        page.get_by_role("button", name=b["announce"], exact=True).click()
    else:
        raise NotImplementedError(action)
