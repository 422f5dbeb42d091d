"""Every JavaScript snippet the app runs in the browser (through ``rx.call_script``, and the one
script of every page's head, :data:`UNANSWERED_MOVE_HOOK`), in one place.

Reflex has no component for the tab title, the favicon, the Notification API, sound or the
address bar's fragment; these small snippets fill that gap. Values from Python are inserted
with :func:`json.dumps` only (a catalog text or a path can hold quotes), never by formatting
raw text into code. ``tests/state/test_browser_scripts.py`` checks their shape and escaping;
the browser tests run them.
"""

from __future__ import annotations

import json
import re

from pifecacheta import i18n

READ_ACCESS_FRAGMENT = (
    "(() => { const key = window.location.hash.slice(1);"
    " window.history.replaceState(null, '', window.location.pathname); return key; })()"
)
"""The personal link's fragment (``player_id.secret``), taken out of the address bar at once.

A fragment is never sent in an HTTP request, so the key reaches no server log; the page then
redirects to the lobby."""

REQUEST_NOTIFICATIONS = (
    "(async () => { if (!('Notification' in window)) return 'unsupported';"
    " try { return await window.Notification.requestPermission(); } catch (e) { return 'denied'; } })()"
)
"""Ask the browser for permission to show notifications; the result is ``granted``, ``denied``,
``default`` or ``unsupported`` (no Notification API)."""

NOTIFICATION_PERMISSION = "('Notification' in window) ? window.Notification.permission : 'unsupported'"
"""The browser's current notification permission (same values as :data:`REQUEST_NOTIFICATIONS`)."""


def turn_signal(
    *, on: bool, title: str, icon: str, notify_title: str = "", notify_body: str = "", sound: str = ""
) -> str:
    """The snippet that shows (``on``) or clears the your-turn signal of a tab.

    Sets ``document.title`` to ``title`` and every ``<link rel=icon>`` to ``icon`` (a path under
    ``assets/``). When ``on``: plays ``sound`` (a path, "" = silent; a refused autoplay is
    ignored) and, while the tab is hidden and the permission is granted, shows a Notification
    ``notify_title`` / ``notify_body`` ("" = none) tagged ``pifecacheta-turn`` so a newer one
    replaces it. Evaluates to ``"notified"`` when a notification was created, else ``"shown"``.
    """
    args = json.dumps(
        {"on": on, "title": title, "icon": icon, "nt": notify_title, "nb": notify_body, "sound": sound}
    )
    return (
        f"((a) => {{ document.title = a.title;"
        " let links = document.querySelectorAll(\"link[rel~='icon']\");"
        " if (!links.length) { const l = document.createElement('link'); l.rel = 'icon';"
        " document.head.appendChild(l); links = [l]; }"
        " links.forEach((l) => { l.href = a.icon; l.type = 'image/svg+xml'; });"
        " if (!a.on) return 'shown';"
        " if (a.sound) { try { const p = new Audio(a.sound).play();"
        " if (p) p.catch(() => {}); } catch (e) {} }"
        " if (a.nt && document.visibilityState === 'hidden' && ('Notification' in window)"
        " && window.Notification.permission === 'granted') {"
        " try { new window.Notification(a.nt, {body: a.nb, icon: '/icon-192.png', tag: 'pifecacheta-turn'});"
        " return 'notified'; } catch (e) {} }"
        f" return 'shown'; }})({args})"
    )


def share_link(title: str, text: str, url: str) -> str:
    """The snippet that opens the system share sheet (``navigator.share``) with ``title``,
    ``text`` and ``url``; where the browser has none, it copies ``url`` to the clipboard.
    Evaluates (a promise) to ``"shared"``, ``"copied"`` or ``"cancelled"``."""
    args = json.dumps({"title": title, "text": text, "url": url})
    return (
        "(async (a) => { if (navigator.share) { try { await navigator.share(a); return 'shared'; }"
        " catch (e) { return 'cancelled'; } }"
        " try { await navigator.clipboard.writeText(a.url); } catch (e) {} return 'copied'; })"
        f"({args})"
    )


TABLE_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table code may be put in a cookie as (``secrets.token_urlsafe``'s alphabet)."""


def table_cookie(code: str) -> str | None:
    """The snippet that sets the cookie ``pc_table=<code>`` (``Path=/``, ``SameSite=Lax``), the
    one the cluster's nginx sets on a page load of ``/mesa/<code>`` and hashes the websockets on
    (``pifecacheta/proxy_conf.py``): a tab that reached the table by the app's own navigation
    then reconnects to the table's backend. None when ``code`` is not :data:`TABLE_CODE`."""
    if not TABLE_CODE.fullmatch(code):
        return None
    return f"document.cookie = {json.dumps(f'pc_table={code}; path=/; samesite=lax')}"


def load_page(path: str) -> str:
    """The snippet that loads ``path`` as a new page (``window.location.assign``): a full page
    load, with a new websocket, where Reflex's redirect would keep the page and its socket."""
    return f"window.location.assign({json.dumps(path)})"


def set_document_language(lang: str) -> str:
    """The snippet that sets ``<html lang>`` to ``lang`` (a language code)."""
    return f"document.documentElement.lang = {json.dumps(lang)}"


def deal_contribution(commitment: str) -> str:
    """The snippet that makes this browser's contribution to the deal committed as
    ``commitment`` (64 hex digits): 32 bytes from ``crypto.getRandomValues``, kept in
    ``localStorage`` under ``pfc-deal:<commitment>`` (so the Verificar view can find it again),
    the same value again if one is kept already. Evaluates to ``"<commitment>:<64 hex>"``."""
    args = json.dumps({"c": commitment})
    return (
        "((a) => { const k = 'pfc-deal:' + a.c; let v = null;"
        " try { v = window.localStorage.getItem(k); } catch (e) {}"
        " if (!v || !/^[0-9a-f]{64}$/.test(v)) {"
        " const b = new Uint8Array(32); window.crypto.getRandomValues(b);"
        " v = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');"
        " try { window.localStorage.setItem(k, v); } catch (e) {} }"
        f" return a.c + ':' + v; }})({args})"
    )


def kept_contribution(commitment: str) -> str:
    """The snippet that reads back the value this browser gave to the deal committed as
    ``commitment`` (``localStorage``); evaluates to the 64 hex digits, or ``""``."""
    args = json.dumps({"c": commitment})
    return (
        "((a) => { try { return window.localStorage.getItem('pfc-deal:' + a.c) || ''; }"
        f" catch (e) {{ return ''; }} }})({args})"
    )


LANG_STORAGE = "pc_lang"
"""The localStorage name of the player's language (``ViewerState.lang``)."""

LANGUAGE_FROM_BROWSER = (
    f"((key, known) => {{ try {{ if (localStorage.getItem(key)) return;"
    " const langs = navigator.languages && navigator.languages.length ? navigator.languages"
    " : [navigator.language || ''];"
    " for (const l of langs) { const p = String(l).toLowerCase().split('-')[0];"
    " if (known.includes(p)) { localStorage.setItem(key, p); return; } }"
    f" }} catch (e) {{}} }})({json.dumps(LANG_STORAGE)}, {json.dumps(list(i18n.LANGUAGES))})"
)
"""The first visit's language from the browser's own list (``navigator.languages``): the first
of :data:`~pifecacheta.i18n.LANGUAGES` in it goes to ``localStorage`` (:data:`LANG_STORAGE`)
before the page connects, unless the player already has one. A script of every page's head.

The websocket's ``Accept-Language`` (``ViewerState.pick_language``, the fallback when neither
language is in the list) is not always the browser's list: headless Chromium 150 sends
``en-US`` there whatever the page's own requests say."""


UNANSWERED_MOVE_HOOK = """(() => {
  const STATE = "___table____table_state.";
  const MOVES = [
    "draw", "take", "pile_click", "card_double", "drop_on_pile", "go_out", "announce", "next_round",
  ];
  let epoch = 0; // connections so far
  let pending = null; // {kind, args, epoch, seen: [version, serial] when it was sent}
  let dragged = ""; // the card of the last drag_start: a drop sends no card
  const seen = () => {
    const m = document.getElementById("pc-answered");
    return m ? [m.dataset.version, m.dataset.serial] : null;
  };
  const answered = () => {
    const now = seen();
    return !pending.seen || !now || now[0] !== pending.seen[0] || now[1] !== pending.seen[1];
  };
  const hooks = window.__reflex_otel || {};
  window.__reflex_otel = Object.assign(hooks, {
    onEventSend(event) {
      const name = String((event && event.name) || "");
      const at = name.lastIndexOf(STATE);
      if (at < 0) return;
      const kind = name.slice(at + STATE.length);
      const p = (event && event.payload) || {};
      if (kind === "drag_start") {
        dragged = String(p.card_id || "");
        return;
      }
      if (!MOVES.includes(kind) || typeof p.version !== "number") return;
      let move = { kind, args: { ...p } };
      if (kind === "drop_on_pile") {
        if (!dragged) return;
        move = { kind: "card_double", args: { card_id: dragged, version: p.version } };
      }
      if (kind === "pile_click" && p.phase !== "draw" && !p.selected) return; // a tap that does nothing
      pending = { ...move, epoch, seen: seen() };
    },
    onSocketDisconnect() {
      if (pending && answered()) pending = null;
    },
    onSocketConnect() {
      epoch += 1;
    },
  });
  window.pcUnanswered = () => {
    if (!pending || pending.epoch >= epoch) return null; // sent on this connection: answered on it
    const move = { kind: pending.kind, args: pending.args };
    pending = null;
    return move;
  };
})();
"""
"""The page-head script that remembers the last table move this page sent, so that the server can
apply it once after a reconnect or tell the player it was not made (``state/unanswered.py``).

It rides on Reflex's frontend instrumentation hooks, ``window.__reflex_otel`` (called by the
frontend's ``utils/state.js``; a private hook listed in ``components/reflex_private.py``):
``onEventSend`` for every event sent on the socket, ``onSocketConnect`` and
``onSocketDisconnect``. A move is a ``TableState`` event with a table version; it counts as
answered once the page shows another table version or a new refusal (the hidden
``#pc-answered`` element of the table page carries both). ``window.pcUnanswered()`` hands the
server a move sent on an earlier connection and not seen answered, once; it is ``null``
otherwise."""
