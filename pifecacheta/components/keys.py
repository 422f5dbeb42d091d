"""Keyboard handling of the controls that are not native buttons (WCAG 2.1.1).

The hand's cards, the stock and the discard pile are divs (the cards are dragged, the pile is
a drop target): :func:`on_keys` gives them what a ``<button>`` has by itself (Enter and Space
press it) and more (arrows move the focus in the hand). Everything runs in the browser as the
key goes down: a client-side action (a ``ClientStateVar`` setter, :func:`focus_element`) at
once, a state event queued as a click's would be. No hand-written JavaScript file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import reflex as rx
from reflex_base.event import EventSpec
from reflex_base.vars import ObjectVar, Var
from reflex_base.vars.function import FunctionStringVar, FunctionVar

from pifecacheta.components.reflex_private import js_function

# the browser functions of a key that does not match: nothing, and the key's default kept
_NOTHING = js_function((), Var.create(None))
# ``preventDefault`` of the key's DOM event: Space and the arrows do not scroll the page
_EVENT: ObjectVar[Any] = Var(_js_expr="ev").to(ObjectVar)
_PREVENT = js_function(("ev",), _EVENT["preventDefault"].to(FunctionVar).call())

Keys = str | tuple[str, ...]


def focus_element(element_id: Any) -> FunctionVar[Any]:
    """A browser action: move the keyboard focus to the element of DOM id ``element_id`` (a
    string or a string Var); nothing when the page has no such element."""
    element = FunctionStringVar.create("document.getElementById").call(element_id).to(ObjectVar)
    return js_function((), element.focus.to(FunctionVar).call())


def _matches(key: Var[str], keys: Keys) -> Var[bool]:
    names = (keys,) if isinstance(keys, str) else keys
    hit: Var[bool] = key == names[0]
    for name in names[1:]:
        hit = hit | (key == name)
    return hit


def _when(hit: Var[bool], event: Any) -> Any:
    """``event`` if ``hit`` (at the key press), else nothing: a browser function stays a
    browser function (run at once), a state event becomes a no-op event when not hit. An
    ``(only_if, event)`` pair adds its own condition."""
    if isinstance(event, tuple):
        only_if, event = event
        hit = hit & only_if
    if isinstance(event, EventSpec):
        return rx.cond(hit, event, rx.noop())
    return rx.cond(hit, event, _NOTHING).to(FunctionVar)


def on_keys(
    bindings: Mapping[Keys, Sequence[Any]],
    letters: Sequence[tuple[Var[str], Sequence[Any]]] = (),
    alt: Mapping[Keys, Sequence[Any]] | None = None,
) -> Callable[[Var[str], Var[Any]], list[Any]]:
    """An ``on_key_down`` handler (for a :class:`~pifecacheta.components.reflex_private.KeyDiv`).

    ``bindings`` maps a key, or a tuple of keys (DOM ``KeyboardEvent.key`` names: "Enter", " ",
    "ArrowRight", "Home"), to the events it runs, in order: state events (``EventSpec``, e.g.
    ``TableState.draw(v)``) and browser functions (a ``ClientStateVar`` setter,
    :func:`focus_element`); an ``(only_if, event)`` pair runs ``event`` only when the bool Var
    ``only_if`` holds at the key press. A bound key's default action is prevented (Space and the arrows
    do not scroll). Any other key, and a bound key held with Ctrl, Alt or Meta (the browser's
    and the screen reader's own shortcuts), does nothing and keeps its default: Tab moves on.

    ``letters`` adds keys known only in the browser: ``(letter, events)`` pairs, ``letter`` a
    string Var (a catalog text such as the shortcut of COMPRAR, "c" in pt, "r" in es) matched
    whatever its case.

    ``alt``: bindings of keys held with Alt alone (Alt+Left moves a hand card left).
    """

    def handler(key: Var[str], info: Var[Any]) -> list[Any]:
        mods: ObjectVar[Any] = info.to(ObjectVar)
        plain = ~(mods["ctrl_key"].to(bool) | mods["alt_key"].to(bool) | mods["meta_key"].to(bool))
        alt_only = mods["alt_key"].to(bool) & ~(mods["ctrl_key"].to(bool) | mods["meta_key"].to(bool))
        chain: list[Any] = []
        for held, table in ((plain, bindings), (alt_only, alt or {})):
            for keys, events in table.items():
                hit = held & _matches(key, keys)
                chain.append(_when(hit, _PREVENT))
                chain.extend(_when(hit, event) for event in events)
        for letter, events in letters:
            hit = plain & (key.to(str).lower() == letter.to(str).lower())
            chain.append(_when(hit, _PREVENT))
            chain.extend(_when(hit, event) for event in events)
        return chain

    return handler
