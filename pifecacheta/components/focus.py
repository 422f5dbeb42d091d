"""Where the keyboard focus goes after an action and after a live update (WCAG 2.4.3).

A pressed button is often disabled or removed by the change it asks for (COMPRAR once drawn,
NA BOA once said, the whole centre once FIM DA RODADA shows); the browser then drops the focus
on the page's body, and a keyboard or screen-reader player starts again from the top. Two
things keep it on a sensible element, both run in the browser:

- a control asks, as it is pressed, for the element the focus should go to once the server's
  change has arrived (:func:`want_focus`: the card just drawn, the card taken from the lixo,
  FIM DA RODADA's title, COMEÇAR, the hand);
- :func:`focus_keeper` (once on the page) watches the page: the element asked for gets the
  focus as soon as it is there (within :data:`WANT_MS`); and when the focused element is
  removed or disabled by a live update that nobody asked for (another player's BATER, a
  PRÓXIMA RODADA pressed elsewhere), the focus goes to the first of :data:`FALLBACK` on the page;
- when the app moves to another page without loading it (CRIAR MESA, a table of MINHAS MESAS,
  REGRAS DO JOGO) and the focus was lost with the old page, it goes to the new page's title
  (:data:`PAGE_TITLE`), where a screen reader starts reading the new page and Tab goes on;
- when a dialog closes and takes the focus with it (REVER A RODADA, VERIFICAR: opened by an
  event, not by a Radix trigger, which would give it back itself), the focus goes back to the
  element that had it before the dialog opened, when it is still there;
- when FIM DA RODADA (:data:`ROUND_TITLE`) comes on a page that showed a round in play
  (:data:`IN_PLAY`), whoever's move ended it, the focus goes to its title (unless it is in an
  open dialog). The rule above misses
  that case: the viewer's own hand stays on the page under FIM DA RODADA, so a focused card of
  it is neither removed nor disabled and the focus would stay there, under the round's end.

A key press or a pointer press of the player's own cancels a pending request: the focus never
jumps away from where the player has since moved it. After a tap or a click the focus moves
without scrolling the page (the page must not move under a finger; the keyboard's focus, after
a key, is scrolled into view as usual).
"""

from __future__ import annotations

import json
from typing import Any

import reflex as rx
from reflex_base.vars import Var
from reflex_base.vars.function import FunctionStringVar, FunctionVar

from pifecacheta.components.reflex_private import js_function

WANT_MS = 6000
"""How long a request of :func:`want_focus` waits for its element, in milliseconds."""

HAND_STOP = '#hand .hand-card[tabindex="0"]'
"""The hand's one Tab stop (its roving focus, components/table/hand.py)."""

DRAWN_CARD = "#hand .hand-card:has(.drawn-mark)"
"""The hand's card just drawn from the stock (it carries the NOVA mark)."""

ROUND_TITLE = "#round-title"
"""FIM DA RODADA / FIM DA PARTIDA (focusable by script: ``tabindex=-1``)."""

PAGE_TITLE = "[data-page-title]"
"""A page's title (:func:`page_title`): where the focus goes after the app moved to that page."""

IN_PLAY = '[data-testid="stock"]'
"""The stock: on the page while a round is in play (FIM DA RODADA replaces it)."""

FALLBACK: tuple[str, ...] = (ROUND_TITLE, HAND_STOP, "#start-button", '[data-testid="stock"]', "#status-line")
"""Where a focus lost to a live update goes: the first of these selectors on the page."""

_KEEPER = (
    "((fallback, wantMs, playing) => { if (window.pfcWantFocus) return;"
    " let want = null; let last = null; let pointer = false;"
    " const usable = (el) => el && !el.disabled && el.isConnected && el.getClientRects().length > 0;"
    " const pick = (sels) => { for (const s of sels) { if (!s) continue;"
    " const el = document.querySelector(s); if (usable(el)) return el; } return null; };"
    " window.pfcWantFocus = (...sels) => { sels = sels.filter(Boolean);"
    " want = sels.length ? {sels, until: Date.now() + wantMs} : null; check(); };"
    " document.addEventListener('keydown', () => { want = null; pointer = false; }, true);"
    " document.addEventListener('pointerdown', () => { want = null; pointer = true; }, true);"
    " const go = (el) => { if (document.activeElement !== el) el.focus({preventScroll: pointer}); };"
    " const inDialog = (el) => !!(el && el.closest && el.closest('[role=dialog],[role=alertdialog]'));"
    " let opener = null; let lastInDialog = false;"
    " document.addEventListener('focusin', (e) => { const d = inDialog(e.target);"
    " if (d && !lastInDialog) opener = last; last = e.target; lastInDialog = d; });"
    " let played = false; let path = location.pathname;"
    " const check = () => {"
    " if (location.pathname !== path) { path = location.pathname; const a = document.activeElement;"
    " if (!a || a === document.body || !a.isConnected) {"
    f" want = {{sels: [{json.dumps(PAGE_TITLE)}], until: Date.now() + wantMs}}; last = null; }} }}"
    " const title = document.querySelector(fallback[0]);"
    " if (title && played && usable(title)) { played = false; const a = document.activeElement;"
    " if (!inDialog(a)) {"
    " want = null; last = title; go(title); return; } }"
    " if (!title && document.querySelector(playing)) played = true;"
    " if (want) { if (Date.now() > want.until) { want = null; } else { const el = pick(want.sels);"
    " if (el) { want = null; last = el; go(el); return; } } }"
    " const a = document.activeElement;"
    " if ((!a || a === document.body) && last && !usable(last)) {"
    " const back = lastInDialog && usable(opener) ? opener : null; last = null; lastInDialog = false;"
    " const el = back || pick(fallback); if (el) go(el); } };"
    " let queued = false;"
    " new MutationObserver(() => { if (queued) return; queued = true;"
    " requestAnimationFrame(() => { queued = false; check(); }); })"
    ".observe(document.body, {subtree: true, childList: true, attributes: true,"
    " attributeFilter: ['disabled', 'tabindex']});"
    f" }})({json.dumps(list(FALLBACK))}, {WANT_MS}, {json.dumps(IN_PLAY)})"
)
"""The keeper's script (installed once per page; a second call does nothing)."""


def focus_keeper() -> rx.Component:
    """An empty element that installs the keeper's script when the page mounts (no round trip
    to the server: ``rx.call_script`` runs in the browser)."""
    return rx.box(  # type: ignore[no-any-return]
        on_mount=rx.call_script(_KEEPER), id="focus-keeper", style={"display": "none"}
    )


def page_title() -> dict[str, Any]:
    """The props that make a page's title (a heading) the place the focus goes when the app
    moves to that page (:data:`PAGE_TITLE`): focusable by script only (``tabindex=-1``, not a
    Tab stop). One title per page view."""
    return {"custom_attrs": {"data-page-title": "true"}, "tab_index": -1}


def want_focus(*selectors: Any) -> FunctionVar[Any]:
    """A browser action for an event chain: once the server's change has arrived, move the focus
    to the first of ``selectors`` (CSS selectors, strings or string Vars; "" is skipped) found on
    the page, usable and shown, within :data:`WANT_MS`. Nothing when the keeper is not on the page."""
    call = FunctionStringVar.create("window.pfcWantFocus").call(*(Var.create(s) for s in selectors))
    guarded: Var[Any] = Var(_js_expr=f"(window.pfcWantFocus && {call})", _var_data=call._get_all_var_data())
    return js_function((), guarded)


def card_in_hand(card_id: Any) -> Var[str]:
    """The selector of the hand's box holding the card ``card_id`` (a string Var, "7C1")."""
    selector: Var[str] = (
        Var.create('#hand .hand-card:has([id="card-') + Var.create(card_id) + Var.create('"])')
    )
    return selector
