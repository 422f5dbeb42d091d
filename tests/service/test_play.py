"""Acting through the service: permissions, the version check, racing clicks, refusals that
change nothing, persistence across a restart, chat limits."""

from __future__ import annotations

import threading

import pytest

from pifecacheta.rules import CACHETA_7, PIFE, Discard, Draw, IllegalActionError, Phase, TakeDiscard
from pifecacheta.service import Refusal, TableService

from .helpers import hidden_match, log_count, table_row


@pytest.fixture
def pife_table(svc: TableService, people):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    return code


def _state(engine, code):
    row = table_row(engine, code)
    return row.version, row.match_json, row.status, log_count(engine, code)


def test_only_the_seat_to_play_moves(svc: TableService, db_engine, people, pife_table) -> None:
    ana, bia, caio, _ = people
    code = pife_table
    v = svc.snapshot(code, ana).version
    before = _state(db_engine, code)
    with pytest.raises(IllegalActionError) as e:  # seat 1 starts (seed 000 line 50)
        svc.act(code, ana, Draw(), expected_version=v)
    assert e.value.code == "not_your_turn"
    with pytest.raises(Refusal) as e2:  # a spectator cannot act
        svc.act(code, caio, Draw(), expected_version=v)
    assert e2.value.code == "not_seated"
    with pytest.raises(IllegalActionError) as e:  # the pile starts empty
        svc.act(code, bia, TakeDiscard(), expected_version=v)
    assert e.value.code == "discard_empty"
    assert _state(db_engine, code) == before  # refusals write nothing (version, state, log)

    v2 = svc.act(code, bia, Draw(), expected_version=v)
    assert v2 == v + 1
    snap = svc.snapshot(code, bia)
    assert snap.version == v2 and len(snap.view.hand) == 10 and snap.view.phase is Phase.DISCARD
    card = snap.view.hand[0]
    v3 = svc.act(code, bia, Discard(card), expected_version=v2)
    assert svc.snapshot(code, ana).view.discard_pile[-1] == card
    log = svc.action_log(code)
    assert [e["action"]["type"] for e in log[-2:]] == ["draw", "discard"]
    assert log[-1]["version"] == v3 and log[-1]["seat"] == 1 and log[-1]["actor"] == f"player:{bia.player_id}"


def test_stale_version_is_refused_and_changes_nothing(
    svc: TableService, db_engine, people, pife_table
) -> None:
    _, bia, _, _ = people
    code = pife_table
    v = svc.snapshot(code, bia).version
    svc.act(code, bia, Draw(), expected_version=v)
    before = _state(db_engine, code)
    card = svc.snapshot(code, bia).view.hand[0]
    with pytest.raises(Refusal) as e:
        svc.act(code, bia, Discard(card), expected_version=v)  # the version before the draw
    assert e.value.code == "stale_version"
    assert _state(db_engine, code) == before


def test_two_racing_acts_one_wins(svc: TableService, db_engine, people, pife_table) -> None:
    _, bia, _, _ = people
    code = pife_table
    v = svc.snapshot(code, bia).version
    barrier = threading.Barrier(2)
    results: list[object] = []

    def click() -> None:
        barrier.wait()
        try:
            results.append(svc.act(code, bia, Draw(), expected_version=v))
        except (Refusal, IllegalActionError) as e:
            results.append(e)

    threads = [threading.Thread(target=click) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wins = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert wins == [v + 1]
    assert len(refused) == 1 and refused[0].code == "stale_version"
    assert len(hidden_match(db_engine, code).round.hands[1]) == 10  # drew exactly once
    assert [e["action"]["type"] for e in svc.action_log(code)].count("draw") == 1


def test_racing_acts_from_two_services_on_one_file(db_url, clock, people, pife_table, svc) -> None:
    """Two processes (here: two services, two engines) on one SQLite file: still one winner."""
    from pifecacheta.db import make_engine

    _, bia, _, _ = people
    code = pife_table
    other = TableService(make_engine(db_url), clock=clock)
    v = svc.snapshot(code, bia).version
    barrier = threading.Barrier(2)
    results: list[object] = []

    def click(service: TableService) -> None:
        barrier.wait()
        try:
            results.append(service.act(code, bia, Draw(), expected_version=v))
        except Refusal as e:
            results.append(e.code)

    threads = [threading.Thread(target=click, args=(x,)) for x in (svc, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results, key=str) == sorted([v + 1, "stale_version"], key=str)


def test_state_survives_a_restart(db_url, clock, people, svc: TableService) -> None:
    from pifecacheta.db import make_engine

    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    v = svc.act(code, bia, Draw(), expected_version=svc.snapshot(code, bia).version)
    svc.chat(code, ana, "boa sorte")
    before = svc.snapshot(code, bia)

    restarted = TableService(make_engine(db_url), clock=clock)
    after = restarted.snapshot(code, bia)
    assert after == before
    assert after.version == v and len(after.view.hand) == 10
    assert [c.text for c in after.chat] == ["boa sorte"]
    card = after.view.hand[-1]
    restarted.act(code, bia, Discard(card), expected_version=v)
    assert svc.snapshot(code, ana).view.discard_pile == (card,)


def test_chat_rules(svc: TableService, clock, people, pife_table) -> None:
    ana, bia, caio, _ = people
    code = pife_table
    version = svc.snapshot(code, ana).version
    with pytest.raises(Refusal) as e:
        svc.chat(code, caio, "oi")
    assert e.value.code == "spectator_cannot_chat"
    for bad, why in (("   ", "chat_empty"), ("x" * 201, "chat_too_long")):
        with pytest.raises(Refusal) as e:
            svc.chat(code, ana, bad)
        assert e.value.code == why
    svc.chat(code, ana, "  " + "y" * 200 + "  ")  # 200 after strip is fine
    svc.chat(code, bia, "<script>alert(1)</script> & <b>oi</b>")
    lines = svc.snapshot(code, caio).chat  # spectators read
    assert [(c.seat, c.name) for c in lines] == [(0, "Ana"), (1, "Bia")]
    assert lines[0].text == "y" * 200
    assert lines[1].text == "<script>alert(1)</script> & <b>oi</b>"  # plain text, not escaped or stripped
    assert svc.snapshot(code, ana).version == version  # chat does not bump the table version

    for i in range(4):
        svc.chat(code, ana, f"msg {i}")
    with pytest.raises(Refusal) as e:  # 5 messages in 10 s already
        svc.chat(code, ana, "one too many")
    assert e.value.code == "chat_rate_limited"
    svc.chat(code, bia, "Bia is not limited")
    clock.advance(seconds=11)
    svc.chat(code, ana, "again")
    assert svc.snapshot(code, ana).chat[-1].text == "again"


def test_on_change_listeners_get_the_code(svc: TableService, people) -> None:
    ana, bia, _, _ = people
    seen: list[str] = []
    svc.on_change(seen.append)
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.chat(code, bia, "oi")
    with pytest.raises(Refusal):
        svc.chat(code, bia, "")
    assert seen == [code, code, code]


def test_a_lone_surrogate_in_a_chat_line_is_dropped(svc: TableService, people, pife_table) -> None:
    """A browser's JSON may carry a lone surrogate (\\ud800): dropped like a control character,
    on every database, instead of an encoding error; a line of nothing else is empty."""
    ana = people[0]
    svc.chat(pife_table, ana, "oi\ud800 tudo bem")
    assert svc.snapshot(pife_table, ana).chat[-1].text == "oi tudo bem"
    with pytest.raises(Refusal) as e:
        svc.chat(pife_table, ana, "\udfff")
    assert e.value.code == "chat_empty"


def test_a_chat_line_of_nothing_visible_is_empty_and_overrides_are_dropped(
    svc: TableService, people, pife_table
) -> None:
    """Zero-width spaces alone are an empty line; a right-to-left override does not turn the
    line around; an emoji family keeps its joiners; a letter keeps at most MARKS_MAX accents
    (more are drawn over the lines above)."""
    from pifecacheta.service.chat import MARKS_MAX

    ana = people[0]
    for invisible in ("\u200b\u200b", "\ufeff", "\u202e \u2066", "\u200d\u0301\u0301"):
        with pytest.raises(Refusal) as e:
            svc.chat(pife_table, ana, invisible)
        assert e.value.code == "chat_empty", repr(invisible)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    svc.chat(pife_table, ana, f"\u202eolleh {family} e" + "\u0301" * 20)
    text = svc.snapshot(pife_table, ana).chat[-1].text
    assert text == f"olleh {family} e" + "\u0301" * MARKS_MAX
