"""Floods: the load scenario alone, then with one client flooding events, then with one churning
connections, back to back in one run (issue 13 item 2).

Each phase is ``bench_load.py``'s run (``Run``: a fresh database and server, Cacheta tables of
2 people over websockets + 2 server bots) at ``--tables`` N (default 50) plus one more table,
the flooder's, whose tabs are not measured:

* ``alone``: nothing else (the reference);
* ``events``: a seated player of the extra table sends events as fast as its socket takes them
  (real frames of its tab: ``draw``, ``take``, ``pile_click``, ``card_double`` with the version
  and cards of its last view, ``toggle_sort``, mixed with junk: wrong types, unknown names,
  huge strings, extra fields);
* ``churn``: a client opens a websocket, does the handshake and the table page's hydrate (as
  that table's other person, each time with a new tab token), closes it, and again, as fast
  as it can. It comes with ``X-Forwarded-For: 203.0.113.7``, i.e. as a client behind the
  cluster's nginx, since a client on the machine itself is not limited
  (``pifecacheta/connlimit.py``).

The disturber runs in its own process (``--_disturb``) during the measurement window, so its
work is not the measuring clients'. Printed per phase: the other tables' move -> other tab
median / p95 / p99 ms, moves/s, server CPU (% of one core), what the disturber sent and what
the server did to it (events answered, dropped; connections made, refused), the server's log
lines about it, and p95 / p95 of ``alone`` (target: at most 1.20). Usage::

    nice -n 19 env PATH=.tools/node_modules/.bin:$PATH REFLEX_USE_SYSTEM_BUN=1 \\
        .venv/bin/python bench/bench_flood.py [--tables 50] [--seconds 30] [--phases alone events churn]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load_io import Config, SioTab  # noqa: E402
from bench_load import SERVERS, Run  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHASES = ("alone", "events", "churn")
CHURN_FROM = "203.0.113.7"  # TEST-NET-3: the churner's address, as a proxy forwards it
TARGET = 1.20  # p95 of a disturbed phase over the alone phase's


# ---- the disturbers (run in their own process) -------------------------------------------------
class Disturber:
    """The flooder or the churner of one phase; :meth:`run` returns what it counted."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.s = spec["setup"]
        code = spec["victim"]["code"]
        self.router = {"pathname": f"/mesa/{code}", "asPath": f"/mesa/{code}", "query": {"code": code}}
        self.ui: dict[str, Any] = {}
        self.answered = 0  # frames carrying a state change for this client

    def boot(self, person: dict[str, Any]) -> dict[str, Any]:
        """The CONNECT auth of a table page opened by ``person`` (its localStorage identity)."""
        fq = self.s["session"] + ".{}_rx_state_"
        ident = {k: person[k] for k in ("player_id", "secret", "name")} | {"lang": "pt"}
        payload = {"vars": {fq.format(k): v for k, v in ident.items()}}
        event = {"name": self.s["root"] + ".hydrate_and_load", "payload": payload, "router_data": self.router}
        return {"event": event, "state_schema": self.s["schema"]}

    def on_update(self, _t: float, update: dict[str, Any]) -> None:
        """Count a frame with a delta; keep the table's last view."""
        delta = update.get("delta") or {}
        self.answered += bool(delta)
        ui = (delta.get(self.s["table"]) or {}).get("ui_rx_state_")
        if isinstance(ui, dict):
            self.ui = ui

    def frame(self, i: int) -> tuple[str, Any]:
        """The ``i``-th event of the flood: a real one of the tab's last view, or junk."""
        v = int(self.ui.get("version", 0))
        hand = [str(c.get("id")) for c in self.ui.get("hand_by_suit", []) if isinstance(c, dict)] or ["x"]
        t, viewer = self.s["table"], self.s["session"]
        real = [
            (f"{t}.draw", {"version": v}),
            (f"{t}.take", {"version": v}),
            (f"{t}.pile_click", {"version": v, "phase": "discard", "selected": random.choice(hand)}),
            (f"{t}.card_double", {"card_id": random.choice(hand), "version": v}),
            (f"{viewer}.toggle_sort", {}),
        ]
        junk = [
            (f"{t}.draw", {"version": "x" * 64}),
            (f"{t}.no_such_handler", {}),
            (f"{t}.card_double", {"card_id": "\u202e" * 2000, "version": v + 7, "extra": [1, 2]}),
            (f"{t}.pile_click", "not an object"),
            (f"{viewer}.setvar", {"var_name": "player_id", "value": "p-other"}),
        ]
        return (real if i % 2 == 0 else junk)[(i // 2) % 5]

    async def flood(self, go: asyncio.Event, seconds: float) -> dict[str, Any]:
        """Send events as fast as the socket takes them for ``seconds`` after ``go``."""
        person = self.spec["victim"]["people"][0]
        tab = SioTab(self.spec["url"], str(uuid.uuid4()), self.s["version"], self.on_update)
        await tab.connect(self.boot(person))
        await go.wait()
        sent, answered0, t0 = 0, self.answered, time.monotonic()
        while time.monotonic() - t0 < seconds and tab.close_reason is None:
            name, payload = self.frame(sent)
            try:
                await tab.emit_event({"name": name, "payload": payload, "router_data": self.router})
            except Exception:  # noqa: BLE001 - the server closed it: counted below
                break
            sent += 1
            if sent % 64 == 0:
                await asyncio.sleep(0)  # let the reader take the replies
        span = time.monotonic() - t0
        await asyncio.sleep(2.0)  # the replies still on their way
        out = {"kind": "events", "sent": sent, "per_s": sent / span, "answered": self.answered - answered0}
        out["closed_by_server"] = tab.close_reason is not None  # its DISCONNECT or its close
        await tab.close()
        return out

    async def churn(self, go: asyncio.Event, seconds: float) -> dict[str, Any]:
        """Open, hydrate and close connections in a loop for ``seconds`` after ``go``."""
        person = self.spec["victim"]["people"][1]
        await go.wait()
        made = hydrated = 0
        refused: dict[str, int] = {}
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            first = asyncio.Event()
            url, version, xff = self.spec["url"], self.s["version"], {"X-Forwarded-For": CHURN_FROM}
            tab = SioTab(url, uuid.uuid4().hex, version, lambda _t, _u, first=first: first.set(), headers=xff)
            try:
                await tab.connect(self.boot(person), timeout=10)
                made += 1
                await asyncio.wait_for(first.wait(), 10)
                hydrated += 1
            except Exception as exc:  # noqa: BLE001 - a refusal, whatever form it takes
                key = type(exc).__name__ + (f" {exc}"[:60] if "HTTP" in str(exc) else "")
                refused[key] = refused.get(key, 0) + 1
            await tab.close()
        span = time.monotonic() - t0
        tried = made + sum(refused.values())
        return {"kind": "churn", "tried": tried, "per_s": tried / span, "made": made, "hydrated": hydrated,
                "refused": refused}  # fmt: skip


async def disturb(spec: dict[str, Any]) -> dict[str, Any]:
    """Start when stdin says ``go``, run ``spec["seconds"]``, return the counts."""
    d, go = Disturber(spec), asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(sys.stdin.fileno(), lambda: (sys.stdin.readline(), go.set()))
    run = d.flood if spec["kind"] == "events" else d.churn
    return await run(go, float(spec["seconds"]))


# ---- one phase ---------------------------------------------------------------------------------
class FloodRun(Run):
    """``bench_load``'s run at N tables plus the disturber's table (not measured)."""

    def __init__(self, cfg: Config, args: argparse.Namespace, n: int, phase: str) -> None:
        super().__init__(cfg, args, n + 1)  # the set-up makes one more table: the disturber's
        self.phase, self.measured = phase, n
        self.disturbed: dict[str, Any] = {}

    async def _play(self, server: Any) -> dict[str, Any]:
        victim = self.setup["tables"].pop()
        self.n = self.measured
        watcher = None
        if self.phase != "alone":
            keys = ("root", "session", "table", "schema", "version")
            spec = {"kind": self.phase, "url": self.url, "seconds": self.args.seconds, "victim": victim,
                    "setup": {k: self.setup[k] for k in keys}}  # fmt: skip
            proc = await asyncio.create_subprocess_exec(
                str(self.cfg.python()), str(Path(__file__).resolve()), "--_disturb", json.dumps(spec),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            watcher = asyncio.create_task(self._watch(proc))
        f = await super()._play(server)
        if watcher is not None:
            self.disturbed = await watcher
        log = server.log_path.read_text(errors="replace").splitlines()
        marks = ("pifecacheta.ratelimit", "pifecacheta.connlimit", "faster than", "kept flooding")
        f["guard_lines"] = [line[-160:] for line in log if any(m in line for m in marks)][:4]
        f["disturbed"], f["load"] = self.disturbed, os.getloadavg()
        return f

    async def _watch(self, proc: asyncio.subprocess.Process) -> dict[str, Any]:
        assert proc.stdin is not None
        while self.stats.t0 == float("inf"):  # the window opens once every tab has its view
            await asyncio.sleep(0.05)
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
        out, _ = await asyncio.wait_for(proc.communicate(), self.args.seconds + 60)
        lines = out.decode().strip().splitlines()
        return json.loads(lines[-1]) if lines else {"error": f"disturber exited {proc.returncode}"}


def describe(d: dict[str, Any]) -> str:
    """What the disturber did and what the server did to it, in a few words."""
    if not d:
        return "-"
    if d.get("kind") == "events":
        dropped = max(0, d["sent"] - d["answered"])
        return (f"sent {d['sent']} ({d['per_s']:.0f}/s), answered {d['answered']}, not answered (dropped)"
                f" {dropped}{', closed by server' if d['closed_by_server'] else ''}")  # fmt: skip
    if d.get("kind") == "churn":
        return (f"tried {d['tried']} ({d['per_s']:.1f}/s), connected {d['made']}, hydrated {d['hydrated']},"
                f" refused {sum(d['refused'].values())} {d['refused'] or ''}")  # fmt: skip
    return str(d)


HEAD = ("| phase | tables | moves/s | server CPU | move -> other tab med / p95 / p99 ms | p95 / alone"
        " | errors | load avg | what the disturber did, what the server did to it |")  # fmt: skip


ROW = ("| {phase} | {n} | {moves_s:.1f} | {cpu:.0f}% | {o50:.0f} / {o95:.0f} / {o99:.0f} | {ratio}"
       " | {errors} | {load1:.1f} | {what} |")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0, help="measurement window per phase")
    ap.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    ap.add_argument("--think", type=float, nargs=2, default=(1.0, 2.0), metavar=("MIN", "MAX"))
    ap.add_argument("--bot-delay", type=float, default=0.5, help="PIFECACHETA_BOT_DELAY for the server")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write every figure to this file")
    ap.add_argument("--_disturb", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._disturb:
        print(json.dumps(asyncio.run(disturb(json.loads(args._disturb)))))
        return 0
    args.scenario, args.spectators, args.stale_states, args.py_spy = "cacheta", 0, 0, None
    random.seed(args.seed)
    print(f"{args.tables} tables (+1 for the disturber), {args.seconds:.0f} s per phase;",
          "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))  # fmt: skip

    def leave(signum: int, _frame: Any) -> None:  # unwinds through every finally: servers stop
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)
    rows: list[tuple[str, dict[str, Any]]] = []
    print(HEAD + "\n" + "|---" * (HEAD.count("|") - 1) + "|")
    try:
        for phase in args.phases:
            try:
                f = FloodRun(Config(phase, ROOT), args, args.tables, phase).measure()
            except Exception as exc:  # noqa: BLE001 - one failed phase must not lose the others
                print(f"{phase} FAILED: {type(exc).__name__}: {exc}")
                continue
            rows.append((phase, f))
            base = next((g for p, g in rows if p == "alone"), None)
            ratio = f"{f['o95'] / base['o95']:.2f}" if base and base["o95"] else "-"
            what = describe(f["disturbed"])
            print(ROW.format(phase=phase, ratio=ratio, load1=f["load"][0], what=what, **f), flush=True)
            for line in f["guard_lines"]:
                print(f"    server log: {line}")
            if any(f["notes"][3:]):
                print("    notes:", *[n for n in f["notes"] if n])
    finally:
        for s in list(SERVERS):
            s.stop()
    base = next((g for p, g in rows if p == "alone"), None)
    worst = max((g["o95"] / base["o95"] for p, g in rows if p != "alone" and base and base["o95"]), default=0)
    if base and len(rows) > 1:
        verdict = "within" if worst <= TARGET else "OVER"
        print(f"worst p95 / alone: {worst:.2f} ({verdict} the target {TARGET:.2f})")
    if args.json:
        args.json.write_text(json.dumps({"argv": sys.argv[1:], "rows": rows}, indent=1, default=str))
    return 0 if len(rows) == len(args.phases) else 1


if __name__ == "__main__":
    raise SystemExit(main())
