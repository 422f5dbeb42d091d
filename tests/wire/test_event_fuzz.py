"""Forged events over a real websocket: refused with a code, nothing changed but legal moves;
a flood of events and a churn of connections slowed.

One backend process (``reflex run --env prod --backend-only``, as production runs it; the
bench's ``Server``) serves two Cacheta tables of two people and two bots each. Hypothesis draws
batches of forged events, sent by a seated player's tab, a spectator's tab and a tab of the
other table, mixed with the moves the seat would really make: every event handler of the
table's and the viewer's states and unknown names, with wrong types, missing and extra
fields, huge strings, unicode controls, other seats' cards, stale and future versions, and
Reflex's generic ``setvar``. After each batch:

- the server still answers (``/ping``, and every tab gets an update for a new event);
- each new action-log row is a legal action of the seat of its actor (the service applied it
  through the engine; a spectator's or another table's tab never moved);
- no frame any tab received holds an exception's text (only ``err.*`` refusal keys);
- the server's log holds no traceback.

The number of batches is ``FUZZ_EXAMPLES`` (default 12; the long run:
``FUZZ_EXAMPLES=300 .venv/bin/python -m pytest tests/wire -q``).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from _load_io import Config, Server, SioTab  # noqa: E402  (the bench's websocket client and server)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
LEAKS = (
    "Traceback",
    "An error occurred",
    "TypeError",
    "AttributeError",
    "KeyError",
    "ValueError",
    "Exception",
)


class World:
    """The running server, its database, and the names the frames use."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.db_url = f"sqlite:///{workdir / 'fuzz.db'}"
        self.env = dict(os.environ) | {
            "PIFECACHETA_DB_URL": self.db_url,
            "PIFECACHETA_BOT_DELAY": "0.05",
            "PIFECACHETA_ROUND_OVER_DELAY": "0.2",
            "REFLEX_TELEMETRY_ENABLED": "false",
            "REFLEX_CHECK_LATEST_VERSION": "false",
            "PYTHONUNBUFFERED": "1",
            "PATH": f"{ROOT / '.tools' / 'node_modules' / '.bin'}:{os.environ.get('PATH', '')}",
        }
        spec = json.dumps({"tables": 2, "scenario": "cacheta"})
        out = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "bench_load.py"), "--_setup", spec],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-3000:]
        self.setup: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        self.server = Server(Config("fuzz", ROOT), self.env, workdir)
        self.server.start()
        self.url = f"ws://127.0.0.1:{self.server.port}"
        self.engine = sa.create_engine(self.db_url)

    def close(self) -> None:
        self.engine.dispose()
        self.server.stop()

    def log_rows(self, code: str) -> list[tuple[int, int | None, str]]:
        """(version, seat, actor) of the table's action log, in order."""
        with self.engine.connect() as c:
            return [
                (int(v), s, str(a))
                for v, s, a in c.execute(
                    sa.text(
                        "SELECT a.version, a.seat, a.actor FROM action_log a JOIN game_table t"
                        " ON a.table_id = t.id WHERE t.code = :code ORDER BY a.id"
                    ),
                    {"code": code},
                )
            ]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    workdir = Path(tempfile.mkdtemp(prefix="fuzz_"))
    w = World(workdir)
    try:
        yield w
    finally:
        w.close()
        log = (workdir / "server.log").read_text(errors="replace")
        shutil.rmtree(workdir, ignore_errors=True)
        assert "Traceback" not in log, log[-4000:]


class FuzzTab:
    """One tab (a seated person, or a spectator when ``person`` is None) at table ``table``."""

    def __init__(self, world: World, table: int, person: dict[str, Any] | None) -> None:
        self.world, self.person = world, person
        self.code = world.setup["tables"][table]["code"]
        self.router = {
            "pathname": f"/mesa/{self.code}",
            "asPath": f"/mesa/{self.code}",
            "query": {"code": self.code},
        }
        self.frames: list[str] = []
        self.ui: dict[str, Any] = {}
        self.echoes = 0  # frames carrying the viewer's sort_rank (see settled)
        self.sio = SioTab(world.url, str(uuid.uuid4()), world.setup["version"], self.on_update)

    def on_update(self, _t: float, update: dict[str, Any]) -> None:
        self.frames.append(json.dumps(update))
        viewer = (update.get("delta") or {}).get(self.world.setup["session"]) or {}
        self.echoes += any(k.startswith("sort_rank") for k in viewer)
        delta = (update.get("delta") or {}).get(self.world.setup["table"]) or {}
        if isinstance(delta.get("ui_rx_state_"), dict):
            self.ui = delta["ui_rx_state_"]

    async def open(self) -> None:
        s, payload = self.world.setup, {}
        if self.person is not None:
            fq = s["session"] + ".{}_rx_state_"
            ident = {k: self.person[k] for k in ("player_id", "secret", "name")} | {"lang": "pt"}
            payload["vars"] = {fq.format(k): v for k, v in ident.items()}
        event = {"name": s["root"] + ".hydrate_and_load", "payload": payload, "router_data": self.router}
        await self.sio.connect({"event": event, "state_schema": s["schema"]})
        await self.settled()

    async def send(self, state: str, name: str, payload: Any) -> None:
        await self.sio.emit_event({"name": f"{state}.{name}", "payload": payload, "router_data": self.router})

    async def settled(self, timeout: float = 30.0) -> None:
        """Wait until every event sent so far has been answered. Reflex runs one tab's events
        in order and sends a frame only for a change, so this sends one that always changes
        something (SORT, ``toggle_sort``, twice: the order is as it was) and waits for both
        echoes of the viewer's ``sort_rank``."""
        for _ in range(2):
            before = self.echoes
            await self.send(self.world.setup["session"], "toggle_sort", {})
            deadline = asyncio.get_running_loop().time() + timeout
            while self.echoes == before:
                assert not self.sio.closed.is_set(), f"socket closed: {self.sio.close_reason}"
                if asyncio.get_running_loop().time() > deadline:
                    log = self.world.server.log_path.read_text(errors="replace")[-3000:]
                    raise AssertionError(f"the server stopped answering; its log ends:\n{log}")
                await asyncio.sleep(0.02)


# ---- what the forged events are made of ------------------------------------------------------
CARDS = [f"{r}{s}{d}" for r in ("A", "2", "7", "10", "J", "K") for s in "CDHS" for d in ("", "'")]
TEXT = st.one_of(
    st.sampled_from(
        ["", "ZZ", "<b>KD</b>", "KD; DROP TABLE game_table", "$& $' $`", "\u202e\u0000\u200b", "draw"]
    ),
    st.sampled_from(CARDS),
    st.text(max_size=40),
    st.just("x" * 20_000),
)
VALUE = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 5, 10**9]),
    TEXT,
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
TABLE_EVENTS = [
    "draw", "take", "pile_click", "card_double", "drop_on_pile", "go_out", "announce", "next_round", "resign",
    "claim_absence", "leave_table", "vote_rematch", "send_chat", "clear_message", "sit", "start", "add_bots",
    "set_join_name", "drag_start", "load", "setvar", "no_such_event",
]  # fmt: skip
VIEWER_EVENTS = ["set_language", "set_deck", "init", "setvar"]  # toggle_sort: settled's echo
PARAMS = [
    "version",
    "card_id",
    "phase",
    "selected",
    "form",
    "serial",
    "name",
    "var_name",
    "value",
    "lang",
    "deck",
]


@st.composite
def forged(draw: st.DrawFn) -> tuple[int, str, str, Any]:
    """(sender: 0 seated player, 1 spectator, 2 other table's player; which state; event; payload)."""
    sender = draw(st.integers(0, 2))
    viewer = draw(st.booleans()) and draw(st.integers(0, 4)) == 0
    name = draw(st.sampled_from(VIEWER_EVENTS if viewer else TABLE_EVENTS))
    if draw(st.integers(0, 9)) == 0:
        payload: Any = draw(st.one_of(st.lists(VALUE, max_size=2), TEXT, st.none()))  # not even a dict
    else:
        keys = draw(st.lists(st.sampled_from(PARAMS), max_size=4, unique=True))
        payload = {k: draw(VALUE) for k in keys}
        if name == "setvar":
            payload["var_name"] = draw(
                st.sampled_from(
                    ["me", "table_code", "message", "table_version", "ui", "_secret", "player_id", "nope"]
                )
            )
        if "version" in payload and draw(st.booleans()):
            payload["version"] = draw(st.sampled_from(["current", "stale", "future"]))
    return sender, "viewer" if viewer else "table", name, payload


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.generate),  # no shrinking: each try costs a real round trip
)
@given(batch=st.lists(forged(), min_size=4, max_size=10))
def test_forged_events_are_refused_and_only_legal_moves_change_the_table(
    world: World, batch: list[Any]
) -> None:
    asyncio.run(_run_batch(world, batch))


async def _run_batch(world: World, batch: list[Any]) -> None:
    table = world.setup["tables"][0]
    other = world.setup["tables"][1]
    tabs = [
        FuzzTab(world, 0, table["people"][0]),
        FuzzTab(world, 0, None),
        FuzzTab(world, 1, other["people"][0]),
    ]
    for tab in tabs:
        await tab.open()
    before = world.log_rows(table["code"])
    before_other = world.log_rows(other["code"])
    try:
        for sender, state_kind, name, payload in batch:
            tab = tabs[sender]
            state = world.setup["session" if state_kind == "viewer" else "table"]
            if isinstance(payload, dict) and isinstance(payload.get("version"), str):
                v = int(tab.ui.get("version", 0))
                payload["version"] = {"current": v, "stale": v - 1, "future": v + 7}.get(
                    payload["version"], v
                )
            await tab.send(state, name, payload)
            await tab.settled()
        for tab in tabs:
            await tab.settled()
    finally:
        await asyncio.gather(*(t.sio.close() for t in tabs), return_exceptions=True)
    for t, was in ((table, before), (other, before_other)):
        seat_of_actor = {f"player:{p['player_id']}": p["seat"] for p in t["people"]}
        now = world.log_rows(t["code"])
        assert now[: len(was)] == was  # the log only grows
        for version, seat, actor in now[len(was) :]:
            # a bot's move, or a move of a person of this table at their own seat
            assert actor.startswith("bot:") or seat_of_actor.get(actor) == seat, (
                t["code"],
                version,
                seat,
                actor,
            )
    for tab in tabs:
        for frame in tab.frames:
            for leak in LEAKS:
                assert leak not in frame, frame[:2000]


def test_a_flooding_tab_is_slowed_and_the_others_keep_their_pace(world: World) -> None:
    """One tab sends 1,500 events as fast as its socket takes them: most are dropped (a burst
    and then RATE per second get through), the server says so once in its log, another tab
    at the same table is answered meanwhile, and the flooder is answered again afterwards."""
    asyncio.run(_flood(world))


async def _flood(world: World) -> None:
    from pifecacheta.ratelimit import BURST, RATE

    table = world.setup["tables"][0]
    flooder, other = FuzzTab(world, 0, table["people"][0]), FuzzTab(world, 0, table["people"][1])
    await flooder.open()
    await other.open()
    before_log = world.server.log_path.read_text(errors="replace").count("faster than")
    echoes = flooder.echoes
    t0 = asyncio.get_running_loop().time()
    try:
        for _ in range(1500):  # each would flip the sort order: its echo counts what got through
            await flooder.send(world.setup["session"], "toggle_sort", {})
        sent_in = asyncio.get_running_loop().time() - t0
        await other.settled(timeout=10)  # the other tab is answered while the flood is queued
        await asyncio.sleep(1.5)  # the flood's last echoes on their way
        through = flooder.echoes - echoes
        assert through <= BURST + RATE * (sent_in + 2.5) + 5, (through, sent_in)
        assert through >= BURST // 2  # not cut off: a burst got through
        await asyncio.sleep(1.0)
        await flooder.settled(timeout=10)  # refilled: answered again
    finally:
        await asyncio.gather(flooder.sio.close(), other.sio.close(), return_exceptions=True)
    log = world.server.log_path.read_text(errors="replace")
    assert log.count("faster than") == before_log + 1


def test_a_churning_address_is_refused_and_a_normal_client_still_connects(world: World) -> None:
    """A client behind the proxy opening, hydrating and closing connections in a loop is let in
    for a burst, then held and refused (HTTP 403), and the server says so once in its log;
    meanwhile another person's five tabs (as after a restart) and a tab on this machine
    connect and get their view, and the churner is let in again once its bucket refills."""
    asyncio.run(_churn(world))


def _tab_from(world: World, table: int, person: dict[str, Any] | None, address: str | None) -> FuzzTab:
    tab = FuzzTab(world, table, person)
    if address is not None:
        tab.sio.headers = {"X-Forwarded-For": address}  # as the cluster's nginx forwards it
    return tab


async def _churn(world: World) -> None:
    from websockets.exceptions import InvalidStatus

    from pifecacheta.connlimit import BURST, HOLD, RATE

    table = world.setup["tables"][1]
    loop = asyncio.get_running_loop()
    made, t0 = 0, loop.time()
    while True:  # the churner: a new tab each time, handshake and hydrate, then gone
        tab = _tab_from(world, 1, table["people"][1], "203.0.113.7")
        try:
            t_try = loop.time()
            await tab.open()
            made += 1
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
            assert loop.time() - t_try >= HOLD * 0.9  # held before the answer: a loop is slowed
            break
        finally:
            await tab.sio.close()
        assert made <= BURST + RATE * (loop.time() - t0) + 1, "never refused"
    assert made >= BURST
    others = [_tab_from(world, 1, table["people"][0], "198.51.100.4") for _ in range(5)]
    others.append(_tab_from(world, 0, None, None))  # a spectator on this machine
    try:
        for tab in others:
            await tab.open()
            assert tab.ui.get("version") is not None  # it has its view
    finally:
        await asyncio.gather(*(t.sio.close() for t in others), return_exceptions=True)
    await asyncio.sleep(1.2 / RATE)  # refilled by one
    again = _tab_from(world, 1, table["people"][1], "203.0.113.7")
    try:
        await again.open()
    finally:
        await again.sio.close()
    log = world.server.log_path.read_text(errors="replace")
    assert log.count("address 203.0.113.7 opens connections faster than") == 1, log[-3000:]


def test_a_tab_that_keeps_flooding_is_cut_off_and_the_others_play_on(world: World) -> None:
    """A tab sending events without end has its socket closed by the server once CUT_OFF of
    them were dropped; another tab at the table is answered meanwhile and afterwards."""
    asyncio.run(_cut_off(world))


async def _cut_off(world: World) -> None:
    from pifecacheta.ratelimit import BURST, CUT_OFF

    table = world.setup["tables"][0]
    flooder, other = FuzzTab(world, 0, table["people"][0]), FuzzTab(world, 0, table["people"][1])
    await flooder.open()
    await other.open()
    try:
        sent = 0
        while flooder.sio.close_reason is None and sent < 3 * (BURST + CUT_OFF):
            try:
                await flooder.send(world.setup["session"], "toggle_sort", {})
            except Exception:  # noqa: BLE001 - the server closed it under the send
                break
            sent += 1
            if sent % 200 == 0:
                await asyncio.sleep(0)
        deadline = asyncio.get_running_loop().time() + 15
        while flooder.sio.close_reason is None:  # the server's DISCONNECT, or its close
            assert asyncio.get_running_loop().time() < deadline, "never cut off"
            await asyncio.sleep(0.05)
        assert sent >= BURST + CUT_OFF - 5  # not before CUT_OFF drops
        await other.settled(timeout=15)
    finally:
        await asyncio.gather(flooder.sio.close(), other.sio.close(), return_exceptions=True)
    log = world.server.log_path.read_text(errors="replace")
    assert log.count("kept flooding") == 1, log[-3000:]
