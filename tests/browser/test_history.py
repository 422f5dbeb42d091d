"""The move history in two browsers: a Cacheta round with takes from the lixo, a NA BOA and a
queue jump, told line by line in pt (Ana, desktop side panel) and es (Bruno, phone dialog),
checked against the action log replayed from the database; the past round reachable after
PRÓXIMA RODADA; the keyboard and the polite announcement; the frames of both players and a
spectator with the history on screen scanned for cards that were not public yet.

Screenshots: screenshots/history/ at the repository root, 390x844 and 1366x900, pt and es.
"""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from _flows import create_table, join_table, stored_table
from _frames import Recorder
from _history_plan import find_take_and_jump
from _replay import BUTTONS, play, wait_my_turn
from playwright.sync_api import Page, expect
from test_frames_secrecy import _quiet, rebuild_round, scan_viewer

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7, AnnounceOneAway, Discard, apply, new_match
from pifecacheta.rules.actions import action_from_dict

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "history"  # beside the other browser shots
NAMES = ("Ana", "Bruno")
SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _card_words(card, lang: str, spoken: bool) -> str:
    """A card in a sentence: "7♣", or spoken ("7 de paus") for a screen reader."""
    return i18n.card_label(card.code, lang) if spoken else card.code[:-1] + SYMBOL[card.code[-1]]


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _log_rows(code: str) -> list[tuple[int | None, dict, datetime]]:
    """(seat, action dict, at) of every action-log row of table ``code``, from the database."""
    _, rows = stored_table(code)
    return [(r.seat, json.loads(r.action_json), r.at) for r in rows]


def expected_lines(code: str, lang: str, final, *, spoken: bool = False) -> list[tuple[str, datetime]]:
    """The round's sentences in ``lang``, oldest first, with the time of each, worked out here
    from the action log and the catalog (not from the app's history code); ``spoken``: the
    cards by name, as a screen reader gets them."""

    def _sym(card) -> str:
        return _card_words(card, lang, spoken)

    lines: list[tuple[str, datetime]] = []
    m = None
    turn: tuple = ()
    for seat, entry, at in _log_rows(code):
        kind, at = entry["type"], _utc(at)
        if kind == "start":
            m = new_match(final.rules, final.seats, seed=final.seed)
            name = NAMES[m.dealer]
            lines = [(i18n.text(lang, "hist.round_start_vira", name=name, card=_sym(m.round.vira)), at)]
            continue
        if m is None or kind in ("create", "join", "add_bots"):
            continue
        before, m = m, apply(m, seat, action_from_dict(entry))
        if kind == "draw":
            turn = ("hist.draw_discard", seat, "")
        elif kind == "take_discard":
            turn = ("hist.take_discard", seat, _sym(before.round.discard_pile[-1]))
        elif kind == "discard":
            card = action_from_dict(entry).card
            lines.append(
                (i18n.text(lang, turn[0], name=NAMES[turn[1]], card=turn[2], discard=_sym(card)), at)
            )
            res = m.round.result
            if res is not None and res.out_of_turn:
                key = "hist.jump" if res.plan.discard is not None else "hist.jump_ten"
                text = i18n.text(lang, key, name=NAMES[res.winner], card=_sym(card), other=NAMES[seat])
                lines.append(
                    (text.replace("{discard}", _sym(res.plan.discard) if res.plan.discard else ""), at)
                )
        elif kind == "announce_one_away":
            lines.append((i18n.text(lang, "hist.announce", name=NAMES[seat]), at))
    return lines


def _visible_lines(page: Page, where: str):
    return page.locator(f"{where} .hist-line > span[aria-hidden=true]")


def _shot(page: Page, name: str) -> None:
    """A screenshot of the viewport, once the dialog's opening animation (if any) has ended."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect.getTiming().iterations === Infinity)"
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def _set_lang(page: Page, lang: str) -> None:
    page.locator(f"#lang-{lang}").click()
    expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")


def test_history_of_a_round_with_a_take_and_a_queue_jump(app_harness, new_page) -> None:
    seed, final, log = find_take_and_jump(CACHETA_7, max_actions=30)
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    # recorders attach before each page's first navigation: no frame is missed
    a = new_page()
    rec = {"Ana": Recorder(a)}
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    b = new_page(width=390, height=844, locale="es-AR")
    rec["Bruno"] = Recorder(b)
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    s = new_page(width=390, height=844)  # a spectator on a phone, history dialog open
    rec["spectator"] = Recorder(s)
    s.goto(a.url)
    a.get_by_role("button", name="COMEÇAR").click()
    wait_my_turn(b, "es")
    code = re.search(r"/mesa/([^/?#]+)", a.url).group(1)
    # desktop: the side panel shows the deal; phone: the panel is behind HISTORIAL
    side = a.locator("#history-side")
    expect(side).to_be_visible()
    expect(a.locator("#history-button")).to_be_hidden()
    expect(b.locator("#history-side")).to_be_hidden()
    expect(_visible_lines(a, "#history-side")).to_have_count(1)
    s.locator("#history-button").click()
    expect(s.locator("#history-dialog")).to_be_visible()
    pages, langs = {0: a, 1: b}, {0: "pt", 1: "es"}
    for i, (seat, action) in enumerate(log):
        play(pages[seat], action, langs[seat])
        if isinstance(action, AnnounceOneAway):  # the other player acts only once it is seen
            badge = i18n.text(langs[1 - seat], "badge.na_boa")
            seat_box = pages[1 - seat].locator(".seat").filter(has_text=NAMES[seat])
            expect(seat_box).to_contain_text(badge)
        if isinstance(action, Discard):
            # the move reached the other player's panel and the spectator's dialog, in words
            want = expected_lines(code, "pt", final)
            expect(_visible_lines(a, "#history-side").first).to_have_text(want[-1][0])
            expect(_visible_lines(s, "#history-dialog").first).to_have_text(want[-1][0])
            if seat == 1:  # Bruno's move, said to Ana once, the cards in words
                said = expected_lines(code, "pt", final, spoken=True)[-1][0]
                expect(a.locator("#history-live")).to_have_text(said)
        if i == 7:
            _shot(s, "mid_round_spectator_390_pt")
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    _quiet(a, rec.values())

    # every line, newest first, against the action log; each dated by its row
    want = expected_lines(code, "pt", final)
    kinds = [e["type"] for _, e, _ in _log_rows(code)]
    assert "take_discard" in kinds and "announce_one_away" in kinds
    expect(_visible_lines(a, "#history-side")).to_have_text([t for t, _ in reversed(want)])
    stamps = a.locator("#history-side .hist-line time").evaluate_all("els => els.map(e => e.dateTime)")
    assert [_utc(datetime.fromisoformat(x)) for x in stamps] == [at for _, at in reversed(want)]
    assert "furou a fila" in want[-1][0] and "pegou" in " ".join(t for t, _ in want)
    # the same round in Spanish in Bruno's dialog, opened by keyboard, closed with Escape
    b.locator("#history-button").focus()
    b.keyboard.press("Enter")
    dialog = b.locator("#history-dialog")
    expect(dialog).to_be_visible()
    want_es = expected_lines(code, "es", final)
    expect(_visible_lines(b, "#history-dialog")).to_have_text([t for t, _ in reversed(want_es)])
    expect(_visible_lines(b, "#history-dialog").first).to_contain_text("se coló")
    # screen readers get the cards' names, not the symbols
    sr = b.locator("#history-dialog .hist-line > span:not([aria-hidden])").first
    expect(sr).to_contain_text(" de ")
    _shot(b, "round_over_dialog_390_es")
    b.get_by_role("tab", name="Rondas").click()
    expect(b.locator("#history-dialog .hist-round")).to_have_count(1)
    expect(b.locator("#history-dialog .hist-round")).to_contain_text("Ronda 1")
    _shot(b, "rounds_dialog_390_es")
    b.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(b.locator("#history-button")).to_be_focused()

    # frames of all three viewers, with the history on screen the whole round: no card before
    # it was public (the take from the lixo, the jump and the melds included)
    k = rebuild_round(code)
    for who, seat in (("Ana", 0), ("Bruno", 1), ("spectator", None)):
        assert any("hist.take_discard" in f for f in rec[who].frames), who  # the panel's data did arrive
        leaks = scan_viewer(rec[who].frames, k, seat)
        assert not leaks, f"{who}: {leaks[:5]}"

    for lang in ("pt", "es"):  # the whole round beside FIM DA RODADA
        _set_lang(a, lang)
        expect(_visible_lines(a, "#history-side")).to_have_count(len(want))
        _shot(a, f"round_over_side_1366_{lang}")
    _set_lang(a, "pt")
    # after PRÓXIMA RODADA the past round stays reachable from the table
    a.get_by_role("button", name=BUTTONS["pt"]["next"]).click()
    expect(a.locator("#round-title")).to_have_count(0)
    expect(_visible_lines(a, "#history-side")).to_have_count(1)
    expect(_visible_lines(a, "#history-side").first).to_contain_text("deu as cartas")
    a.locator("#side-tab-rounds").click()
    past = a.locator("#history-side .hist-round")
    expect(past).to_have_count(1)
    res = final.round.result
    expect(past.locator(".past-went-out")).to_contain_text(NAMES[res.winner])
    expect(past.locator(".past-melds [data-card]")).to_have_count(sum(len(x.cards) for x in res.plan.melds))
    expect(past.locator(".past-lives .lives-row").nth(res.discarder)).to_contain_text(
        str(CACHETA_7.lives - 1)
    )
    expect(past.locator(".past-banner")).to_be_visible()
    for lang in ("pt", "es"):
        _set_lang(a, lang)
        a.locator("#side-tab-rounds").click()
        _shot(a, f"rounds_side_1366_{lang}")
        a.locator("#side-tab-moves").click()
        _shot(a, f"round2_side_1366_{lang}")
        a.set_viewport_size({"width": 390, "height": 844})
        expect(a.locator("#history-button")).to_be_visible()
        _shot(a, f"table_390_{lang}")
        a.locator("#history-button").click()
        expect(a.locator("#history-dialog")).to_be_visible()
        _shot(a, f"dialog_390_{lang}")
        a.keyboard.press("Escape")
        a.set_viewport_size({"width": 1366, "height": 900})
    _set_lang(a, "pt")
    # the keyboard reaches the tabs, with a visible focus ring
    a.locator("#side-tab-moves").focus()
    a.keyboard.press("ArrowRight")
    expect(a.locator("#side-tab-rounds")).to_be_focused()
    ring = a.locator("#side-tab-rounds").evaluate("e => getComputedStyle(e).outlineStyle")
    assert ring == "solid", ring
    _shot(a, "focus_rounds_tab_1366_pt")
