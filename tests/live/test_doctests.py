"""The examples in the live package's docstrings run (pytest's doctest paths do not include it)."""

from __future__ import annotations

import doctest

from pifecacheta.live import local, ring, shards


def test_the_watchers_examples_hold():
    result = doctest.testmod(local, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_the_bot_shards_examples_hold():
    result = doctest.testmod(shards, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_the_ring_examples_hold():
    result = doctest.testmod(ring, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
