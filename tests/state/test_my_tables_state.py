"""MINHAS MESAS in the state layer: the rows as the page shows them in pt and es, the watched
codes this browser keeps, the live dependency on the lobby tab's ``player:<id>`` key, and
the join that needs SENTAR À MESA (a load seats nobody)."""

from __future__ import annotations

import asyncio
import doctest
from datetime import UTC, datetime, timedelta

import pytest
import reflex as rx
from _tab import RealTab, use_service

from pifecacheta.rules import PIFE
from pifecacheta.service import MyTable, TableService
from pifecacheta.state import my_tables, seating
from pifecacheta.state.my_tables import MyTablesState, remembered, rows_for
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def _row(**kw) -> MyTable:
    base = dict(
        code="c1",
        mode="cacheta",
        lives=7,
        status="playing",
        round_over=False,
        seats=("Ana", "Bia"),
        bots=(False, False),
        my_seat=0,
        created=True,
        watched=False,
        turn_seat=1,
        turn_name="Bia",
        my_turn=False,
        winner_name="",
        last_move_at=NOW - timedelta(minutes=5),
        old=False,
    )
    return MyTable(**{**base, **kw})


def test_the_docstring_examples_hold():
    for module in (my_tables, seating):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("lang", "game", "theirs", "mine", "waiting", "won", "when"),
    [
        (
            "pt",
            "Cacheta · 7 vidas",
            "Vez de Bia",
            "Esperando a sua jogada",
            "Esperando começar",
            "Terminada: venceu Bia",
            "há 5 minutos",
        ),
        (
            "es",
            "Cacheta · 7 vidas",
            "Turno de Bia",
            "Esperan tu jugada",
            "Esperando que empiece",
            "Terminada: ganó Bia",
            "hace 5 minutos",
        ),
    ],
)
def test_rows_in_the_viewers_language(lang, game, theirs, mine, waiting, won, when):
    rows = rows_for(
        [
            _row(my_turn=True, turn_seat=0, turn_name="Ana"),
            _row(code="c2"),
            _row(code="c3", status="lobby", turn_seat=None, turn_name=""),
            _row(code="c4", status="finished", turn_seat=None, turn_name="", winner_name="Bia", old=True),
        ],
        NOW,
        lang,
    )
    assert [r["code"] for r in rows] == ["c1", "c2", "c3", "c4"]  # the service's order is kept
    assert [r["status"] for r in rows] == [mine, theirs, waiting, won]
    assert rows[0]["my_turn"] and not rows[1]["my_turn"] and rows[3]["old"]
    assert rows[0]["game"] == game and rows[0]["seats"] == "Ana, Bia" and rows[0]["when"] == when
    assert rows[0]["href"] == "/mesa/c1"
    assert rows[1]["label"].startswith(f"{game}: Ana, Bia. {theirs}.") and when in rows[1]["label"]
    pife = rows_for([_row(mode="pife", lives=0, status="expired")], NOW, lang)[0]
    assert pife["game"] == "Pife" and pife["status"] in ("Expirou", "Expiró")


@pytest.mark.parametrize(
    ("lang", "decided", "over"),
    [
        ("pt", "Partida decidida: venceu Bia", "FIM DA RODADA"),
        ("es", "Partida decidida: ganó Bia", "FIN DE LA RONDA"),
    ],
)
def test_a_round_over_that_decided_the_match_names_the_winner(lang, decided, over):
    """FIM DA RODADA after Pife's go-out (seed 000 line 48) has decided the match: the row says
    who won, not that a round is over; another FIM DA RODADA still says so."""
    won, plain = rows_for(
        [
            _row(mode="pife", round_over=True, my_turn=True, turn_seat=None, turn_name="", winner_name="Bia"),
            _row(code="c2", round_over=True, my_turn=True, turn_seat=None, turn_name=""),
        ],
        NOW,
        lang,
    )
    assert won["status"] == decided and plain["status"] == over


@pytest.mark.parametrize(("lang", "rnd", "lives"), [("pt", "Rodada", "vidas"), ("es", "Ronda", "vidas")])
def test_two_tables_of_the_same_friends_read_apart(lang, rnd, lives):
    """The round and, in Cacheta, each seat's lives tell two tables of the same friends apart,
    on screen and in the link's accessible name."""
    one, two = rows_for(
        [
            _row(code="c1", round_number=3, lives_left=(6, 5)),
            _row(code="c2", round_number=1, lives_left=(7, 7)),
        ],
        NOW,
        lang,
    )
    assert one["game"] == f"Cacheta · 7 vidas · {rnd} 3" and two["game"] == f"Cacheta · 7 vidas · {rnd} 1"
    assert one["seats"] == "Ana ♥ 6, Bia ♥ 5" and two["seats"] == "Ana ♥ 7, Bia ♥ 7"
    assert one["label"].startswith(f"Cacheta · 7 vidas · {rnd} 3: Ana 6 {lives}, Bia 5 {lives}.")
    assert one["label"] != two["label"]
    pife = rows_for([_row(mode="pife", lives=0, round_number=2)], NOW, lang)[0]
    assert pife["game"] == f"Pife · {rnd} 2" and pife["seats"] == "Ana, Bia"
    waiting = rows_for([_row(status="lobby", round_number=0)], NOW, lang)[0]
    assert waiting["game"] == "Cacheta · 7 vidas" and waiting["seats"] == "Ana, Bia"


def test_the_watched_codes_kept_in_the_browser():
    assert remembered('["a", "b", "c", "d", "e", "f"]') == ["a", "b", "c", "d", "e"]
    assert remembered('{"a": 1}') == [] and remembered("") == []


def test_mine_is_recomputed_when_the_lobby_tabs_key_is_pushed():
    """The feed pushes a new ``TableState.table_version`` to the lobby tab (its ``table_code``
    is ``player:<id>``): ``mine`` depends on it, and on the viewer's identity and language."""
    deps = MyTablesState.computed_vars["mine"]._deps(objclass=MyTablesState)
    assert {"table_code", "table_version"} <= deps[TableState.get_full_name()]
    assert {"player_id", "secret", "lang"} <= deps[ViewerState.get_full_name()]


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    monkeypatch.setattr(my_tables, "get_service", lambda: service)
    return service


def test_the_list_of_a_lobby_tab_and_nothing_at_a_table(svc):
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    tab = RealTab(code, ana)
    fget = MyTablesState.computed_vars["mine"]._fget

    async def mine(table_code: str):
        from pifecacheta.pifecacheta import app

        async with app.modify_state(rx.BaseStateToken(ident=tab.token, cls=MyTablesState)) as root:
            viewer = await root.get_state(ViewerState)
            viewer.player_id, viewer.secret, viewer.name = ana.player_id, ana.secret, "Ana"
            table = await root.get_state(TableState)
            table.table_code = table_code
            return await fget(await root.get_state(MyTablesState))

    shown = asyncio.run(mine(f"player:{ana.player_id}"))
    assert [r["code"] for r in shown["recent"]] == [code] and shown["old"] == []
    assert asyncio.run(mine(code)) == {"recent": [], "old": [], "act": 0}  # at a table: no read at all


def test_opening_the_link_seats_nobody_until_the_press(svc):
    """TableState.load no longer joins: a browser that has a name only looks at the table."""
    ana = svc.identify(None, None, "Ana")
    bia = svc.identify(None, None, "Bia")
    code = svc.create_table(ana, PIFE)
    tab = RealTab(code, bia)
    tab.set(join_name="Bia")
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana"]
    tab.run(TableState.sit)
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana", "Bia"]
    tab.run(TableState.leave_seat)
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana"]
    creator = RealTab(code, ana)
    creator.run(TableState.add_one_bot)
    creator.run(TableState.add_one_bot)
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana", "Carmen", "Tito"]
    creator.run(TableState.remove_seat, 1)
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana", "Tito"]
    tab.run(TableState.remove_seat, 1)  # not the creator: refused with a message, nothing changes
    assert tab.message == "err.not_creator"
    creator.run(TableState.remove_seat, 3)
    assert creator.message == "err.no_such_seat"
    assert [s.name for s in svc.snapshot(code, None).seats] == ["Ana", "Tito"]


@pytest.mark.parametrize(
    ("lang", "status"),
    [
        ("pt", "Bia está há mais de 48 horas sem jogar: você pode ENCERRAR POR AUSÊNCIA"),
        ("es", "Bia lleva más de 48 horas sin jugar: puedes TERMINAR POR AUSENCIA"),
    ],
)
def test_a_row_where_the_player_may_end_the_match_by_absence_says_so(lang, status):
    """Seed 000 line 72: the row names the absent seat and the button, on screen and spoken."""
    row = rows_for([_row(absence=True, last_move_at=NOW - timedelta(days=2))], NOW, lang)[0]
    assert row["absence"] and not row["my_turn"]
    assert row["status"] == status and f". {status}." in row["label"]
    plain = rows_for([_row()], NOW, lang)[0]
    assert not plain["absence"] and plain["status"] != status
