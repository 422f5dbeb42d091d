"""What a screen reader hears of the table (issue 16, WCAG 1.3.1 / 4.1.2 / 4.1.3), in pt and es:
ARIA snapshots (Playwright's ``to_match_aria_snapshot``) of a seat, of the hand and of
FIM DA RODADA; the wild named as wild, the lixo with its top card and who discarded it; the
headings and their levels; the assertive region's "your turn" and the card just drawn.

Ana reads in Portuguese and Bruno in Spanish, at one two-seat Cacheta table; the planned round
(``_planner.find_seed``) is played through the app's own service, except Ana's first draw, made
on her page. Every expected text is built from the service's own snapshot and the catalogs.
"""

from __future__ import annotations

import json
import os

from _flows import browser_identity, create_table, join_table, service_or_skip
from _planner import find_seed
from _replay import act, hand, play_planned
from playwright.sync_api import expect

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7, Draw, NextRound
from pifecacheta.state.view_model import table_ui


def _card(card, lang: str) -> str:
    """A ``CardUi``'s spoken name in ``lang``, with the wild's word after a wild."""
    name = i18n.card_label(card.code, lang)
    return name + (", " + i18n.text(lang, "table.wild").lower() if card.wild else "")


def _seat_words(seat, lang: str) -> str:
    """The sentence of a ``SeatUi`` in ``lang`` (components/table/spoken.py's order)."""
    t = lambda key: i18n.text(lang, key)  # noqa: E731
    words = [seat.name]
    if seat.is_me:
        words.append(t("badge.you").lower())
    words.append(f"{seat.cards} {t('table.card') if seat.cards == 1 else t('table.cards')}")
    words.append(f"{seat.lives} {t('table.life') if seat.lives == 1 else t('table.lives')}")
    for flag, key in (("dealer", "badge.dealer"), ("turn", "badge.turn")):
        if getattr(seat, flag):
            words.append(t(key).lower())
    return ", ".join(words)


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def test_seats_hand_pile_and_round_end_read_in_words(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=14)
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    b = new_page(locale="es-ES")
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    pages = {0: (a, "pt"), 1: (b, "es")}
    a.get_by_role("button", name="COMEÇAR").click()
    for page, _ in pages.values():
        expect(hand(page)).to_have_count(9)

    # headings: one h1 (the table's own line), the hand's title an h2; the site's name is none
    for page, lang in pages.values():
        expect(page.get_by_role("heading", level=1)).to_have_count(1)
        expect(page.get_by_role("heading", level=1)).to_contain_text(i18n.text(lang, "mode.cacheta"))
        expect(page.get_by_role("heading", level=2, name=i18n.text(lang, "hand.title"))).to_be_visible()

    # every seat, on every page, as one sentence in the page's language
    for viewer, (page, lang) in pages.items():
        ui = table_ui(svc.snapshot(code, who[viewer]))
        for seat in ui.seats:
            panel = page.locator(f'.seat[data-seat="{seat.seat}"]')
            words = f"- group {_quote(seat.name)}:\n  - text: {_quote(_seat_words(seat, lang))}"
            expect(panel).to_match_aria_snapshot(words)
            # nothing else is read: the numbers, the icons and the badges are hidden
            assert panel.aria_snapshot() == f"- group {_quote(seat.name)}: {_seat_words(seat, lang)}"
        # the wild is named as a wild
        expect(page.get_by_test_id("wild").locator("[data-card]")).to_have_attribute(
            "aria-label", _card(ui.wild, lang)
        )
        # the hand: a toolbar of toggle buttons named by their cards, in the page's order
        lines = "\n".join(f"  - button {_quote(_card(c, lang))} [pressed=false]" for c in ui.hand_by_suit)
        expect(page.get_by_role("toolbar")).to_match_aria_snapshot(
            f"- toolbar {_quote(i18n.text(lang, 'hand.title'))}:\n{lines}"
        )

    # the first mover draws on the page: the assertive region said "your turn", then the card
    first, draw = log[0]
    assert isinstance(draw, Draw)
    page, lang = pages[first]
    announcer = page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "assertive")
    expect(announcer).to_have_text(i18n.text(lang, "a11y.your_turn"))
    expect(pages[1 - first][0].locator("#announcer")).to_have_text("")
    page.get_by_test_id("stock").press("Enter")
    expect(hand(page)).to_have_count(10)
    drawn = next(c for c in table_ui(svc.snapshot(code, who[first])).hand_by_suit if c.drawn)
    expect(announcer).to_have_text(i18n.text(lang, "a11y.drew").replace("{card}", _card(drawn, lang)))
    # the drawn card's "nova" tag is in its name, and only in its name
    expect(page.locator("#hand .hand-card:has(.drawn-mark)")).to_have_attribute(
        "aria-label", f"{_card(drawn, lang)}, {i18n.text(lang, 'hand.drawn')}"
    )
    tagged = f'#hand .hand-card[aria-label$=", {i18n.text(lang, "hand.drawn")}"]'
    expect(page.locator(tagged)).to_have_count(1)
    expect(pages[1 - first][0].locator("#announcer")).to_have_text("")  # nobody else hears it

    # the lixo: its top card and who discarded it
    seat, discard = log[1]
    act(svc, code, who[seat], discard)
    for viewer, (page, lang) in pages.items():
        top = table_ui(svc.snapshot(code, who[viewer])).discard_top
        by = (
            i18n.text(lang, "table.discard_by_me")
            if viewer == seat
            else i18n.text(lang, "table.discard_by", name=("Ana", "Bruno")[seat])
        )
        name = f"{i18n.text(lang, 'table.discard')}, {_card(top, lang)}, {by}"
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()

    # FIM DA RODADA: an h2 under the table's h1, each meld a group of named cards
    play_planned(svc, code, who, final, log[2:])
    seat = log[-1][0]
    for viewer, (page, lang) in pages.items():
        ui = table_ui(svc.snapshot(code, who[viewer]))
        expect(page.get_by_role("heading", level=2, name=i18n.text(lang, "round.title"))).to_be_visible()
        groups = []
        for n, meld in enumerate(ui.result_melds, start=1):
            cards = "\n".join(f"  - img {_quote(_card(c, lang))}" for c in meld.cards)
            groups.append(f"- group {_quote(i18n.text(lang, 'round.meld') + f' {n}')}:\n{cards}")
        expect(page.locator("#melds")).to_match_aria_snapshot("\n".join(groups))
        expect(page.get_by_role("heading", level=3, name=i18n.text(lang, "round.melds"))).to_be_visible()
        if viewer != seat:  # the polite region says the other player's go-out, in words
            expect(page.locator("#history-live")).to_contain_text(("Ana", "Bruno")[seat])

    # a live update that removes the focused element: Ana reads FIM DA RODADA's title when
    # Bruno's PRÓXIMA RODADA ends it; her focus goes to her new hand, not to the page's body
    a.locator("#round-title").focus()
    expect(a.locator("#round-title")).to_be_focused()
    act(svc, code, who[1], NextRound())
    expect(a.locator("#round-title")).to_have_count(0)
    expect(a.locator('#hand .hand-card[tabindex="0"]')).to_be_focused()
