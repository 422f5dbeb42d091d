"""RESEARCH ONLY: win rates of the cheating players of :mod:`oracle` on duplicate deals (issue 12).

The same measure as ``bench_bots.py``: deal ``d`` is round 1 of ``new_match(rules, seats,
seed=d)``, played once per seat with the cheating player at seat 0, 1, ... in turn and the
opponents' policy (``simple``, ``greedy``, ``luna_v1``, ...) at the others, every seat's random
stream ``bots:{d}:{seat}`` as in the arena; the win rate is the mean of the per-deal shares and
its 95% interval the normal interval over deals (``bench_bots.interval``). The cheaters read the
hidden match: they are bounds, never bots (see :mod:`oracle`).

    nice -n 19 .venv/bin/python bench/bench_oracle.py --deals 50 --only "Pife:4:oracle:simple"

Line-ups: ``game:seats:player:opponents``; ``--only`` keeps those containing one of its
comma-separated parts. Players: oracle, oracle<width>, kf, kf_stock, luna_hands, luna_world.
Also prints the seconds per round and, for the oracle, its rollouts per round.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bots import GAMES, interval  # noqa: E402
from oracle import Seat, cheater, play_round_cheating  # noqa: E402

from pifecacheta.bots.arena import policy  # noqa: E402
from pifecacheta.bots.common import Policy  # noqa: E402

#: (seats, player, opponents): the issue's line-ups for each cheating player
LINEUPS: tuple[tuple[int, str, str], ...] = tuple(
    (n, p, o)
    for p in ("oracle", "kf", "kf_stock", "luna_hands", "luna_world")
    + ("base_safe", "base_safe_any", "luna_base")
    for n, o in ((4, "simple"), (4, "greedy"), (2, "luna_v1"))
)


def _player(name: str, other: Policy) -> Seat:
    """The cheating player ``name``, or an honest policy of the arena (a reference line)."""
    try:
        return cheater(name, other)
    except KeyError:
        return policy(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--samples", type=int, default=16, help="luna_hands / luna_world samples per decision")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    os.environ["PIFECACHETA_LUNA_SAMPLES"] = str(args.samples)
    todo = [(g, n, p, o) for g in GAMES for n, p, o in LINEUPS]
    extra = [tuple(k.split(":")) for k in args.only.split(",") if k.count(":") == 3]
    for g, n, p, o in extra:  # line-ups not in the table (e.g. oracle3)
        if (g, int(n), p, o) not in todo:
            todo.append((g, int(n), p, o))
    if args.only:
        keys = args.only.split(",")
        todo = [x for x in todo if any(k in ":".join(map(str, x)) for k in keys)]
    print(f"{args.deals} duplicate deals per line-up (seeds {args.first}..{args.first + args.deals - 1})")
    for game, seats, name, opp in todo:
        rules = GAMES[game]
        other = policy(opp)
        start = time.perf_counter()
        scores: list[float] = []
        rollouts = 0
        for deal in range(args.first, args.first + args.deals):
            wins = 0
            for seat in range(seats):
                me = _player(name, other)
                line: list[Seat] = [other] * seats
                line[seat] = me
                wins += play_round_cheating(rules, line, seed=deal) == seat
                rollouts += getattr(me, "rollouts", 0)
            scores.append(wins / seats)
        mean, low, high = interval(scores)
        secs = (time.perf_counter() - start) / (len(scores) * seats)
        print(
            f"{game:8} {seats} {name:10} vs {opp:8} {mean:6.1%} [{low:.1%}, {high:.1%}] "
            f"{len(scores)} deals, {secs:.2f} s/round, rollouts/round {rollouts / (len(scores) * seats):.1f}",
            flush=True,
        )
        if args.json:
            row = dict(
                game=game,
                seats=seats,
                player=name,
                opponents=opp,
                deals=len(scores),
                rate=mean,
                low=low,
                high=high,
                first=args.first,
                s_per_round=secs,
                scores=scores,
            )
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
