"""Live updates: "table X changed, tell its open tabs".

* ``feed.py``: the interface (:class:`LiveFeed`, :class:`Tab`, :class:`Delivery`).
* ``local.py``: its implementation for one backend process (:class:`LocalFeed`).
* ``redis_feed.py``: its implementation for processes sharing one Redis (``RedisFeed``).
* ``lease.py``: the Redis lease that lets one process of a cluster run the expiry.
* ``shards.py``: the bots' shards, one lease each, shared out among a cluster's backends.
* ``cluster.py``: which feed, and where the bots and the expiry run (``REFLEX_REDIS_URL`` or not).
* ``service_link.py``: publishes the service's changes that no event handler published.

:func:`current` is the feed of this process; the app's lifespan task (``pifecacheta.py``)
:func:`install`\\ s one built with the running Reflex app (``cluster.build_feed``). Until then it is a
:class:`LocalFeed` without an app, which registers and counts but pushes nothing.
"""

from __future__ import annotations

from pifecacheta.live.feed import Delivery, LiveFeed, Tab, tab_of
from pifecacheta.live.local import LocalFeed

__all__ = ["Delivery", "LiveFeed", "LocalFeed", "Tab", "current", "install", "tab_of"]

_feed: LiveFeed = LocalFeed()


def current() -> LiveFeed:
    """The live feed of this process."""
    return _feed


def install(feed: LiveFeed) -> LiveFeed:
    """Make ``feed`` the live feed of this process; returns it."""
    global _feed
    _feed = feed
    return feed
