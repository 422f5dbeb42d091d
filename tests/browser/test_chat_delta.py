"""The chat's lines reach a tab only when a line was added, not with every move.

``TableState.chat_lines`` (``state/table_view.py``) holds the table's chat apart from ``ui``,
which every move sends again to every tab: here the websocket frames Ana's page receives
(``_frames.Recorder``) show a chat line arriving once, and a move after it bringing a new
``ui`` without the line, while the page still shows it.
"""

from __future__ import annotations

import time

from _flows import service_or_skip
from _frames import Recorder, parse_frame, walk_strings
from _planner import find_seed
from _replay import act
from _round_end import two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7

LINE = "só uma vez, <b>$&</b>"


def _deltas(frames: list[str]) -> list[dict]:
    """The state deltas (``{state: {var: value}}``) in Socket.IO event frames."""
    out = []
    for text in frames:
        packet = parse_frame(text)
        if isinstance(packet, list) and len(packet) > 1 and isinstance(packet[1], dict):
            delta = packet[1].get("delta")
            if isinstance(delta, dict):
                out.append(delta)
    return out


def _vars(delta: dict, name: str) -> list:
    """The values of var ``name`` (e.g. ``ui``) in ``delta``, whatever its state."""
    return [sub[name + "_rx_state_"] for sub in delta.values() if name + "_rx_state_" in sub]


def _wait_for(page: Page, rec: Recorder, start: int, name: str, limit_s: float = 15.0) -> list:
    """The values of var ``name`` in the frames received after the first ``start``, once one came."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        found = [v for d in _deltas(rec.frames[start:]) for v in _vars(d, name)]
        if found:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"no {name} in the frames after #{start}")


def test_a_move_brings_no_chat_line(app_harness, new_page) -> None:
    svc = service_or_skip()
    seed, _final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=30)
    recs: dict[int, Recorder] = {}
    a, _b, code, who = two_players(
        new_page,
        app_harness,
        "cacheta7",
        seed,
        watch=lambda seat, page: recs.setdefault(seat, Recorder(page)),
    )
    rec = recs[0]
    start = len(rec.frames)
    svc.chat(code, who[1], LINE)
    expect(a.locator("#chat-log .chat-line")).to_have_text([f"Bruno: {LINE}"])
    lines = _wait_for(a, rec, start, "chat_lines")
    assert lines[-1] == [{"name": "Bruno", "text": LINE, "at": lines[-1][0]["at"]}]

    after_line = len(rec.frames)
    lines_before = a.locator("#history-side .hist-line").count()
    seat, action = log[0]
    act(svc, code, who[seat], action)
    # the page shows the move: every frame of its delta has come (one delta per change)
    expect(a.locator("#history-side .hist-line")).to_have_count(lines_before + 1)
    uis = _wait_for(a, rec, after_line, "ui")  # the move's new view came ...
    assert all("chat" not in ui for ui in uis)  # ... without the chat lines in it
    later = _deltas(rec.frames[after_line:])
    assert not [v for d in later for v in _vars(d, "chat_lines")]
    assert not any(LINE in text for d in later for text, _ in walk_strings(d))
    every = [v for d in _deltas(rec.frames) for v in _vars(d, "chat_lines")]
    assert sum(any(c["text"] == LINE for c in v) for v in every) == 1  # the line came once
    expect(a.locator("#chat-log .chat-line")).to_have_text([f"Bruno: {LINE}"])  # and stays
    expect(a.locator("#chat-log .chat-line b")).to_have_count(0)  # as text, not markup


# React's hook for its developer tools, as the page's first script: at each commit of the page
# it counts the renders of the chat's lines (ChatLinesBox, components/table/chat.py). A fiber
# rendered in this commit when it is not the object the previous commit had (React works on a
# copy of a fiber it visits) and it did work (PerformedWork, flag 1: a bailout does none).
_COUNT_RENDERS = """(() => {
    window.__pfcCommits = 0;
    window.__pfcChatRenders = 0;
    let last = null;
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject() { return 1; },
        checkDCE() {},
        onScheduleFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        onCommitFiberRoot(_id, root) {
            window.__pfcCommits++;
            const stack = [root.current];
            while (stack.length) {
                const f = stack.pop();
                if (f.elementType && f.elementType.displayName === 'ChatLinesBox') {
                    if (f !== last && (f.flags & 1)) window.__pfcChatRenders++;
                    last = f;
                }
                if (f.sibling) stack.push(f.sibling);
                if (f.child) stack.push(f.child);
            }
        },
    };
})()"""


def _renders(page: Page) -> tuple[int, int]:
    """(the page's React commits, the renders of the chat's lines) so far."""
    return tuple(page.evaluate("() => [window.__pfcCommits, window.__pfcChatRenders]"))  # type: ignore[return-value]


def test_a_move_renders_no_chat_line_again(app_harness, new_page) -> None:
    svc = service_or_skip()
    seed, _final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=30)
    recs: dict[int, Recorder] = {}

    def watch(seat: int, page: Page) -> None:
        recs[seat] = Recorder(page)
        page.add_init_script(_COUNT_RENDERS)

    a, _b, code, who = two_players(new_page, app_harness, "cacheta7", seed, watch=watch)
    svc.chat(code, who[1], "primeira")
    expect(a.locator("#chat-log .chat-line")).to_have_text(["Bruno: primeira"])
    a.wait_for_function("() => window.__pfcChatRenders >= 1")  # the hook sees the lines' component
    commits, renders = _renders(a)

    lines_before = a.locator("#history-side .hist-line").count()
    seat, action = log[0]
    act(svc, code, who[seat], action)
    expect(a.locator("#history-side .hist-line")).to_have_count(lines_before + 1)  # the move, shown
    moved_commits, moved_renders = _renders(a)
    assert moved_commits > commits  # the page rendered the move ...
    assert moved_renders == renders  # ... and none of the chat's lines

    svc.chat(code, who[0], "segunda")
    expect(a.locator("#chat-log .chat-line")).to_have_text(["Bruno: primeira", "Ana: segunda"])
    assert _renders(a)[1] > moved_renders  # a new line: rendered
