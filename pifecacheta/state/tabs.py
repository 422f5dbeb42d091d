"""Which browser tabs show which table, and each table's change counter, in this process.

The live table (issue 3 item 5) pushes every change to every open tab of the table. This
module is the bookkeeping for that push (``state/table.py`` does the pushing):

* ``open(code, token)``: a tab (Reflex client token) shows table ``code`` now; it is moved off
  any table it showed before. ``TableState.load`` calls it, and Reflex runs ``load`` again on
  every (re)connect (the hydrate event queues the page's on_load), so after a dropped
  connection or a server restart the tab is registered again.
* ``bump(code)``: the table changed; returns its new counter (1, 2, ...). The counter keys the
  per-viewer snapshot cache (``state/snapshots.py``) and hides a stale refusal message.
* ``tokens(code)``: the tabs to push the change to.

Why not ``rx.SharedState`` (used before): every event of every tab linked to a table, a card
click included, took the table's shared lock for its whole run, so the pushes to the other
tabs went one after another, each re-evaluating the tab's ``TableState.ui`` twice (once when
the linked state is patched in, once for the delta); measured with ``bench/bench_latency.py
--trace``, up to 30 ms between two tabs' updates. Here a push locks only the tab it updates.

Only tokens (random per tab, not secret from the server) and counters live here: no cards.
One backend process serves the tables (the disk state manager and the sweeper are
per-process too), so an in-process registry sees every tab.
"""

from __future__ import annotations

import threading
from typing import Any


class TableTabs:
    """Thread-safe ``table code -> open tab tokens`` and ``table code -> change counter``.

    >>> tabs = TableTabs()
    >>> tabs.open("T1", "tab-a"), tabs.open("T1", "tab-b")
    (0, 0)
    >>> tabs.bump("T1"), tabs.version("T1"), tabs.version("T2")
    (1, 1, 0)
    >>> tabs.open("T2", "tab-b")  # the tab went to another table
    0
    >>> tabs.tokens("T1"), tabs.tokens("T2")
    (['tab-a'], ['tab-b'])
    >>> tabs.close("tab-a", "T1"); tabs.tokens("T1")
    []
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, set[str]] = {}  # code -> tokens
        self._table_of: dict[str, str] = {}  # token -> code
        self._versions: dict[str, int] = {}  # code -> change counter

    def open(self, code: str, token: str) -> int:
        """Tab ``token`` shows table ``code`` from now on; returns the table's counter."""
        with self._lock:
            old = self._table_of.get(token)
            if old is not None and old != code:
                self._drop(token, old)
            if token:
                self._table_of[token] = code
                self._tokens.setdefault(code, set()).add(token)
            return self._versions.get(code, 0)

    def close(self, token: str, code: str | None = None) -> None:
        """Tab ``token`` no longer shows a table (only if it shows ``code``, when given)."""
        with self._lock:
            current = self._table_of.get(token)
            if current is not None and (code is None or current == code):
                self._drop(token, current)

    def _drop(self, token: str, code: str) -> None:
        self._table_of.pop(token, None)
        left = self._tokens.get(code)
        if left is not None:
            left.discard(token)
            if not left:
                del self._tokens[code]

    def tokens(self, code: str) -> list[str]:
        """The tabs showing table ``code`` (sorted, for a stable order)."""
        with self._lock:
            return sorted(self._tokens.get(code, ()))

    def version(self, code: str) -> int:
        """Table ``code``'s change counter in this process (0 before its first change)."""
        with self._lock:
            return self._versions.get(code, 0)

    def bump(self, code: str) -> int:
        """Count one change of table ``code``; returns the new counter."""
        with self._lock:
            v = self._versions.get(code, 0) + 1
            self._versions[code] = v
            return v


TABS = TableTabs()


def tab_token(state: Any) -> str:
    """The Reflex client token of the tab running an event of ``state`` (any ``rx.State``;
    "" outside a real event, e.g. a unit test's stand-in with no router)."""
    return str(getattr(getattr(getattr(state, "router", None), "session", None), "client_token", "") or "")
