"""The deal's randomness (rules/shuffle.py, rules/verify_round.py): the integer-seeded source
is the one the tests plan with, the keyed source is the documented construction, unbiased."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from itertools import permutations

import pytest

from pifecacheta.rules import CACHETA_7, PIFE, Match, NextRound, RoundKey, full_deck, new_match
from pifecacheta.rules.actions import action_from_dict
from pifecacheta.rules.errors import RulesError
from pifecacheta.rules.shuffle import SeededSource
from pifecacheta.rules.verify_round import DECK, _uniform, byte_stream, deal, shuffled

SEED = bytes(range(32))
CONTRIB = ((0, b"\x11" * 32), (2, b"\x22" * 32))


def test_seeded_source_is_the_integer_shuffle_tests_plan_with() -> None:
    deck = list(full_deck())
    random.Random("7:1").shuffle(deck)
    m = new_match(PIFE, 2, seed=7)
    assert m.key is None
    assert m.round is not None and list(m.round.stock) == deck[: len(m.round.stock)]
    body = list(full_deck())[:10]
    random.Random("7:3:rebuild:2").shuffle(body)
    assert SeededSource(7, 3).shuffle(full_deck()[:10], "rebuild:2") == body


def test_the_byte_stream_is_hmac_sha256_in_counter_mode() -> None:
    msg = b"pifecacheta-deal-1\x00deal\x00" + b"\x00" + b"\x11" * 32 + b"\x02" + b"\x22" * 32
    want = b"".join(hmac.new(SEED, msg + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(3))
    stream = byte_stream(SEED, "deal", list(CONTRIB))
    assert bytes(next(stream) for _ in range(96)) == want


def test_uniform_rejects_the_biased_top_of_the_range() -> None:
    # n = 3: 2^32 = 3 * 1431655765 + 1, so u = 2^32 - 1 is rejected and the next 4 bytes used
    stream = iter(b"\xff\xff\xff\xff" + (7).to_bytes(4, "big"))
    assert _uniform(stream, 3) == 1
    assert _uniform(iter((2**32 - 2).to_bytes(4, "big")), 3) == (2**32 - 2) % 3


def test_fisher_yates_is_unbiased_on_three_items() -> None:
    counts = Counter(
        tuple(shuffled("abc", hashlib.sha256(str(i).encode()).digest(), "deal")) for i in range(6000)
    )
    assert set(counts) == set(permutations("abc"))
    assert all(850 < n < 1150 for n in counts.values()), counts


def test_the_keyed_deal_is_the_documented_construction() -> None:
    key = RoundKey(SEED, CONTRIB)
    m = new_match(CACHETA_7, 3, seed=1, key=key)
    hands, vira, stock = deal(SEED, list(CONTRIB), seats=3, dealer=0, active=[0, 1, 2], vira=True)
    assert m.round is not None
    assert [[str(c) for c in h] for h in m.round.hands] == hands
    assert str(m.round.vira) == vira and [str(c) for c in m.round.stock] == stock
    assert sorted(hands[0] + hands[1] + hands[2] + [vira] + stock) == sorted(DECK)
    # each input changes the deal: the seed, a contribution, the context
    other = RoundKey(SEED, ((0, b"\x11" * 32), (2, b"\x23" * 32)))
    assert new_match(CACHETA_7, 3, seed=1, key=other).round != m.round
    assert shuffled(DECK, SEED, "deal", CONTRIB) != shuffled(DECK, SEED, "rebuild:1", CONTRIB)
    assert new_match(CACHETA_7, 3, seed=2, key=key).round == m.round  # the integer seed plays no part


def test_keys_travel_with_the_match_and_the_next_round() -> None:
    key = RoundKey(SEED, CONTRIB)
    m = new_match(PIFE, 2, seed=5, key=key)
    assert Match.from_dict(m.to_dict()) == m
    nxt = NextRound(RoundKey(bytes(32)))
    assert action_from_dict(nxt.to_dict()) == nxt
    assert NextRound().to_dict() == {"type": "next_round"}
    with pytest.raises(RulesError):
        RoundKey(b"short")
    with pytest.raises(RulesError):
        RoundKey(SEED, ((2, b"\x11" * 32), (0, b"\x22" * 32)))  # not in seat order
