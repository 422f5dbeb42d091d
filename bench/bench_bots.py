"""Win rates of the bots Carmen, Tito and Luna against the baselines, 4 seats.

For each game (Pife: each round is a match; Cacheta: rounds from a fresh deal, the winner
being who goes out first) and each line-up (1 bot vs 3 ``random_legal``, 1 bot vs 3 ``greedy``,
and ``greedy`` vs 3 ``random_legal``), plays ``--rounds`` seeded rounds (seeds 0..N-1; the
tested policy sits at seat ``seed % 4`` so every seat gets its turn to start) and prints the
tested policy's win rate with a 95% interval, the mean actions per round and the slowest
decision. A fair share in a 4-seat round is 25%.

    .venv/bin/python bench/bench_bots.py                 # 1000 rounds per line-up, 2 workers
    .venv/bin/python bench/bench_bots.py --rounds 200 --workers 1
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pifecacheta.bots.arena import play_round, policy  # noqa: E402
from pifecacheta.bots.common import Policy  # noqa: E402
from pifecacheta.rules import CACHETA_7, PIFE, Rules  # noqa: E402

GAMES: dict[str, Rules] = {"Pife": PIFE, "Cacheta": CACHETA_7}
BOTS = ("Tito", "Carmen", "Luna")


def lineups() -> list[tuple[str, str, str]]:
    """(game, tested policy, opponents' policy)."""
    out = []
    for game in GAMES:
        for bot in BOTS:
            out.append((game, bot, "random"))
            out.append((game, bot, "greedy"))
        out.append((game, "greedy", "random"))
    return out


class _Timed:
    def __init__(self, pol: Policy) -> None:
        self.pol = pol
        self.worst = 0.0
        self.total = 0.0
        self.calls = 0

    def __call__(self, view, rng):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        a = self.pol(view, rng)
        dt = time.perf_counter() - t
        self.total += dt
        self.calls += 1
        self.worst = max(self.worst, dt)
        return a


def _chunk(args: tuple[str, str, str, int, int]) -> tuple[int, int, int, int, float, float, int]:
    """Play seeds lo..hi-1 of one line-up: (wins, rounds, capped, actions, worst s, total s, calls)."""
    game, tested, opp, lo, hi = args
    rules = GAMES[game]
    timed = _Timed(policy(tested))
    wins = capped = actions = 0
    for seed in range(lo, hi):
        seat = seed % 4
        pols: list[Policy] = [policy(opp)] * 4
        pols[seat] = timed
        r = play_round(rules, pols, seed=seed)
        wins += r.winner == seat
        capped += r.winner is None
        actions += r.actions
    return wins, hi - lo, capped, actions, timed.worst, timed.total, timed.calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=1000, help="seeded rounds per line-up (default 1000)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--only", default="", help="comma-separated filter on 'game:tested:opponents'")
    args = ap.parse_args()
    todo = lineups()
    if args.only:
        keys = args.only.split(",")
        todo = [x for x in todo if any(k in ":".join(x) for k in keys)]
    step = max(1, args.rounds // (4 * args.workers))
    jobs = [
        (g, t, o, lo, min(args.rounds, lo + step)) for g, t, o in todo for lo in range(0, args.rounds, step)
    ]
    start = time.perf_counter()
    print(f"{args.rounds} seeded 4-seat rounds per line-up, {args.workers} workers")
    print(
        f"{'game':8} {'tested':7} {'vs 3x':7} {'win rate':>9} {'95% CI':>15} {'actions':>8} "
        f"{'ms/dec':>7} {'worst ms':>9} {'capped':>6}"
    )
    with mp.Pool(args.workers) as pool:
        results = pool.map(_chunk, jobs, chunksize=1)
    for g, t, o in todo:
        parts = [r for j, r in zip(jobs, results, strict=True) if j[:3] == (g, t, o)]
        wins = sum(p[0] for p in parts)
        n = sum(p[1] for p in parts)
        capped = sum(p[2] for p in parts)
        acts = sum(p[3] for p in parts) / n
        worst = max(p[4] for p in parts) * 1000
        mean = sum(p[5] for p in parts) / max(1, sum(p[6] for p in parts)) * 1000
        rate = wins / n
        half = 1.96 * math.sqrt(rate * (1 - rate) / n)
        ci = f"[{max(0, rate - half):.1%}, {min(1, rate + half):.1%}]"
        print(f"{g:8} {t:7} {o:7} {rate:9.1%} {ci:>15} {acts:8.1f} {mean:7.2f} {worst:9.1f} {capped:6}")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
