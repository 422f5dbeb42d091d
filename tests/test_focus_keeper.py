"""The focus keeper (components/focus.py): what its pieces compile to; where the focus goes is
checked in a browser (tests/browser/test_keyboard_round.py, tests/browser/test_keyboard.py)."""

from __future__ import annotations

import json

import reflex as rx

from pifecacheta.components import focus


def test_want_focus_asks_the_keeper_for_its_selectors_in_order_and_is_safe_without_it():
    js = str(focus.want_focus(focus.DRAWN_CARD, "#start-button"))
    assert js.startswith("(() => (window.pfcWantFocus && ")
    assert json.dumps(focus.DRAWN_CARD) in js and '"#start-button"' in js
    assert js.index(json.dumps(focus.DRAWN_CARD)) < js.index('"#start-button"')


def test_a_card_in_the_hand_is_found_by_its_id():
    selector = focus.card_in_hand(rx.Var.create("7H'"))
    assert "#hand .hand-card:has([id=" in str(selector) and "7H'" in str(selector)


def test_the_keeper_is_installed_once_and_falls_back_to_the_round_title_then_the_hand():
    keeper = focus._KEEPER
    assert keeper.startswith("((fallback, wantMs, playing) => { if (window.pfcWantFocus) return;")
    assert json.dumps(list(focus.FALLBACK)) in keeper and str(focus.WANT_MS) in keeper
    assert focus.FALLBACK[:2] == (focus.ROUND_TITLE, focus.HAND_STOP)
    # a key or a pointer press of the player's own cancels a pending request
    assert "addEventListener('keydown', () => { want = null; pointer = false; }, true)" in keeper
    assert "addEventListener('pointerdown', () => { want = null; pointer = true; }, true)" in keeper
    # FIM DA RODADA coming after a round in play (IN_PLAY) takes the focus, whoever ended it
    assert keeper.endswith(f"{json.dumps(focus.IN_PLAY)})") and focus.FALLBACK[0] == focus.ROUND_TITLE
    assert "if (!title && document.querySelector(playing)) played = true;" in keeper
    # after a pointer press the focus moves without scrolling the page
    assert "el.focus({preventScroll: pointer})" in keeper
    # installed as the page mounts, in the browser (no event to the server)
    mount = str(focus.focus_keeper().event_triggers["on_mount"])
    assert "_call_script" in mount and "window.pfcWantFocus" in mount
