"""What a screen's browser does for one move, in figures that do not depend on the machine's load.

Used by ``bench_latency.py --count-dom``. Per page, installed before any script runs
(:data:`COUNT_JS`):

* a ``MutationObserver`` on the whole document: nodes added and removed (an added subtree
  counts all its elements), attribute changes and text changes;
* a React DevTools hook (``__REACT_DEVTOOLS_GLOBAL_HOOK__``, the public hook React calls on
  every commit, in production builds too): commits, and the components that rendered in each
  (function, class, forwardRef and memo fibers with React's ``PerformedWork`` flag, or just
  mounted), walking only the subtrees the commit touched, as React DevTools does.

And per page a CDP session (:class:`Metrics`) reading Chromium's ``Performance.getMetrics``
with thread-CPU durations (``timeDomain: threadTicks``): style recalculations and layouts
(counts, and CPU seconds), script and task CPU seconds; and the page's compositor layers
(``LayerTree.layerTreeDidChange``): each is drawn on its own at every frame, and a change of
the set of layers paints the page again.

Everything is cumulative; the bench samples it before a move's click and after every other
screen painted it, and prints the per-move deltas (:func:`report`).
"""

from __future__ import annotations

import statistics
from typing import Any

COUNT_JS = r"""
(() => {
  const c = window.__paint = {added: 0, removed: 0, attrs: 0, text: 0, commits: 0, renders: 0};
  const names = window.__paintNames = {};  // renders by component name (cumulative)
  const size = (n) => (n.nodeType === 1 ? 1 + n.getElementsByTagName("*").length : 1);
  const take = (records) => {
    for (const r of records) {
      if (r.type === "childList") {
        for (const n of r.addedNodes) c.added += size(n);
        for (const n of r.removedNodes) c.removed += size(n);
      } else if (r.type === "attributes") c.attrs += 1;
      else c.text += 1;
    }
  };
  const mo = new MutationObserver(take);
  mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  window.__paintFlush = () => { take(mo.takeRecords()); return Object.assign({}, c); };
  // function 0, class 1, forwardRef 11, memo 14, simple memo 15; PerformedWork is flag 1
  const COMPONENT = new Set([0, 1, 11, 14, 15]);
  // a nameless component (a Reflex memo in a production build): its first element's id or class
  const where = (f) => {
    let h = f.child;
    while (h && h.tag !== 5) h = h.child;
    const el = h && h.stateNode;
    if (!el || !el.getAttribute) return "";
    return el.id ? "#" + el.id : "." + String(el.getAttribute("class") || el.tagName).split(" ")[0];
  };
  const visit = (first) => {
    const stack = [first];
    while (stack.length) {
      for (let f = stack.pop(); f; f = f.sibling) {
        const prev = f.alternate;
        if (COMPONENT.has(f.tag) && (prev === null || (f.flags & 1) === 1)) {
          c.renders += 1;
          const t = f.type || {};
          const n = t.displayName || t.name || (t.render && (t.render.displayName || t.render.name))
            || (t.type && (t.type.displayName || t.type.name)) || "?" + where(f);
          names[n] = (names[n] || 0) + 1;
        }
        // a subtree the commit did not touch keeps its old child fibers
        if (f.child && (prev === null || prev.child !== f.child)) stack.push(f.child);
      }
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(), supportsFiber: true, isDisabled: false,
    inject() { return 1; }, checkDCE() {},
    onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root) {
      c.commits += 1;
      try { visit(root.current.child); } catch (e) {}
    },
  };
})();
"""

FLUSH_JS = "() => window.__paintFlush ? window.__paintFlush() : null"
NAMES_JS = "() => Object.assign({}, window.__paintNames || {})"

# Chromium's Performance.getMetrics names: counts, and durations (s of the renderer's thread CPU)
CDP_COUNTS = ("LayoutCount", "RecalcStyleCount")
CDP_TIMES = ("LayoutDuration", "RecalcStyleDuration", "ScriptDuration", "TaskDuration")
DOM_KEYS = ("added", "removed", "attrs", "text", "commits", "renders")
GAUGES = ("Nodes", "Layers")


class Metrics:
    """One page's counters: the page's :data:`COUNT_JS` figures and its CDP metrics."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        self.layers = 0  # the most compositor layers the page had since the last sample
        self.cdp.on("LayerTree.layerTreeDidChange", self._layers)
        self.cdp.send("LayerTree.enable")

    def _layers(self, event: dict[str, Any]) -> None:
        self.layers = max(self.layers, len(event.get("layers") or []))

    def sample(self) -> dict[str, float]:
        """The cumulative figures now: :data:`DOM_KEYS`, :data:`CDP_COUNTS`, :data:`CDP_TIMES`
        (durations in ms), and two that are not cumulative: ``Nodes`` (the page's DOM nodes)
        and ``Layers`` (the most compositor layers since the previous sample)."""
        out: dict[str, float] = dict(self.page.evaluate(FLUSH_JS) or {})
        out["Layers"], self.layers = float(self.layers), 0
        for m in self.cdp.send("Performance.getMetrics")["metrics"]:
            if m["name"] in CDP_COUNTS or m["name"] == "Nodes":
                out[m["name"]] = m["value"]
            elif m["name"] in CDP_TIMES:
                out[m["name"]] = m["value"] * 1000
        return out


def delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """``after - before`` for every cumulative figure (``Nodes``, ``Layers``: the value after)."""
    out = {k: after[k] - before.get(k, 0.0) for k in after if k not in GAUGES}
    out.update({k: after.get(k, 0.0) for k in GAUGES})
    return out


def report(per_move: list[list[dict[str, float]]]) -> list[str]:
    """Printed lines: for each figure, the median and the max over moves of its mean over the
    screens of that move (``per_move[i]`` holds one :func:`delta` per other screen)."""
    if not per_move:
        return []
    lines = ["per move, mean of the 5 other screens (median / max over moves):"]
    keys = [*DOM_KEYS, *CDP_COUNTS, *CDP_TIMES, *GAUGES]
    for k in keys:
        vals = [statistics.mean(d.get(k, 0.0) for d in screens) for screens in per_move if screens]
        unit = " ms CPU" if k in CDP_TIMES else ""
        lines.append(f"  {k}: {statistics.median(vals):.1f} / {max(vals):.1f}{unit}")
    return lines


def top_renders(
    start: list[dict[str, int]], end: list[dict[str, int]], moves: int, top: int = 30
) -> list[str]:
    """Printed lines: the components that rendered most, by name (React's function name or
    ``displayName``; Reflex's memo components keep theirs in a production build), as renders
    per move per page over all pages (the acting one too): ``start`` / ``end`` hold each
    page's :data:`NAMES_JS` tally before the first move and after the last."""
    if moves <= 0 or not start:
        return []
    total: dict[str, float] = {}
    for a, b in zip(start, end, strict=True):
        for name, n in b.items():
            total[name] = total.get(name, 0.0) + (n - a.get(name, 0)) / moves / len(start)
    ranked = sorted(total.items(), key=lambda kv: -kv[1])[:top]
    return ["renders per move per page, by component:"] + [f"  {v:6.1f}  {k}" for k, v in ranked]
