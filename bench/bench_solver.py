"""Benchmark of the go-out solver against the brute-force reference.

Run: ``.venv/bin/python bench/bench_solver.py [--hands 300] [--brute 30] [--seed 7]``

A fixed, seeded set of Cacheta hands, each holding one usable wild, half of them "clustered"
(cards drawn from a few neighbouring ranks, so many can go out or are one away) and half
uniformly random. Each fast call is timed as the best of 3 runs, the brute force once.
Prints the median and p95 of :func:`best_go_out` (10 cards) and
:func:`completing_faces` (the first 9 cards, from the stock and from the discard pile), the
brute-force reference's medians on the first ``--brute`` hands, and the ratio brute/fast.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pifecacheta.rules.brute import brute_best_go_out, brute_completing_faces  # noqa: E402
from pifecacheta.rules.cards import Card, Face, full_deck  # noqa: E402
from pifecacheta.rules.config import CACHETA_7  # noqa: E402
from pifecacheta.rules.melds import wild_faces  # noqa: E402
from pifecacheta.rules.one_away import completing_faces  # noqa: E402
from pifecacheta.rules.solver import best_go_out  # noqa: E402


def make_hands(count: int, seed: int) -> list[tuple[list[Card], frozenset[Face]]]:
    """``count`` (10-card hand, wild faces) pairs, each hand with one wild card."""
    rng = random.Random(seed)
    deck = full_deck()
    out = []
    for k in range(count):
        vira = rng.choice(deck)
        ws = wild_faces(vira, CACHETA_7)
        wild_cards = [c for c in deck if c.face in ws]
        rest = [c for c in deck if c.face not in ws and c != vira]
        if k % 2:
            lo = rng.randint(1, 9)
            suits = rng.sample(range(4), 2)
            rest = [c for c in rest if lo <= c.rank <= lo + 4 and c.suit.index in suits] or rest
        hand = rng.sample(rest, 9)
        hand.insert(rng.randrange(10), rng.choice(wild_cards))
        out.append((hand, ws))
    return out


def clear_memos() -> None:
    """Forget the solver's remembered answers (``best_go_out``, ``completing_faces``,
    ``is_one_away``), so that a timed call computes its answer."""
    from pifecacheta.rules import one_away, solver

    solver._best_go_out.cache_clear()
    one_away._completing_faces.cache_clear()
    one_away._one_away.cache_clear()


def timed(fn: Callable[..., object], *args: object, repeat: int = 3, **kw: object) -> float:
    """Best of ``repeat`` wall-clock timings of one call, in seconds (as timeit advises), each
    with the solver's memos cleared first (a repeat would otherwise be a memo look-up)."""
    best = float("inf")
    for _ in range(repeat):
        clear_memos()
        t = time.perf_counter()
        fn(*args, **kw)
        best = min(best, time.perf_counter() - t)
    return best


def stats(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--brute", type=int, default=30, help="hands also timed with the brute force")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    hands = make_hands(a.hands, a.seed)
    bgo, cfs, cfd = [], [], []
    outs = ones = 0
    for hand, ws in hands:
        bgo.append(timed(best_go_out, hand, wilds=ws))
        cfs.append(timed(completing_faces, hand[:9], wilds=ws, from_discard=False))
        cfd.append(timed(completing_faces, hand[:9], wilds=ws, from_discard=True))
        outs += best_go_out(hand, wilds=ws) is not None
        ones += bool(completing_faces(hand[:9], wilds=ws, from_discard=False))
    b_bgo, b_cf = [], []
    for hand, ws in hands[: a.brute]:
        b_bgo.append(timed(brute_best_go_out, hand, wilds=ws, repeat=1))
        b_cf.append(timed(brute_completing_faces, hand[:9], wilds=ws, from_discard=False, repeat=1))
    print(f"{len(hands)} hands with a wild (seed {a.seed}): {outs} can go out, {ones} one away")
    for name, xs in (
        ("best_go_out", bgo),
        ("completing_faces stock", cfs),
        ("completing_faces discard", cfd),
    ):
        med, p95 = stats(xs)
        print(f"{name:26s} median {med * 1e6:9.1f} us   p95 {p95 * 1e6:9.1f} us")
    fb, fc = statistics.median(bgo[: a.brute]), statistics.median(cfs[: a.brute])
    mb, mc = statistics.median(b_bgo), statistics.median(b_cf)
    print(
        f"brute best_go_out          median {mb * 1e6:9.1f} us   (first {a.brute} hands; "
        f"fast on them {fb * 1e6:.1f} us, ratio {mb / fb:.0f}x)"
    )
    print(
        f"brute completing_faces     median {mc * 1e6:9.1f} us   (stock; fast on them "
        f"{fc * 1e6:.1f} us, ratio {mc / fc:.0f}x)"
    )


if __name__ == "__main__":
    main()
