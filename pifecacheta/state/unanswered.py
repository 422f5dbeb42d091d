"""A move the page sent as its connection dropped: applied once after the reconnect, or said.

A click can be lost in two ways around a backend that dies or restarts:

* sent on the socket at the instant the backend is killed: the frame goes into a dead
  connection, no answer ever comes, and Reflex's frontend does not send it again;
* made while the page has no connection: Reflex keeps it in the page's event queue and sends
  it right after the reconnect, before the page's on_load has run again. On a fresh tab state
  (a restarted process keeps no state in memory; a cluster hands a tab of a killed backend a
  new token) the table state then has no table yet (``TableState._ensure_open`` loads it
  first).

For the first, the page remembers the last table move it sent (the page-head script
``UNANSWERED_MOVE_HOOK`` of ``state/browser_scripts.py``, through Reflex's instrumentation
hooks ``window.__reflex_otel``: the event sent, the socket's connects and disconnects) and
whether the table or a refusal answered it before the socket went down. Every (re)load of the
table asks the page (:data:`ASK`, ``rx.call_script``) for a move sent on an earlier connection
and not seen answered; ``TableState.replay_unanswered`` then decides with the database, never
with the page's word: if the action log holds, at the version right after the move's, an action
of this player, the move was made (its answer was lost): nothing to do. Else, if the table is
still at the move's version, the move is applied now, once (the version guard refuses any
second copy). Else the table moved on without it: the player is told so (``err.lost_in_drop``)
and sees the table as it is."""

from __future__ import annotations

from typing import Any

# What the page may report: the table moves a click sends, each with the table version it saw.
REPLAYABLE = frozenset({"draw", "take", "pile_click", "card_double", "go_out", "announce", "next_round"})

ASK_SCRIPT = "window.pcUnanswered ? window.pcUnanswered() : null"
"""The snippet that asks the page (``UNANSWERED_MOVE_HOOK``) for its unanswered move:
``{"kind": "draw", "args": {"version": 12}}`` or null."""


def parse(sent: Any) -> tuple[str, dict[str, Any]] | None:
    """The move a page reported (``{"kind": ..., "args": {...}}``) as ``(kind, args)``, or None
    when it is not one of :data:`REPLAYABLE` with an int ``version`` (anything else a page or a
    forged event may send is ignored).

    >>> parse({"kind": "draw", "args": {"version": 3}})
    ('draw', {'version': 3})
    >>> parse({"kind": "resign", "args": {"version": 3}}), parse({"kind": "draw", "args": {"version": "3"}})
    (None, None)
    >>> parse(None), parse({"kind": "card_double", "args": {"version": 3}})
    (None, None)
    """
    if not isinstance(sent, dict):
        return None
    kind, args = sent.get("kind"), sent.get("args")
    if kind not in REPLAYABLE or not isinstance(args, dict) or type(args.get("version")) is not int:
        return None
    if kind == "card_double" and not isinstance(args.get("card_id"), str):
        return None
    if kind == "pile_click" and args.get("phase") != "draw" and not isinstance(args.get("selected"), str):
        return None
    return str(kind), dict(args)


def made(log: list[dict[str, Any]], player_id: str, version: int) -> bool:
    """True when ``log`` (the service's ``action_log``: dicts with ``version`` and ``actor``)
    holds the change to ``version + 1`` as an action of ``player_id``: a move sent at
    ``version`` by that player was applied.

    >>> made([{"version": 4, "actor": "player:p1"}], "p1", 3)
    True
    >>> made([{"version": 4, "actor": "bot:Tito"}], "p1", 3)
    False
    """
    return any(r.get("version") == version + 1 and r.get("actor") == f"player:{player_id}" for r in log)
