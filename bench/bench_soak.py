"""Soak with crashes: the load bench's tables for minutes, the backend SIGKILLed and restarted.

``bench_load.py``'s scenario (Cacheta, 2 people over websockets + 2 server bots per table) at
``--tables`` N (default 100) for ``--minutes`` M (default 10). ``--kills`` K times (default 5),
at random moments spread over the run, a backend is killed with SIGKILL (its whole process
group) and started again. The tabs behave as a browser's: a dropped socket reconnects with its
token (a new one when the server hands one), sends the hydrate again, and answers the page's
question for a move sent as the connection dropped (``pifecacheta/state/unanswered.py``:
the move sent and never answered goes to ``replay_unanswered``, as the page-head script
``UNANSWERED_MOVE_HOOK`` of ``state/browser_scripts.py`` does). ``--cluster``: PostgreSQL +
Redis with two backends behind nginx
(``bench/_cluster_io.py``); each kill hits one of them at random, its tabs reconnect through
nginx to the other.

At the end the people stop, the tables settle, and for every table (``--_verify``, run with
the checkout's own code on its database):

* the stored match equals a replay of its seed and its action log: the service's own replay
  (``service/history.py``'s ``HistoryBook``, cold: from the match's deal row) finds no
  difference, and no version is twice in the log;
* every move a tab was told succeeded (its own reply carried the next version, on the same
  connection) is in the log: the row of that version is that player's. Another seat's push of
  a newer version can reach the tab before the reply (a queue-jump go-out made first): a
  refusal (or a confirmation asked) coming next, with nothing sent since, takes it back;
* every open tab shows the stored state: its last view has the table's version and, for a
  person, the hand the stored match gives its seat. A tab behind is looked at again up to
  three times, 10 s apart, once the tabs are quiet again (a saturated cluster delivers late);
  a tab still behind then fails the check.

Printed: kills, reconnects, moves, refusals, the checks (failures listed), the backends' peak
RSS (MiB) and RSS at each kill. Exits 1 when a check failed. Usage::

    nice -n 19 env PATH=.tools/node_modules/.bin:$PATH REFLEX_USE_SYSTEM_BUN=1 \\
        .venv/bin/python bench/bench_soak.py [--tables 100] [--minutes 10] [--kills 5] [--cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load_io import Config, Server, SioTab  # noqa: E402
from bench_load import Run, Tab  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


# ---- the check (runs inside the checkout, on its database) ----------------------------------
def verify_tables(spec: dict[str, Any]) -> dict[str, Any]:
    """For each table of ``spec["tables"]`` (code, people): its version, whether the service's
    cold replay (``HistoryBook``) agrees with the stored match, the log's repeated versions, each
    person's hand (cards as the page names them, deck mark included) by player id; and which
    of ``spec["told"]`` (code, player id, version sent) have no row of that player at the next
    version."""
    sys.path.insert(0, os.getcwd())
    import logging

    from pifecacheta.service import Identity, get_service
    from pifecacheta.service.history import HistoryBook

    warnings: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            warnings.append(record.getMessage())

    logging.getLogger("pifecacheta.service.history").addHandler(Catch(logging.WARNING))
    svc = get_service()
    book = HistoryBook(svc.store)  # a fresh one: nothing kept, each table replayed from its deal
    out: dict[str, Any] = {}
    logs: dict[str, list[dict[str, Any]]] = {}
    for t in spec["tables"]:
        code, before = t["code"], len(warnings)
        book.history(code)
        logs[code] = log = svc.action_log(code)
        versions = [r["version"] for r in log]
        hands, version = {}, -1
        for p in t["people"]:
            snap = svc.snapshot(code, Identity(player_id=p["player_id"], secret=p["secret"], name=p["name"]))
            hands[p["player_id"]] = sorted(str(c) for c in snap.view.hand) if snap.view else []
            version = snap.version
        out[code] = {
            "version": version, "replay_ok": len(warnings) == before, "why": warnings[before:],
            "repeated": sorted({v for v in versions if versions.count(v) > 1}), "hands": hands,
            "rows": len(log),
        }  # fmt: skip
    missing = [
        [code, pid, v] for code, pid, v in spec["told"]
        if not any(r["version"] == v + 1 and r["actor"] == f"player:{pid}" for r in logs.get(code, []))
    ]  # fmt: skip
    keys = ("version", "actor", "seat", "kind", "action")  # what was logged at the next versions instead
    around = {f"{c} v{v}": [{k: str(r[k])[:60] for k in keys if k in r} for r in logs.get(c, [])
                            if v < r["version"] <= v + 2] for c, _, v in missing[:5]}  # fmt: skip
    return {"tables": out, "told_missing": missing, "around": around}


# ---- a tab that lives through crashes --------------------------------------------------------
class SoakTab(Tab):
    """A bench tab that reconnects like a browser and reports its unanswered move."""

    def __init__(self, run: Any, table: int, info: dict[str, Any] | None, observer: bool) -> None:
        super().__init__(run, table, info, observer)
        self.epoch = 0  # connections lost so far
        self.up = False
        self.last_sent: tuple[str, dict[str, Any], int] | None = None  # kind, payload, epoch
        self.unanswered: dict[str, Any] | None = None
        self.last_told: tuple[str, str, int] | None = None  # my last move told made, until I send again
        self.reset_acted = False

    def on_update(self, t: float, update: dict[str, Any]) -> None:
        """As a tab's, plus: a reply that told this tab its move was made is recorded; the
        page's question after a (re)load is answered."""
        for ev in update.get("events") or []:
            if ev.get("name") == "_call_script" and "pcUnanswered" in json.dumps(ev.get("payload")):
                asyncio.get_running_loop().create_task(self._answer())
        before = self.pending
        delta = (update.get("delta") or {}).get(self.run.setup["table"]) or {}
        if delta.get("message_rx_state_") == "err.lost_in_drop":  # a reported move the table moved past
            self.run.said_lost += 1
        super().on_update(t, update)
        ui = delta.get("ui_rx_state_")
        not_made = "message_serial_rx_state_" in delta or bool(delta.get("hint_confirm_rx_state_"))
        if not_made and before is None and self.last_told is not None:
            # the reply to the move came after another seat's push of a newer version (a
            # queue-jump go-out first): that push was not the reply, the move was not made
            self.run.told.remove(self.last_told)
            self.run.retracted += 1
            self.last_told = None
        told = before is not None and self.pending is None and not not_made
        if told and isinstance(ui, dict) and self.person is not None:
            code = self.run.setup["tables"][self.table]["code"]
            self.last_told = (code, self.person["player_id"], before[1])
            self.run.told.append(self.last_told)

    async def _answer(self) -> None:
        sent, self.unanswered = self.unanswered, None
        self.run.reported += sent is not None
        event = {"name": f"{self.run.setup['table']}.replay_unanswered", "payload": {"sent": sent}}
        self.last_told = None  # its reply answers this event, not my last move
        try:
            await self.sio.emit_event(event | {"router_data": self.router})
        except Exception:  # noqa: BLE001, S110 - gone again: the next reconnect asks again
            pass

    async def play(self, stop: asyncio.Event) -> None:
        """As ``Tab.play``, on whatever socket is current; a send on a dead socket is a move
        left unanswered (the reconnect reports it)."""
        acted: int | None = None
        while not stop.is_set():
            await self.changed.wait()
            self.changed.clear()
            if self.refused or self.reset_acted:
                self.refused = self.reset_acted = False
                acted = None
            v = int(self.ui.get("version", -1))
            if not self.up or v == acted or self.pending is not None or self._move(self.ui) is None:
                continue
            await asyncio.sleep(random.uniform(*self.run.think))
            if stop.is_set() or not self.up or int(self.ui.get("version", -1)) != v:
                self.changed.set()
                continue
            if (move := self._move(self.ui)) is None:
                continue
            kind, payload = move
            self.run.stats.kinds[kind] = self.run.stats.kinds.get(kind, 0) + 1
            name = f"{self.run.setup['table']}.{kind}"
            event = {"name": name, "payload": payload, "router_data": self.router}
            acted, self.last_told = v, None
            if kind != "vote_rematch":
                self.last_sent = (kind, payload, self.epoch)
                self.pending = (time.monotonic(), v)
            try:
                await self.sio.emit_event(event)
            except Exception:  # noqa: BLE001, S110 - the socket died under the send
                pass

    async def keep(self, stop: asyncio.Event) -> None:
        """Reconnect whenever the socket drops (backoff 0.2 s more per try, up to 2 s)."""
        while not stop.is_set():
            await self.sio.closed.wait()
            if stop.is_set():
                return
            self.up = False
            if self.pending is not None and self.last_sent and self.last_sent[2] == self.epoch:
                self.unanswered = {"kind": self.last_sent[0], "args": self.last_sent[1]}
            else:
                self.reset_acted = True
            self.pending, self.epoch, self.last_told = None, self.epoch + 1, None
            delay = 0.2
            while not stop.is_set():
                self.sio = SioTab(
                    self.run.url, self.sio.token, self.run.setup["version"], self.on_update, self.sio.headers
                )
                try:
                    await self.open()
                    break
                except Exception:  # noqa: BLE001 - not up yet
                    await self.sio.close()
                    await asyncio.sleep(delay)
                    delay = min(2.0, delay + 0.2)
            self.up = True
            self.run.reconnects += 1
            self.changed.set()


# ---- one soak ----------------------------------------------------------------------------------
class Soak(Run):
    """The soak's run: ``Run``'s set-up and tabs, its own loop of kills and its own check."""

    def __init__(self, cfg: Config, args: argparse.Namespace) -> None:
        super().__init__(cfg, args, args.tables)
        self.told: list[tuple[str, str, int]] = []
        self.reported = self.reconnects = self.said_lost = self.retracted = 0
        self.first_stale = self.rechecks = 0  # tabs behind at the first check; checks made again
        self.kills: list[str] = []
        self.rss_peak: dict[str, float] = {}

    def measure(self) -> dict[str, Any]:
        """Set up, serve, soak, check; always stops the servers and removes the work dir."""
        workdir = Path(tempfile.mkdtemp(prefix="bench_soak_"))
        server: Any = None
        try:
            env = self.env(workdir)
            if self.cfg.processes:
                from _cluster_io import Cluster, pg_server

                PG.append(pg_server())
                server = Cluster(self.cfg, env, workdir, PG[0])
                env = server.env
            self.environ = env
            spec = json.dumps({"tables": self.n, "scenario": "cacheta"})
            self.setup = self._inside("--_setup", spec)
            if server is None:
                server = Server(self.cfg, env, workdir)
            SERVERS.append(server)
            server.start()
            self.url = f"ws://127.0.0.1:{server.port}"
            return asyncio.run(self._soak(server, workdir))
        finally:
            if server is not None:
                server.stop()
            for pg in PG:
                pg.stop()
            shutil.rmtree(workdir, ignore_errors=True)

    def _inside(self, flag: str, arg: str) -> Any:
        """Run this script with ``flag -`` in the checkout (its interpreter, its database),
        ``arg`` on its stdin (the check's spec of a full soak is far over one argument's limit)."""
        out = subprocess.run(
            [str(self.cfg.python()), str(Path(__file__).resolve()), flag, "-"], input=arg,
            cwd=self.cfg.root, env=self.environ, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        if out.returncode != 0:
            raise RuntimeError(f"{flag} failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])

    def _backends(self, server: Any) -> list[Server]:
        return list(server.backends) if self.cfg.processes else [server]

    async def _watch_rss(self, server: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            for i, b in enumerate(self._backends(server)):
                try:
                    rss = b.rss_mb()
                except Exception:  # noqa: BLE001, S112 - killed or starting
                    continue
                self.rss_peak[f"backend {i + 1}"] = max(self.rss_peak.get(f"backend {i + 1}", 0.0), rss)
            await asyncio.sleep(1.0)

    async def _kill(self, server: Any, k: int, workdir: Path) -> None:
        backends = self._backends(server)
        i = random.randrange(len(backends))
        b = backends[i]
        try:
            rss = b.rss_mb()
        except Exception:  # noqa: BLE001
            rss = float("nan")
        assert b.proc is not None
        os.killpg(b.proc.pid, signal.SIGKILL)
        await asyncio.to_thread(b.proc.wait, 30)
        t0 = time.monotonic()
        b.log_path = workdir / f"backend-{i + 1}-after-kill-{k}.log"
        await asyncio.to_thread(b.start)
        self.kills.append(f"backend {i + 1} at {rss:.0f} MiB, up again in {time.monotonic() - t0:.1f} s")
        print(f"  kill {k}: {self.kills[-1]}", flush=True)

    async def _soak(self, server: Any, workdir: Path) -> dict[str, Any]:
        for i, table in enumerate(self.setup["tables"]):
            for j, person in enumerate(table["people"]):
                self.tabs.append(SoakTab(self, i, person, observer=j == 0))
        gate = asyncio.Semaphore(16)

        async def open_one(tab: SoakTab) -> None:
            async with gate:
                await tab.open()
                tab.up = True

        await asyncio.gather(*(open_one(t) for t in self.tabs))  # type: ignore[arg-type]
        stop, quiet = asyncio.Event(), asyncio.Event()
        tabs: list[SoakTab] = self.tabs  # type: ignore[assignment]
        tasks = [asyncio.create_task(t.play(stop)) for t in tabs if t.person is not None]
        tasks += [asyncio.create_task(t.keep(quiet)) for t in tabs]
        tasks.append(asyncio.create_task(self._watch_rss(server, quiet)))
        total = self.args.minutes * 60
        step = total / (self.args.kills + 1)
        moments = [step * (k + 1) + random.uniform(-0.3, 0.3) * step for k in range(self.args.kills)]
        st, t_start = self.stats, time.monotonic()
        st.t0 = t_start
        for k, at in enumerate(moments, 1):
            await asyncio.sleep(max(0.0, t_start + at - time.monotonic()))
            await self._kill(server, k, workdir)
        await asyncio.sleep(max(0.0, t_start + total - time.monotonic()))
        st.t1 = time.monotonic()
        stop.set()
        for t in tabs:
            t.changed.set()
        await self._settle(tabs)
        check = await asyncio.to_thread(self._check, tabs)
        self.first_stale = len(check["stale_tabs"])
        for _ in range(3):  # a saturated cluster may still be delivering: look again once quiet
            if not check["stale_tabs"]:
                break
            await asyncio.sleep(10)
            await self._settle(tabs)
            self.rechecks += 1
            check = await asyncio.to_thread(self._check, tabs)
        quiet.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(t.sio.close() for t in tabs), return_exceptions=True)
        errors = sum(b.log_errors() for b in self._backends(server))
        return check | {"errors": errors, "refusals": dict(st.refusals), "client_errors": st.errors}

    async def _settle(self, tabs: list[SoakTab]) -> None:
        """Until every tab is connected and no view changed for 5 s (at most 120 s)."""
        deadline, last, since = time.monotonic() + 120, -1, time.monotonic()
        while time.monotonic() < deadline:
            frames = sum(len(t.frames) for t in tabs)
            if frames != last or not all(t.up for t in tabs) or any(t.pending for t in tabs):
                last, since = frames, time.monotonic()
            elif time.monotonic() - since > 5:
                return
            await asyncio.sleep(0.5)

    def _check(self, tabs: list[SoakTab]) -> dict[str, Any]:
        spec = {"tables": self.setup["tables"], "told": self.told}
        got = self._inside("--_verify", json.dumps(spec))
        tables, bad = got["tables"], []
        for code, t in tables.items():
            if not t["replay_ok"] or t["repeated"]:
                bad.append(f"table {code}: replay {t['why'][:1]}, repeated versions {t['repeated']}")
        stale = []
        for tab in tabs:
            code = self.setup["tables"][tab.table]["code"]
            want = tables[code]
            hand = sorted(str(c.get("id")) for c in tab.ui.get("hand_by_suit", []))
            other_hand = tab.person is not None and hand != want["hands"][tab.person["player_id"]]
            if not tab.up or int(tab.ui.get("version", -1)) != want["version"] or other_hand:
                why = ("down " if not tab.up else "") + ("hand differs " if other_hand else "")
                stale.append(f"tab {tab.index} ({code}): {why}v{tab.ui.get('version')} vs v{want['version']}")
        return {
            "tables": len(tables), "replayed_ok": len(tables) - len(bad), "bad_tables": bad,
            "rows": sum(t["rows"] for t in tables.values()), "told": len(self.told),
            "told_missing": got["told_missing"], "around": got["around"], "tabs": len(tabs),
            "stale_tabs": stale,
        }  # fmt: skip


SERVERS: list[Any] = []
PG: list[Any] = []


def _arg(value: str) -> str:
    """A ``--_setup`` / ``--_verify`` value: the text itself, or stdin's for ``-``."""
    return sys.stdin.read() if value == "-" else value


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--cluster", action="store_true", help="PostgreSQL + Redis, two backends behind nginx")
    ap.add_argument("--think", type=float, nargs=2, default=(1.0, 2.0), metavar=("MIN", "MAX"))
    ap.add_argument("--bot-delay", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--_setup", help=argparse.SUPPRESS)
    ap.add_argument("--_verify", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._setup:
        from bench_load import setup_tables

        print(json.dumps(setup_tables(json.loads(_arg(args._setup)))))
        return 0
    if args._verify:
        print(json.dumps(verify_tables(json.loads(_arg(args._verify)))))
        return 0
    args.stale_states, args.py_spy, args.spectators = 0, None, 0  # what Run reads
    random.seed(args.seed)
    cfg = Config("soak", ROOT, processes=2 if args.cluster else 0)
    mode = "PostgreSQL + Redis, 2 backends behind nginx" if args.cluster else "SQLite, 1 backend"
    print(f"soak: {args.tables} tables, {args.minutes:g} min, {args.kills} kills, {mode};",
          "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)  # fmt: skip

    def leave(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGHUP, leave)
    soak = Soak(cfg, args)
    t0 = time.monotonic()
    f = soak.measure()
    print(f"ran {time.monotonic() - t0:.0f} s; kills: {len(soak.kills)}; tab reconnects {soak.reconnects};",
          f"unanswered moves reported after a reconnect {soak.reported}, of which told not made",
          soak.said_lost)  # fmt: skip
    print(f"moves told made {f['told']}, refusals {f['refusals']}, action-log rows {f['rows']},",
          f"server errors logged {f['errors']}, client errors {f['client_errors'][:3]}")  # fmt: skip
    print(f"tables whose stored match equals the replay of seed + log: {f['replayed_ok']} / {f['tables']}")
    print(f"moves told made and missing from the log: {len(f['told_missing'])} {f['told_missing'][:5]}")
    for where, rows in f["around"].items():
        print(f"  logged after {where}: {rows}")
    print(f"moves first taken as told by another seat's push, then refused by their reply: {soak.retracted}")
    stale = f["stale_tabs"]
    print(f"open tabs not showing the stored state: {len(stale)} / {f['tabs']} {stale[:5]}",
          f"(first check {soak.first_stale}; checked again {soak.rechecks} time(s), 10 s apart)")  # fmt: skip
    print("peak RSS MiB: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(soak.rss_peak.items())))
    for line in f["bad_tables"][:10]:
        print("  " + line)
    ok = not (f["bad_tables"] or f["told_missing"] or f["stale_tabs"] or len(soak.kills) < args.kills)
    print("soak: all checks passed" if ok else "soak: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
