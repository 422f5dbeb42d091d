"""The per-tab token bucket of pifecacheta/ratelimit.py and the per-address connection limit of
pifecacheta/connlimit.py (the wire tests flood and churn a real server)."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from pifecacheta.connlimit import BURST as CONN_BURST
from pifecacheta.connlimit import RATE as CONN_RATE
from pifecacheta.connlimit import ChurnGuard, client_address, opens_session, trusted_proxies
from pifecacheta.ratelimit import BURST, RATE, FloodGuard, TokenBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate():
    clock = Clock()
    buckets = TokenBuckets(clock=clock)
    assert all(buckets.take("tab-a") for _ in range(BURST))
    assert not buckets.take("tab-a")  # the burst is spent
    assert buckets.take("tab-b")  # another tab has its own bucket
    clock.now += 1.0 / RATE
    assert buckets.take("tab-a") and not buckets.take("tab-a")  # one more per 1/RATE s
    clock.now += 3600
    assert sum(buckets.take("tab-a") for _ in range(BURST + 5)) == BURST  # refilled, never above


def _event(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, payload={})


def _state(token: str) -> SimpleNamespace:
    return SimpleNamespace(router=SimpleNamespace(session=SimpleNamespace(client_token=token)))


def test_the_guard_drops_the_excess_logs_once_and_never_drops_a_page_load(caplog):
    clock = Clock()
    guard = FloodGuard(TokenBuckets(clock=clock))

    async def run() -> list[object]:
        out = []
        for _ in range(BURST + 50):
            out.append(await guard.preprocess(None, _state("tab-x"), _event("s.table_state.draw")))
        for _ in range(5):  # the page's own reload while flooded: processed
            out.append(
                await guard.preprocess(None, _state("tab-x"), _event("reflex___state____state.hydrate"))
            )
        return out

    with caplog.at_level(logging.WARNING, logger="pifecacheta.ratelimit"):
        results = asyncio.run(run())
    assert results[:BURST] == [None] * BURST
    assert all(r is not None and not r.delta and not r.events for r in results[BURST : BURST + 50])
    assert results[-5:] == [None] * 5
    assert [r.getMessage() for r in caplog.records] == [
        "tab tab-x sends events faster than 50/s: dropping the excess"
    ]


# ---- connection churn: pifecacheta/connlimit.py ---------------------------------------------------
def _scope(
    peer: str, path: str = "/_event/", query: bytes = b"EIO=4&transport=websocket&token=t", **headers: str
) -> dict[str, object]:
    raw = [(k.replace("_", "-").lower().encode(), v.encode()) for k, v in headers.items()]
    return {"type": "websocket", "client": (peer, 50000), "path": path, "query_string": query, "headers": raw}


def test_the_client_address_is_the_peer_or_what_a_proxy_on_this_machine_forwards():
    assert client_address(_scope("198.51.100.4")) == "198.51.100.4"
    # an outside peer cannot pretend to be someone else
    assert client_address(_scope("198.51.100.4", x_forwarded_for="203.0.113.9")) == "198.51.100.4"
    # nginx on this machine appends the address it saw: the rightmost one not on this machine
    assert client_address(_scope("127.0.0.1", x_forwarded_for="10.9.9.9, 203.0.113.9")) == "203.0.113.9"
    assert client_address(_scope("127.0.0.1", x_forwarded_for="203.0.113.9, 127.0.0.1")) == "203.0.113.9"
    assert client_address(_scope("::1", x_forwarded_for="2001:db8::7")) == "2001:db8::7"
    # a client on this machine itself: not limited
    assert client_address(_scope("127.0.0.1")) is None
    assert client_address(_scope("127.0.0.1", x_forwarded_for="127.0.0.1")) is None
    assert (
        client_address(_scope("127.0.0.1", x_forwarded_for="not an address, 127.0.0.1")) == "not an address"
    )


def test_a_proxy_on_another_machine_is_trusted_only_when_named(monkeypatch):
    proxies = trusted_proxies("10.0.0.5, 10.1.0.0/16, not a network")
    assert client_address(_scope("10.0.0.5", x_forwarded_for="203.0.113.9"), proxies) == "203.0.113.9"
    assert (
        client_address(_scope("10.1.2.3", x_forwarded_for="203.0.113.9, 10.0.0.5"), proxies) == "203.0.113.9"
    )
    assert client_address(_scope("10.0.0.6", x_forwarded_for="203.0.113.9"), proxies) == "10.0.0.6"
    assert client_address(_scope("10.0.0.5", x_forwarded_for="203.0.113.9")) == "10.0.0.5"  # not named
    monkeypatch.setenv("PIFECACHETA_TRUSTED_PROXIES", "10.0.0.5")
    monkeypatch.setenv("PIFECACHETA_CONN_BURST", "3")
    guard = ChurnGuard(Asgi(), hold=0.0)
    assert guard.buckets.burst == 3 and [str(n) for n in guard.proxies] == ["10.0.0.5/32"]


def test_only_a_new_socket_session_counts():
    assert opens_session(_scope("198.51.100.4"))
    assert opens_session(_scope("198.51.100.4", path="/backend/_event"))  # a backend path prefix
    assert not opens_session(_scope("198.51.100.4", query=b"EIO=4&transport=polling&sid=abc"))
    assert not opens_session(_scope("198.51.100.4", path="/ping"))
    assert not opens_session({"type": "lifespan"})


class Asgi:
    """A downstream app that accepts, and the messages a guarded request sent."""

    def __init__(self) -> None:
        self.served = 0

    async def __call__(self, scope, receive, send) -> None:
        self.served += 1
        await send({"type": "websocket.accept"})


async def _connect(guard: ChurnGuard, scope: dict[str, object]) -> list[dict[str, object]]:
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    await guard(scope, receive, send)
    return sent


def test_churn_is_refused_beyond_the_burst_then_let_through_at_the_rate(caplog):
    clock = Clock()
    inner = Asgi()
    guard = ChurnGuard(inner, TokenBuckets(rate=CONN_RATE, burst=CONN_BURST, clock=clock), hold=0.0)

    async def run() -> list[list[dict[str, object]]]:
        out = [await _connect(guard, _scope("203.0.113.7")) for _ in range(CONN_BURST + 30)]
        # meanwhile: another person, every tab of a household, and this machine are let in
        out += [await _connect(guard, _scope("127.0.0.1", x_forwarded_for="198.51.100.4")) for _ in range(8)]
        out += [await _connect(guard, _scope("127.0.0.1")) for _ in range(CONN_BURST + 30)]
        clock.now += 1.0 / CONN_RATE  # one more connection per 1/RATE s for the churner
        out += [await _connect(guard, _scope("203.0.113.7")) for _ in range(2)]
        return out

    with caplog.at_level(logging.WARNING, logger="pifecacheta.connlimit"):
        results = asyncio.run(run())
    accepted = [{"type": "websocket.accept"}]
    refused = [{"type": "websocket.close", "code": 1008, "reason": "too many connections"}]
    churn, others, again = results[: CONN_BURST + 30], results[CONN_BURST + 30 : -2], results[-2:]
    assert churn == [accepted] * CONN_BURST + [refused] * 30
    assert others == [accepted] * len(others)
    assert again == [accepted, refused]
    assert guard.refused == 31 and inner.served == CONN_BURST + len(others) + 1
    assert [r.getMessage() for r in caplog.records] == [
        f"address 203.0.113.7 opens connections faster than {CONN_RATE:g}/s (burst {CONN_BURST}):"
        " refusing the excess"
    ]  # one line per LOG_EVERY
    clock.now += 61
    with caplog.at_level(logging.WARNING, logger="pifecacheta.connlimit"):
        caplog.clear()
        asyncio.run(_drain(guard, CONN_BURST + 1))
    assert caplog.records[-1].getMessage().endswith("(30 refused since the previous warning)")


async def _drain(guard: ChurnGuard, n: int) -> None:
    for _ in range(n):
        await _connect(guard, _scope("203.0.113.7"))


def test_a_refused_polling_request_gets_429_after_the_hold():
    inner = Asgi()
    guard = ChurnGuard(inner, TokenBuckets(rate=1.0, burst=1), hold=0.05)
    scope = _scope("198.51.100.4", query=b"EIO=4&transport=polling") | {"type": "http"}

    async def run() -> tuple[list[dict[str, object]], float]:
        await _connect(guard, scope)
        t0 = asyncio.get_running_loop().time()
        sent = await _connect(guard, scope)
        return sent, asyncio.get_running_loop().time() - t0

    sent, took = asyncio.run(run())
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 429
    assert took >= 0.05 and inner.served == 1


def test_a_tab_that_keeps_flooding_has_its_socket_closed_once(caplog):
    from pifecacheta.ratelimit import CUT_OFF

    closed: list[tuple[str, str]] = []

    class Sio:
        async def disconnect(self, sid: str, namespace: str) -> None:
            closed.append((sid, namespace))

    app = SimpleNamespace(sio=Sio())
    state = SimpleNamespace(
        router=SimpleNamespace(session=SimpleNamespace(client_token="tab-f", session_id="sid-7"))
    )
    clock = Clock()
    guard = FloodGuard(TokenBuckets(clock=clock))

    async def run(n: int) -> None:
        for _ in range(n):
            await guard.preprocess(app, state, _event("s.table_state.draw"))
        await asyncio.sleep(0)  # the close runs after the event

    with caplog.at_level(logging.WARNING, logger="pifecacheta.ratelimit"):
        asyncio.run(run(BURST + CUT_OFF - 1))
        assert closed == []  # flooding, but not yet for long
        asyncio.run(run(5))
        assert closed == [("sid-7", "/_event")] and guard.cut_off == 1
        asyncio.run(run(CUT_OFF))  # the same window: closed once only
    assert closed == [("sid-7", "/_event")]
    assert [r.getMessage() for r in caplog.records][-1] == (
        f"tab tab-f kept flooding ({CUT_OFF} events dropped): closing its connection"
    )
    clock.now += 61  # a new window: the count starts again
    asyncio.run(run(CUT_OFF - 1))
    assert len(closed) == 1
