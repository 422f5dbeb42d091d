"""The keyboard handlers of the controls that are not native buttons (components/keys.py):
what they compile to in the page, since what they do is checked in a browser
(tests/browser/test_keyboard.py)."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components import reflex_private as rp
from pifecacheta.components.keys import focus_element, on_keys
from pifecacheta.state.table import TableState


def _key_down(div: rx.Component) -> str:
    props = div.render()["props"]
    return next(p for p in props if p.startswith("onKeyDown:"))


def test_a_key_div_declares_on_key_down_with_the_key_and_its_modifiers():
    div = rp.KeyDiv.create("x", on_key_down=TableState.set_join_name)
    assert "on_key_down" in div.get_event_triggers()
    assert "on_key_down" in rp.DnDDiv.create("x").get_event_triggers()
    assert '_e?.["key"]' in _key_down(div)


def test_a_bound_key_runs_its_events_and_prevents_its_default_only_when_it_matches():
    var = rp.client_state_var("pfc_test_keys", default="")
    div = rp.KeyDiv.create(
        "x",
        on_key_down=on_keys({("Enter", " "): [TableState.draw(3), var.set_value("7H")]}),  # type: ignore[operator]
    )
    js = _key_down(div)
    assert '"Enter"' in js and '" "' in js
    # the default is prevented in the branch of a bound key only: a plain function of the event
    assert '(ev) => (ev?.["preventDefault"]())' in js and "? ((ev) =>" in js
    # the state event is queued when the key matches, a no-op event otherwise
    assert "table_state.draw" in js and "_call_function" in js
    # the browser setter runs at once, not through the event queue
    assert "setPfc_test_keys" in js
    # Ctrl, Alt and Meta leave the browser's and the screen reader's shortcuts alone
    assert all(m in js for m in ('["ctrl_key"]', '["alt_key"]', '["meta_key"]'))


def test_an_only_if_pair_adds_its_condition():
    var = rp.client_state_var("pfc_test_keys2", default="")
    js = _key_down(
        rp.KeyDiv.create("x", on_key_down=on_keys({"Enter": [(var.value == "7H", TableState.draw(1))]}))
    )  # type: ignore[operator]
    assert js.count("pfc_test_keys2") >= 1 and "table_state.draw" in js


def test_focus_element_focuses_the_element_of_that_id():
    js = str(focus_element("hand-pos-2"))
    assert 'document.getElementById("hand-pos-2")' in js and '["focus"]()' in js


def test_a_letter_known_in_the_browser_matches_whatever_its_case():
    letter = rx.Var.create("c")
    js = _key_down(rp.KeyDiv.create("x", on_key_down=on_keys({}, [(letter, [TableState.draw(2)])])))  # type: ignore[operator]
    assert ".toLowerCase()" in js and "table_state.draw" in js
    assert '(ev) => (ev?.["preventDefault"]())' in js
