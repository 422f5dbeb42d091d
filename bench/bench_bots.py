"""Win rates of the bots on duplicate deals, with 95% intervals and decision times.

Every comparison is played on **duplicate deals**: deal ``d`` (the seeded deal of round 1 of
``new_match(rules, seats, seed=d)``) is played ``seats`` times, the tested policy sitting at
seat 0, 1, ... in turn and the opponents' policy at the other seats, so each deal's good and
bad hands (and the seat that starts) are dealt to the tested policy and to its opponents
alike and the luck of the deal cancels. A deal's score is the tested policy's share of its
``seats`` rounds (0, 1/4, ... 1); the win rate is the mean score over the deals and its **95%
interval is the normal interval of that mean over deals** (mean +- 1.96 sd / sqrt(deals)): the
deals are independent, the rotations of one deal are not, so the deal is the unit (a paired
interval; a Wilson interval on rounds would pretend the rotations were independent and come
out too narrow). Fair share: 50% heads-up (2 seats), 25% with 4 seats. Pife rounds are whole
matches; Cacheta rounds are round 1 of a match, the winner the seat that goes out.

Decision time: every call of the tested policy on its own turn or for NA BOA (the bench's
view building excluded), median / p95 / max in ms. The search Luna plays a fixed number of
samples per decision here (``--samples``, the ``PIFECACHETA_LUNA_SAMPLES`` setting), not wall
time, so the figures do not depend on the machine's load; its decision times do.

    nice -n 19 .venv/bin/python bench/bench_bots.py                  # every line-up, 200 deals
    nice -n 19 .venv/bin/python bench/bench_bots.py --deals 2400 --only "Pife:2:Luna:luna_v1"

``--only`` keeps the line-ups whose ``game:seats:tested:opponents`` contains one of its
comma-separated parts. ``--workers`` (default 1) splits the deals over processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pifecacheta.bots.arena import play_round, policy  # noqa: E402
from pifecacheta.bots.common import Policy, is_my_turn  # noqa: E402
from pifecacheta.rules import CACHETA_7, PIFE, Rules  # noqa: E402

GAMES: dict[str, Rules] = {"Pife": PIFE, "Cacheta": CACHETA_7}

#: (seats, tested, opponents) per game: the issue's targets, then the levels' order.
LINEUPS: tuple[tuple[int, str, str], ...] = (
    (2, "Luna", "luna_v1"),
    (4, "Luna", "simple"),
    (4, "Luna", "greedy"),
    (2, "luna_base", "luna_v1"),
    (4, "luna_base", "simple"),
    (4, "luna_base", "greedy"),
    (4, "luna_v1", "simple"),
    (4, "luna_v1", "greedy"),
    (4, "Carmen", "simple"),
    (4, "Carmen", "greedy"),
    (4, "Tito", "simple"),
    (4, "Tito", "greedy"),
    (4, "greedy", "simple"),
    (4, "simple", "random"),
    (2, "Luna", "simple"),
    (2, "Carmen", "Tito"),
    (2, "luna_v1", "Carmen"),
)

Lineup = tuple[str, int, str, str]  # game, seats, tested, opponents


def lineups() -> list[Lineup]:
    """Every (game, seats, tested, opponents) of :data:`LINEUPS`, both games."""
    return [(g, n, t, o) for g in GAMES for n, t, o in LINEUPS]


class _Timed:
    """Wraps a policy and records the seconds of each call that is a decision."""

    def __init__(self, pol: Policy) -> None:
        self.pol = pol
        self.times: list[float] = []

    def __call__(self, view, rng):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        a = self.pol(view, rng)
        dt = time.perf_counter() - t
        if is_my_turn(view) or view.can_announce:
            self.times.append(dt)
        return a


def _chunk(args: tuple[Lineup, int, int]) -> tuple[list[float], int, list[float]]:
    """Deals lo..hi-1 of one line-up, each with the seats rotated: (per-deal scores, capped
    rounds, decision seconds of the tested policy)."""
    (game, seats, tested, opp), lo, hi = args
    rules = GAMES[game]
    timed = _Timed(policy(tested))
    other = policy(opp)
    scores: list[float] = []
    capped = 0
    for deal in range(lo, hi):
        wins = 0
        for seat in range(seats):
            pols: list[Policy] = [other] * seats
            pols[seat] = timed
            r = play_round(rules, pols, seed=deal)
            wins += r.winner == seat
            capped += r.winner is None
        scores.append(wins / seats)
    return scores, capped, timed.times


def interval(scores: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean of per-deal scores and its 95% normal interval."""
    n = len(scores)
    mean = sum(scores) / n
    sd = statistics.stdev(scores) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals per line-up (default 200)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument(
        "--samples",
        type=int,
        default=32,
        help="search Luna's samples per decision (default 32; 0: the clock, PIFECACHETA_LUNA_MS)",
    )
    ap.add_argument("--only", default="", help="comma-separated filter on 'game:seats:tested:opponents'")
    ap.add_argument("--json", default="", help="also append each line-up's figures to this file (JSON lines)")
    args = ap.parse_args()
    if args.samples > 0:
        os.environ["PIFECACHETA_LUNA_SAMPLES"] = str(args.samples)
    else:  # the clock: PIFECACHETA_LUNA_MS, as the service plays
        os.environ.pop("PIFECACHETA_LUNA_SAMPLES", None)
    todo = lineups()
    if args.only:
        keys = args.only.split(",")
        todo = [x for x in todo if any(k in ":".join(map(str, x)) for k in keys)]
    step = max(1, math.ceil(args.deals / (4 * args.workers))) if args.workers > 1 else args.deals
    start = time.perf_counter()
    print(
        f"{args.deals} duplicate deals per line-up (seeds {args.first}..{args.first + args.deals - 1}, "
        f"seats rotated), search Luna {args.samples or 'PIFECACHETA_LUNA_MS'} samples per decision, "
        f"{args.workers} worker(s)"
    )
    head = (
        f"{'game':8} {'seats':>5} {'tested':8} {'vs':8} {'win rate':>8} {'95% CI':>15} {'fair':>5} "
        f"{'dec med ms':>10} {'p95':>7} {'max':>7} {'capped':>6}"
    )
    print(head, flush=True)
    pool = mp.Pool(args.workers) if args.workers > 1 else None
    try:
        for lu in todo:
            lo, hi = args.first, args.first + args.deals
            jobs = [(lu, a, min(hi, a + step)) for a in range(lo, hi, step)]
            results = pool.map(_chunk, jobs, chunksize=1) if pool else [_chunk(j) for j in jobs]
            scores = [x for r in results for x in r[0]]
            capped = sum(r[1] for r in results)
            times = [x * 1000 for r in results for x in r[2]]
            mean, low, high = interval(scores)
            game, seats, tested, opp = lu
            ci = f"[{low:.1%}, {high:.1%}]"
            med = statistics.median(times) if times else 0.0
            p95, mx = _pct(times, 0.95), max(times, default=0.0)
            print(
                f"{game:8} {seats:5} {tested:8} {opp:8} {mean:8.1%} {ci:>15} {1 / seats:5.0%} "
                f"{med:10.2f} {p95:7.1f} {mx:7.1f} {capped:6}",
                flush=True,
            )
            if args.json:
                row = dict(
                    game=game,
                    seats=seats,
                    tested=tested,
                    opponents=opp,
                    deals=len(scores),
                    rate=mean,
                    low=low,
                    high=high,
                    median_ms=med,
                    p95_ms=p95,
                    max_ms=mx,
                    capped=capped,
                    samples=args.samples,
                    first=args.first,
                )
                with open(args.json, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
    finally:
        if pool:
            pool.close()
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
