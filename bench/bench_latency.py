"""Live latency of a table: one player's click until every other screen has the new state.

Starts the app (Reflex ``AppHarnessProd``: static export + uvicorn backend, like ``reflex run
--env prod``; ``--dev`` uses ``AppHarness`` with the dev server), seats four players in four
headless Chromium contexts (Ana creates a Cacheta table, three more open the invite link and sit)
plus two spectators (open the link without sitting), starts the match and plays ``--moves``
moves (draw / discard, every discard chosen so that it is not a go-out: the engine is replayed
here from the fixed seed to know the hands). Then it opens the table page ``--loads`` times.

What is measured, all with the browsers' own clocks (``performance.timeOrigin + now()``, one
machine, so the pages' clocks agree):

* move latency: from the acting page's ``click``/``dblclick`` event to the websocket message
  carrying the new table version (``"version": N`` of ``TableState.ui``) on each of the five
  other pages ("frame"), and to the next animation frame after it ("paint"). Per move the
  slowest of the five screens counts (the update reached *every* screen); all 5 x N samples
  are printed too.
* first load: navigation start -> the stock and the action buttons visible (a seated player's
  reload: 9 cards and COMPRAR/BATER in the DOM), and for a brand-new browser (cold cache,
  spectator): navigation start -> stock visible.

``--count-dom`` adds, per move, what each other screen's browser did between the click and
its paint, in counts that do not depend on the machine's load (``bench/_paint_count.py``: DOM
mutations, React components rendered, style recalculations and layouts, compositor layers, and
the components that rendered most, by name);
``--cpu`` adds the CPU time the browsers' processes used per move, by process type (the
renderers' threads, the GPU process that composites every page's frames in software here);
``--reduced-motion`` runs the browsers with "reduce motion" (no card travels); ``--root DIR``
runs another checkout's app (a worktree of an older commit) with this script.

Targets (issue): p95 move latency < 150 ms; table interactive < 2 s. Usage::

    PATH=.tools/node_modules/.bin:$PATH REFLEX_USE_SYSTEM_BUN=1 .venv/bin/python bench/bench_latency.py \\
        [--moves 30] [--loads 5] [--dev] [--seed 4242] [--count-dom] [--reduced-motion] [--root DIR]

Prints one line per figure; exits 1 when a target is missed (so it can gate CI if wanted).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if "--root" in sys.argv[:-1]:  # another checkout's app and engine (before anything imports them)
    ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
sys.path.insert(0, str(ROOT))

# Installed in every page before any script runs: timestamps of clicks and of table versions.
INIT_JS = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__bench = {clicks: [], versions: []};   // versions: [version, t_message, t_paint]
  for (const type of ["click", "dblclick"]) {
    document.addEventListener(type, () => window.__bench.clicks.push([type, now()]), true);
  }
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    try {  // the tab's Reflex client token, to match the --trace timeline to this screen
      window.__bench.token = new URL(String(args[0]), location.href).searchParams.get("token");
    } catch (e) {}
    ws.addEventListener("message", (ev) => {
      if (typeof ev.data !== "string" || ev.data.indexOf("hand_by_suit") < 0) return;
      const t = now();
      let v = -1;  // the TableUi's "version" (no other field of the deltas is named so)
      for (const m of ev.data.matchAll(/"version":(\d+)/g)) v = Math.max(v, parseInt(m[1], 10));
      const rec = [v, t, null];
      window.__bench.versions.push(rec);
      requestAnimationFrame(() => requestAnimationFrame(() => { rec[2] = now(); }));
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""

STATUS_JS = "() => window.__bench"
MAX_VERSION_JS = "() => Math.max(-1, ...window.__bench.versions.map(r => r[0]))"


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of ``values``."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(q / 100 * len(s) + 0.5)) - 1))
    return s[k]


def summary(name: str, values: list[float], unit: str = "ms") -> str:
    """One printed line: count, median, p95, max."""
    return (
        f"{name}: n={len(values)} median={statistics.median(values):.1f}{unit} "
        f"p95={pct(values, 95):.1f}{unit} max={max(values):.1f}{unit}"
    )


def _node_name(cdp: Any, backend_id: int) -> str:
    """``tag#id.first-class`` of the DOM node behind a compositor layer, or why it has none."""
    try:
        node = cdp.send("DOM.describeNode", {"backendNodeId": backend_id})["node"]
    except Exception as exc:  # noqa: BLE001 - a node gone since the tree was reported
        return f"(no node: {str(exc)[:40]})"
    attrs = node.get("attributes") or []
    named = dict(zip(attrs[::2], attrs[1::2], strict=True))
    name = str(node.get("nodeName", "")).lower()
    if named.get("id"):
        name += "#" + named["id"]
    if named.get("class"):
        name += "." + named["class"].split()[0]
    return name


def layer_lines(page: Any) -> list[str]:
    """``page``'s compositor layers, one line each: size in CSS px, whether it draws content,
    the node it belongs to and Chromium's reasons for making it a layer (CDP ``LayerTree``)."""
    cdp = page.context.new_cdp_session(page)
    trees: list[list[dict[str, Any]]] = []
    cdp.on("LayerTree.layerTreeDidChange", lambda ev: trees.append(ev.get("layers") or []))
    cdp.send("DOM.getDocument", {"depth": -1})
    cdp.send("LayerTree.enable")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_timeout(300)  # the tree is reported after the next commit
    layers = trees[-1] if trees else []
    lines = [f"compositor layers of one spectator's screen: {len(layers)}"]
    for layer in layers:
        why = cdp.send("LayerTree.compositingReasons", {"layerId": layer["layerId"]})
        node = _node_name(cdp, layer["backendNodeId"]) if layer.get("backendNodeId") else ""
        lines.append(
            f"  {layer['width']:>5.0f}x{layer['height']:<5.0f} draws={layer.get('drawsContent')!s:5} "
            f"{node:30s} {', '.join(why.get('compositingReasons', []))}"
        )
    cdp.send("LayerTree.disable")
    return lines


def start_harness(dev: bool, seed: int) -> Any:
    """The app on a fresh SQLite database with a fixed deal; returns the entered harness."""
    from reflex.testing import AppHarness, AppHarnessProd

    db = Path(tempfile.mkdtemp(prefix="bench_latency_")) / "bench.db"
    os.environ["PIFECACHETA_DB_URL"] = f"sqlite:///{db}"
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    os.environ["PIFECACHETA_BOT_DELAY"] = "0"
    os.environ.setdefault("REFLEX_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("REFLEX_CHECK_LATEST_VERSION", "false")
    os.environ.setdefault("REFLEX_USE_SYSTEM_BUN", "1")
    bun_dir = ROOT / ".tools" / "node_modules" / ".bin"
    if bun_dir.exists() and str(bun_dir) not in os.environ.get("PATH", ""):
        os.environ["PATH"] = f"{bun_dir}:{os.environ['PATH']}"
    cls = AppHarness if dev else AppHarnessProd
    return cls.create(root=ROOT, app_name="pifecacheta")


def browser_cpu() -> dict[str, float]:
    """CPU seconds (user + system) used so far by this process's Chromiums, by process type
    (``--type=`` of the command line: renderer, gpu-process, utility; "browser" for the main
    one) and thread name (``CrRendererMain``, ``Compositor``, ``CompositorTileW``, ``VizCompositorTh``,
    ...), as "type/thread". The app's server (this process) is not counted; processes and
    threads that ended are not either (the bench's pages stay open through the moves)."""
    import psutil  # type: ignore[import-untyped]

    out: dict[str, float] = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            cmd = proc.cmdline()
            if not cmd or "chrom" not in os.path.basename(cmd[0]).lower():
                continue
            kind = next((a.split("=", 1)[1] for a in cmd if a.startswith("--type=")), "browser")
            for th in proc.threads():
                try:
                    name = Path(f"/proc/{proc.pid}/task/{th.id}/comm").read_text().strip()
                except OSError:
                    name = "?"
                name = name.rstrip("0123456789").rstrip("/") or name  # ThreadPoolForeg1 -> ...Foreg
                key = f"{kind}/{name}"
                out[key] = out.get(key, 0.0) + th.user_time + th.system_time
        except psutil.Error:
            continue
    return out


def choose_action(match: Any, seat: int) -> Any:
    """Draw in the draw phase; else a legal discard that is NOT a go-out (keeps the round going)."""
    from pifecacheta.rules import Discard, Draw, GoOut, Phase, legal_actions

    if match.round.phase is Phase.DRAW:
        return Draw()
    legal = legal_actions(match, seat)
    outs = {a.discard for a in legal if isinstance(a, GoOut) and a.discard is not None}
    if any(isinstance(a, GoOut) and a.discard is None for a in legal):
        return None  # a go-out with all ten cards: the round would end
    for a in legal:
        if isinstance(a, Discard) and a.card not in outs:
            return a
    return None


def main() -> int:  # noqa: PLR0915 - one linear script
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--dev", action="store_true", help="dev server (AppHarness) instead of the prod export")
    ap.add_argument("--chromium", default=os.environ.get("PIFECACHETA_CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument(
        "--trace", action="store_true", help="print the backend's timeline of the last 3 moves (same process)"
    )
    ap.add_argument(
        "--count-dom",
        action="store_true",
        help="per move on the other screens: DOM mutations, React renders, style/layout counts, layers",
    )
    ap.add_argument(
        "--layers",
        action="store_true",
        help="after the moves: a spectator's compositor layers (size, why each is one), by CDP LayerTree",
    )
    ap.add_argument("--reduced-motion", action="store_true", help="the browsers ask for reduced motion")
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="per move: the CPU time of the browsers' processes (renderers, GPU/compositor, browser)",
    )
    ap.add_argument("--root", help="the checkout to run (default: this one), e.g. an older commit's worktree")
    ap.add_argument(
        "--profile-snapshots",
        action="store_true",
        help="count and time the backend's table reads (TableService.snapshots or .snapshot)",
    )
    args = ap.parse_args()
    snap_times: list[float] = []
    snap_viewers: list[int] = []  # viewers per snapshots() call
    read_name = "snapshot"
    if args.profile_snapshots:  # instrument the in-process backend (the app's code is unchanged)
        from pifecacheta.service import TableService

        # the database read of the tabs' views: snapshots(code, whos) when the service has it
        # (snapshot calls it with one viewer), else snapshot
        read_name = "snapshots" if hasattr(TableService, "snapshots") else "snapshot"
        orig = getattr(TableService, read_name)

        def timed(self: Any, *a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return orig(self, *a, **kw)
            finally:
                snap_times.append((time.perf_counter() - t) * 1000)
                if read_name == "snapshots" and len(a) > 1:
                    snap_viewers.append(len(a[1]))

        setattr(TableService, read_name, timed)

    trace: list[tuple[str, float, str]] = []  # (what, epoch ms, detail)
    if args.trace:  # server-side timeline of each move (same process, wall clock like the pages)
        from reflex.app import EventNamespace

        from pifecacheta.service import TableService

        def wrap(owner: Any, name: str, label: str, detail: Any) -> None:
            orig_fn = getattr(owner, name, None)
            if orig_fn is None:
                return

            if asyncio.iscoroutinefunction(orig_fn):

                async def traced_async(*a: Any, **kw: Any) -> Any:
                    trace.append((label + ">", time.time() * 1000, detail(a, kw)))
                    try:
                        return await orig_fn(*a, **kw)
                    finally:
                        trace.append((label + "<", time.time() * 1000, detail(a, kw)))

                setattr(owner, name, traced_async)
            else:

                def traced(*a: Any, **kw: Any) -> Any:
                    trace.append((label + ">", time.time() * 1000, detail(a, kw)))
                    try:
                        return orig_fn(*a, **kw)
                    finally:
                        trace.append((label + "<", time.time() * 1000, detail(a, kw)))

                setattr(owner, name, traced)

        wrap(EventNamespace, "on_event", "event", lambda a, kw: str(a[2])[:80] if len(a) > 2 else "")
        wrap(EventNamespace, "emit_update", "emit", lambda a, kw: str(kw.get("token", ""))[:8])
        wrap(TableService, "act", "act", lambda a, kw: type(a[3]).__name__ if len(a) > 3 else "")
        wrap(TableService, "snapshot", "snap", lambda a, kw: "")
        wrap(TableService, "snapshots", "snaps", lambda a, kw: str(len(a[2])) if len(a) > 2 else "")

    from _paint_count import COUNT_JS, NAMES_JS, Metrics, delta, report, top_renders
    from playwright.sync_api import expect, sync_playwright

    from pifecacheta.rules import CACHETA_7, Draw, apply, new_match

    expect.set_options(timeout=30_000)
    t0 = time.perf_counter()
    harness = start_harness(args.dev, args.seed)
    with harness, sync_playwright() as pw:
        print(
            f"app up in {time.perf_counter() - t0:.1f}s ({'dev' if args.dev else 'prod'}):",
            harness.frontend_url,
        )
        launch: dict[str, Any] = {
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        }
        if args.chromium and Path(args.chromium).exists():
            launch["executable_path"] = args.chromium
        browser = pw.chromium.launch(**launch)

        def new_page(locale: str = "pt-BR") -> Any:
            motion = "reduce" if args.reduced_motion else "no-preference"
            ctx = browser.new_context(
                viewport={"width": 1366, "height": 900}, locale=locale, reduced_motion=motion
            )
            ctx.add_init_script(INIT_JS)
            if args.count_dom:
                ctx.add_init_script(COUNT_JS)
            page = ctx.new_page()
            page.set_default_timeout(30_000)
            page.set_default_navigation_timeout(120_000)
            return page

        names = ("Ana", "Bruno", "Carla", "Davi")
        players = [new_page() for _ in names]
        a = players[0]
        a.goto(harness.frontend_url)
        a.locator("#name-input").fill("Ana")
        a.locator("#mode-cacheta7").click()
        a.get_by_role("button", name="CRIAR MESA").click()
        a.wait_for_url("**/mesa/**")
        url = a.url
        for p, name in zip(players[1:], names[1:], strict=True):
            p.goto(url)
            p.locator("#join-name").fill(name)
            p.get_by_role("button", name="SENTAR À MESA").click()
            expect(a.locator(".lobby-seat").filter(has_text=name)).to_be_visible()
        spectators = [new_page() for _ in range(2)]
        for s in spectators:
            s.goto(url)
            expect(s.locator(".lobby-seat").filter(has_text="Davi")).to_be_visible()  # full: watches
        a.get_by_role("button", name="COMEÇAR").click()
        for s in spectators:
            expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
        screens = players + spectators
        match = new_match(CACHETA_7, 4, seed=args.seed)
        meters = {id(p): Metrics(p) for p in screens} if args.count_dom else {}
        names_start = [p.evaluate(NAMES_JS) for p in screens] if meters else []
        counted: list[list[dict[str, float]]] = []  # per move, per other screen

        per_move: list[float] = []
        per_move_paint: list[float] = []
        samples: list[float] = []
        samples_paint: list[float] = []
        kinds: list[str] = []
        snaps_at_start = len(snap_times)
        moves_trace: list[tuple[float, list[tuple[str, float]], list[tuple[str, float, str]]]] = []
        trace.clear()
        frames_at_start = [len(p.evaluate(STATUS_JS)["versions"]) for p in screens]
        cpu_at_start = browser_cpu() if args.cpu else {}
        for _ in range(args.moves):
            seat = match.round.turn
            action = choose_action(match, seat)
            if action is None:
                print("no non-go-out move left; stopping early")
                break
            page = players[seat]
            others = [p for p in screens if p is not page]
            if isinstance(action, Draw):
                btn = page.get_by_role("button", name="COMPRAR", exact=True)
                expect(btn).to_be_enabled()
            else:
                target = page.locator(f'[id="card-{action.card}"]')
                expect(target).to_be_visible()
            before = [p.evaluate(MAX_VERSION_JS) for p in others]
            n_clicks = len(page.evaluate(STATUS_JS)["clicks"])
            counts_before = [meters[id(p)].sample() for p in others] if meters else []
            if isinstance(action, Draw):
                btn.click()
            else:
                target.dblclick()
            match = apply(match, seat, action)
            for p, v in zip(others, before, strict=True):
                p.wait_for_function(f"() => window.__bench.versions.some(r => r[0] > {v} && r[2] !== null)")
            if meters:
                after = [meters[id(p)].sample() for p in others]
                counted.append([delta(b, x) for b, x in zip(counts_before, after, strict=True)])
            clicks = page.evaluate(STATUS_JS)["clicks"][n_clicks:]
            t_click = next(
                t for typ, t in clicks if typ == ("click" if isinstance(action, Draw) else "dblclick")
            )
            lat, lat_paint = [], []
            for p, v in zip(others, before, strict=True):
                recs = p.evaluate(STATUS_JS)["versions"]
                rec = next(r for r in recs if r[0] > v)
                lat.append(rec[1] - t_click)
                lat_paint.append(rec[2] - t_click)
            if args.trace:
                tokens = [str(p.evaluate("() => window.__bench.token || ''"))[:8] for p in others]
                moves_trace.append((t_click, list(zip(tokens, lat, strict=True)), list(trace)))
                trace.clear()
            per_move.append(max(lat))
            per_move_paint.append(max(lat_paint))
            samples += lat
            samples_paint += lat_paint
            kinds.append(type(action).__name__)

        if args.cpu and per_move:
            cpu_end = browser_cpu()
            used = {k: (v - cpu_at_start.get(k, 0.0)) / len(per_move) * 1000 for k, v in cpu_end.items()}
            kinds_cpu: dict[str, float] = {}
            for k, v in used.items():
                kinds_cpu[k.split("/")[0]] = kinds_cpu.get(k.split("/")[0], 0.0) + v
            print(f"browsers' CPU per move, all processes: {sum(used.values()):.1f} ms")
            for kind, v in sorted(kinds_cpu.items(), key=lambda kv: -kv[1]):
                print(f"  {kind}: {v:.1f} ms")
                for k, w in sorted(used.items(), key=lambda kv: -kv[1]):
                    if k.startswith(kind + "/") and w >= 1.0:
                        print(f"    {k.split('/', 1)[1]}: {w:.1f} ms")
        for t_click, lats, events in moves_trace[-3:]:
            print("-- move: screens got it at " + ", ".join(f"{tok} +{x:.0f}" for tok, x in lats) + " ms")
            for what, t, detail in events:
                if t >= t_click - 50:
                    print(f"   {t - t_click:+8.1f} ms  {what:8s} {detail}")
        if args.profile_snapshots and snap_times:
            print(
                summary(f"TableService.{read_name} calls ({len(snap_times)} total since start)", snap_times)
            )
        if args.profile_snapshots and per_move:
            n = len(snap_times) - snaps_at_start
            print(f"table reads during the moves: {n} ({n / len(per_move):.1f} per move)")
            if snap_viewers:
                print(f"viewers per read: mean {statistics.mean(snap_viewers):.1f}")
        if per_move:  # every websocket message carrying a TableUi, wanted or not
            frames = sum(
                len(p.evaluate(STATUS_JS)["versions"]) - n
                for p, n in zip(screens, frames_at_start, strict=True)
            )
            print(f"TableUi messages per screen per move: {frames / len(screens) / len(per_move):.2f}")
        if args.layers:
            for line in layer_lines(screens[-1]):
                print(line)
        for line in report(counted):
            print(line)
        if meters:
            names_end = [p.evaluate(NAMES_JS) for p in screens]
            for line in top_renders(names_start, names_end, len(counted)):
                print(line)
        print(
            f"moves played: {len(per_move)} ({kinds.count('Draw')} draws, {kinds.count('Discard')} discards)"
        )
        print(summary("move -> frame on every other screen (slowest of 5)", per_move))
        print(summary("move -> paint on every other screen (slowest of 5)", per_move_paint))
        print(summary("move -> frame, each screen", samples))
        print(summary("move -> paint, each screen", samples_paint))
        for kind in ("Draw", "Discard"):
            sub = [x for x, k in zip(per_move, kinds, strict=True) if k == kind]
            if sub:
                print(summary(f"  {kind} -> frame (slowest of 5)", sub))

        # first loads: a seated player's reload (warm cache), and a new browser (cold, spectator)
        warm: list[float] = []
        cold: list[float] = []
        ready_js = (
            "() => document.querySelector('[data-testid=stock]') && "
            "document.querySelectorAll('#hand [data-card]').length >= 9 && "
            "[...document.querySelectorAll('button')].some(b => /COMPRAR|BATER/.test(b.textContent))"
            " ? performance.now() : false"
        )
        spect_js = "() => document.querySelector('[data-testid=stock]') ? performance.now() : false"
        for _ in range(args.loads):
            page = players[1]
            page.goto(url)
            warm.append(page.wait_for_function(ready_js, polling="raf").json_value())
            fresh = new_page()
            fresh.goto(url)
            cold.append(fresh.wait_for_function(spect_js, polling="raf").json_value())
            fresh.context.close()
        print(summary("table interactive, seated player reload (nav start -> stock + hand + buttons)", warm))
        print(summary("table interactive, new browser cold cache (nav start -> stock)", cold))
        browser.close()

    ok = pct(per_move, 95) < 150 and statistics.median(warm) < 2000 and statistics.median(cold) < 2000
    print("targets (p95 < 150 ms, interactive < 2 s):", "MET" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
