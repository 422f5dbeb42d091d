"""The in-memory matches beside the database: written through on a committed save, checked
against the row on every read, bounded, never ahead of the database."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pifecacheta.rules import PIFE, Draw, apply
from pifecacheta.service import TableService
from pifecacheta.service.cache import MatchCache

from .helpers import hidden_match, patch_match, play_human_move


def _pife(svc: TableService, people) -> str:
    ana, bia = people[0], people[1]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    return code


def test_reads_after_a_move_parse_nothing(svc: TableService, db_engine, people) -> None:
    code = _pife(svc, people)
    cache = svc.store.matches
    svc.act(code, people[1], Draw(), expected_version=svc.snapshot(code, people[1]).version)
    misses = cache.misses
    for _ in range(3):
        snap = svc.snapshots(code, [people[0], people[1], None])
    assert cache.misses == misses  # the saved match was kept: no parse
    assert snap[1].view.hand == hidden_match(db_engine, code).round.hands[1]


def test_a_rewrite_of_the_row_misses_the_cache(svc: TableService, db_engine, people) -> None:
    code = _pife(svc, people)
    svc.snapshot(code, None)
    patch_match(
        db_engine, code, lambda m: replace(m, lives=(9, 9)), keep_version=True
    )  # same version, new text
    assert svc.snapshot(code, None).view.lives == (9, 9)


def test_another_process_write_is_seen(db_engine, clock, people) -> None:
    one = TableService(db_engine, clock=clock, seed_source=lambda: 5, bot_delay=0)
    two = TableService(db_engine, clock=clock, seed_source=lambda: 5, bot_delay=0)
    code = _pife(one, people)
    v = one.snapshot(code, people[1]).version
    two.act(code, people[1], Draw(), expected_version=v)  # one's cache still holds version v
    snap = one.snapshot(code, people[1])
    assert snap.version == v + 1 and len(snap.view.hand) == 10


def test_a_rolled_back_save_is_not_kept(svc: TableService, people) -> None:
    code = _pife(svc, people)
    store = svc.store
    v = svc.snapshot(code, None).version
    with pytest.raises(RuntimeError), store.tx() as s:
        ld = store.load(s, code)
        store.commit_match(s, ld, apply(ld.match, 1, Draw()), 1, Draw(), "player:x")
        raise RuntimeError("after the save, before the commit")
    assert svc.snapshot(code, None).version == v
    assert store.matches._entries[code].version == v


def test_the_cache_is_bounded(db_engine, clock, people) -> None:
    svc = TableService(db_engine, clock=clock, seed_source=lambda: 5, bot_delay=0)
    svc.store.matches = MatchCache(2)
    codes = [_pife(svc, people) for _ in range(3)]
    for code in codes:
        svc.snapshot(code, None)
    assert len(svc.store.matches) == 2
    rng = random.Random(1)
    assert play_human_move(svc, db_engine, codes[0], people[1], 1, rng)  # the dropped one reloads
    assert svc.snapshot(codes[0], people[1]).view.hand_counts == (9, 10)
