"""The live feed's interface: "table X changed, tell its open tabs".

A *tab* is one browser tab running the app (its Reflex client token). A tab *watches* the
table its page shows; when a change of the table is *published*, every watching tab but the
one that made it is told, and re-evaluates its own view of the table (``TableState.ui``).

The feed also counts the changes it published per table (:meth:`LiveFeed.changes`). That
count is what a tab holds in ``TableState.table_version``: it keys the per-viewer snapshot
cache (``state/snapshots.py``) and hides a stale refusal message. It is NOT the database's
``GameTable.version`` (committed writes of the table, the optimistic-concurrency check of
``TableService.act``) nor the snapshot cache's generation (commits heard by
``service.on_change`` in this process).

:class:`pifecacheta.live.local.LocalFeed` implements it for one backend process,
:class:`pifecacheta.live.redis_feed.RedisFeed` for processes sharing one Redis (there the
count is cluster-wide). The interface names tabs by token and tables by code only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Tab:
    """One browser tab: its Reflex client ``token`` and the Socket.IO session id (``socket``)
    it was on when it started watching ("" when unknown). Neither is secret: no cards."""

    token: str
    socket: str = ""


def tab_of(state: Any) -> Tab:
    """The tab running the current event of ``state`` (any ``rx.State``), from its public
    ``router.session``; ``Tab("")`` outside a real event (a unit test's stand-in, no router)."""
    session = getattr(getattr(state, "router", None), "session", None)
    token = str(getattr(session, "client_token", "") or "")
    socket = str(getattr(session, "session_id", "") or "")
    return Tab(token, socket)


@dataclass(frozen=True)
class Delivery:
    """One published change: the table's change ``count`` after it and the pushes telling
    the watching tabs (already running; awaiting them is optional)."""

    count: int
    pushes: Sequence[asyncio.Future[None]] = field(default_factory=tuple)

    async def delivered(self) -> None:
        """Wait for every push; raises the first push that failed (the others still ran)."""
        for result in await asyncio.gather(*self.pushes, return_exceptions=True):
            if isinstance(result, BaseException):
                raise result


class LiveFeed(Protocol):
    """Which tabs watch which table, and the telling of a table's changes to them."""

    def watch(self, code: str, tab: Tab) -> int:
        """``tab`` shows table ``code`` from now on (and no other table); returns the
        table's change count. A tab watches again after each reconnect (its page's on_load)."""
        ...

    def unwatch(self, token: str, code: str | None = None) -> None:
        """Tab ``token`` shows no table any more (only if it watches ``code``, when given)."""
        ...

    def watchers(self, code: str) -> list[str]:
        """The tokens of the tabs watching table ``code`` (sorted)."""
        ...

    def changes(self, code: str) -> int:
        """How many changes of table ``code`` this feed published (0 before the first)."""
        ...

    def publish(self, code: str, *, skip: str = "") -> Delivery:
        """Count one change of table ``code`` and tell every watching tab but ``skip`` (the
        tab that made it, which learns the new count in its own event's delta). Never
        blocks: the pushes run as tasks (none outside a running app or event loop)."""
        ...

    async def apublish(self, code: str, *, skip: str = "") -> Delivery:
        """:meth:`publish` for a caller on the event loop: the same count and pushes, without
        blocking the loop while the count is made (a cluster's Redis round trip)."""
        ...

    async def apublish_many(self, codes: Sequence[str]) -> list[Delivery]:
        """:meth:`apublish` of each of ``codes`` (in that order, no tab skipped), in one
        round trip where the feed makes any; their deliveries in the same order."""
        ...

    async def refresh(self, token: str) -> bool:
        """Re-evaluate tab ``token``'s view now (a state modification changing nothing:
        the tab gets the view only if it differs). False when there is no app to do it;
        raises what the state modification raises."""
        ...
