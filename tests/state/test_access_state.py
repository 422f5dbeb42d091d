"""Meu acesso and the your-turn notices on real Reflex states (the app's state manager) over a
real TableService: the secret leaves the full state and the deltas, a replaced key is said,
a personal link is claimed, the notice choices and the signal snippets."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import reflex as rx
from _tab import use_service
from sqlmodel import Session, select

from pifecacheta import i18n
from pifecacheta.models import Player
from pifecacheta.service import TableService
from pifecacheta.state import access
from pifecacheta.state.access import AccessState, access_link, parse_fragment, qr_data_url
from pifecacheta.state.browser_scripts import READ_ACCESS_FRAGMENT, turn_signal
from pifecacheta.state.notices import ICON, TURN_ICON, NoticeState, lobby_script, signal_script
from pifecacheta.state.viewer import SECRET_KEY, ViewerState


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    monkeypatch.setattr(access, "get_service", lambda: service)
    return service


def in_tab(fn: Callable[[Any, Any, Any], Any], token: str | None = None) -> Any:
    """Run ``fn(viewer, access_state, notice_state)`` (may be async) on one tab's real states."""
    from pifecacheta.pifecacheta import app

    out: list[Any] = []

    async def go() -> None:
        ident = token or f"test-{uuid.uuid4().hex}"
        async with app.modify_state(rx.BaseStateToken(ident=ident, cls=ViewerState)) as root:
            states = [await root.get_state(c) for c in (ViewerState, AccessState, NoticeState)]
            result = fn(*states)
            out.append(await result if asyncio.iscoroutine(result) else result)

    asyncio.run(go())
    return out[0]


def _js(spec: Any) -> str:
    """The JavaScript code of an ``rx.call_script`` event spec."""
    args = {str(name): value for name, value in spec.args}
    return str(args["javascript_code"]._var_value)


def _players(svc: TableService) -> int:
    with Session(svc.store.engine) as s:
        return len(s.exec(select(Player)).all())


def test_the_secret_is_left_out_of_the_full_state_and_sent_only_when_it_changes(svc):
    def check(viewer, access_state, _notices):
        viewer.player_id, viewer.name = "ab" * 16, "Ana"
        viewer._keep_secret("first-secret")
        delta = viewer.get_delta()[viewer.get_full_name()]
        assert delta[SECRET_KEY] == "first-secret"  # a new secret is written to the browser once
        viewer.name = "Ana Maria"
        later = viewer.get_delta()[viewer.get_full_name()]
        assert SECRET_KEY not in later and later["name" + SECRET_KEY[len("secret") :]] == "Ana Maria"
        viewer._keep_secret("first-secret")  # the same value: nothing to write
        assert SECRET_KEY not in viewer.get_delta().get(viewer.get_full_name(), {})
        full = json.dumps(viewer.dict(), default=str)
        assert "first-secret" not in full and "Ana Maria" in full  # a page load's hydrate
        access_state.link, access_state.qr = "https://x/acesso/entrar#id.first-secret", "data:qr"
        full = json.dumps(access_state.dict(), default=str)
        assert "first-secret" not in full and "data:qr" not in full

    in_tab(check)


def test_a_replaced_key_is_said_and_makes_no_new_player(svc):
    ana = svc.identify(None, None, "Ana")
    svc.replace_secret(ana)
    players = _players(svc)

    async def load(viewer, _a, _n):
        viewer.player_id, viewer.secret, viewer.name = ana.player_id, ana.secret, "Ana"
        return await ViewerState.init.fn(viewer), viewer.replaced, viewer.player_id

    event, replaced, pid = in_tab(load)
    assert replaced and pid == ana.player_id
    assert event is not None and "/acesso" in str(event)  # the page goes to Meu acesso
    assert _players(svc) == players


@pytest.mark.parametrize(("lang", "word"), [("pt", "Jogador"), ("es", "Jugador")])
def test_a_new_browser_gets_a_made_up_name_in_its_language(svc, lang, word):
    async def first_visit(viewer, _a, _n):
        viewer.lang = lang  # as the head script sets it from navigator.languages
        await ViewerState.init.fn(viewer)
        return viewer.player_id

    pid = in_tab(first_visit)
    with Session(svc.store.engine) as s:
        player = s.get(Player, pid)
    assert player is not None and player.name.split(" ")[0] == word

    async def access_page(viewer, access_state, _n):
        viewer.lang = lang
        await ViewerState.init.fn(viewer)
        await AccessState.load.fn(access_state)
        return viewer.name, access_state.enters_as

    typed, enters_as = in_tab(access_page)
    # no name typed yet: Meu acesso says which made-up name its link enters as
    assert typed == "" and enters_as.split(" ")[0] == word


def test_claiming_a_personal_link_makes_this_browser_the_player(svc):
    ana = svc.identify(None, None, "Ana")
    players = _players(svc)

    async def claim(viewer, access_state, _n):
        redirect = await AccessState.claim.fn(access_state, f"{ana.player_id}.{ana.secret}")
        return redirect, (viewer.player_id, viewer.secret, viewer.name), viewer.get_delta()

    redirect, held, delta = in_tab(claim)
    assert held == (ana.player_id, ana.secret, "Ana") and redirect is not None
    assert any(SECRET_KEY in d for d in delta.values())  # the link's own page stores it
    assert _players(svc) == players

    def claim_in(lang: str, link_lang: str) -> Any:
        async def run(viewer, access_state, _n):
            viewer.lang = lang  # this browser's own language before the link
            await AccessState.claim.fn(access_state, f"{ana.player_id}.{ana.secret}{link_lang}")
            return viewer.language, viewer.player_id

        return in_tab(run)

    # the link's language becomes this browser's; a link without one keeps the browser's
    assert claim_in("pt", ".es") == ("es", ana.player_id)
    assert claim_in("es", ".pt") == ("pt", ana.player_id)
    assert claim_in("es", "") == ("es", ana.player_id)

    def bad(fragment: str) -> Any:
        async def run(viewer, access_state, _n):
            await AccessState.claim.fn(access_state, fragment)
            return access_state.enter_status, viewer.player_id

        return in_tab(run)

    assert bad("garbage") == ("invalid", "")
    assert bad(f"{ana.player_id}.{'x' * 43}") == ("invalid", "")
    svc.replace_secret(ana)
    assert bad(f"{ana.player_id}.{ana.secret}") == ("replaced", "")
    assert _players(svc) == players  # a link that does not work creates nobody


def test_renewing_the_key_shows_a_new_link_and_cuts_the_old_one(svc):
    ana = svc.identify(None, None, "Ana")

    async def renew(viewer, access_state, _n):
        viewer.player_id, viewer.secret, viewer.name = ana.player_id, ana.secret, "Ana"
        await AccessState.renew.fn(access_state)
        return viewer.secret, access_state.link, access_state.qr, access_state.renewed

    secret, link, qr, renewed = in_tab(renew)
    assert secret != ana.secret and renewed
    assert link.endswith(f"/acesso/entrar#{ana.player_id}.{secret}.pt")
    assert qr.startswith("data:image/svg+xml")
    assert svc.recognise(ana.player_id, secret) is not None
    with pytest.raises(Exception, match="replaced"):
        svc.recognise(ana.player_id, ana.secret)


def test_link_helpers():
    assert access_link("https://a.b", "c" * 32, "s", "es") == f"https://a.b/acesso/entrar#{'c' * 32}.s.es"
    assert parse_fragment("c" * 32 + "." + "k" * 43 + ".es") == ("c" * 32, "k" * 43, "es")
    assert parse_fragment("c" * 32 + "." + "k" * 43) == ("c" * 32, "k" * 43, None)  # a link without one
    assert parse_fragment("c" * 32 + "." + "k" * 43 + ".fr") == ("c" * 32, "k" * 43, None)
    for bad in ("", "c" * 32, "C" * 32 + "." + "k" * 43, "c" * 32 + ".short", "c" * 32 + ".k k" + "k" * 40):
        assert parse_fragment(bad) is None, bad
    assert qr_data_url("https://a.b/x").startswith("data:image/svg+xml")
    assert "window.history.replaceState" in READ_ACCESS_FRAGMENT


def test_notice_choices(svc):
    def run(_v, _a, notices):
        assert not notices.sound_on and not notices.notify_on  # both off by default
        NoticeState.set_sound.fn(notices, True)
        assert notices.sound == "1" and notices.sound_on
        asked = NoticeState.set_notify.fn(notices, True)
        assert asked is not None and notices.notify == ""  # nothing on until the browser says yes
        NoticeState.permission_answer.fn(notices, "denied")
        assert notices.notify == "" and not notices.notify_on
        NoticeState.permission_answer.fn(notices, "granted")
        assert notices.notify == "1" and notices.notify_on
        NoticeState.permission_is.fn(notices, "default")  # withdrawn in the browser's settings
        assert notices.notify == ""
        NoticeState.set_sound.fn(notices, False)
        assert notices.sound == ""

    in_tab(run)


def test_the_signal_chimes_and_notifies_once_per_new_reason(svc):
    async def run(_v, _a, notices):
        notices.sound, notices.notify = "1", "1"
        first = await NoticeState.signal.fn(notices, "turn", "cacheta", "Ana, Bruno")
        again = await NoticeState.signal.fn(
            notices, "turn", "cacheta", "Ana, Bruno"
        )  # a language switch remounts
        cleared = await NoticeState.signal.fn(notices, "", "cacheta", "Ana, Bruno")
        return _js(first), _js(again), _js(cleared)

    first, again, cleared = in_tab(run)
    title = json.dumps("● Sua vez · Cacheta · Ana, Bruno")
    assert "/turn.wav" in first and title in first and '"nb": ""' not in first  # chime + notice
    assert "/turn.wav" not in again and title in again and '"nb": ""' in again  # title only
    assert json.dumps("Cacheta · Ana, Bruno") in cleared and "/favicon.svg" in cleared


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_tabs_title_names_the_game_and_the_seats_on_the_turn_and_off_it(lang):
    """Two tables' tabs read apart: the game and the seats' names, "● Sua vez" first on the
    viewer's turn; a waiting room's empty seats are left out."""
    turn = signal_script("turn", lang, mode="pife", sound=False, notify=False, names="Ana, , Carmen")
    idle = signal_script("", lang, mode="cacheta", sound=False, notify=False, names="Ana, Bruno, ")
    mark = "● Sua vez · Pife · Ana, Carmen" if lang == "pt" else "● Tu turno · Pife · Ana, Carmen"
    assert json.dumps(mark) in turn
    assert json.dumps("Cacheta · Ana, Bruno") in idle
    other = signal_script("", lang, mode="cacheta", sound=False, notify=False, names="Ana, Davi")
    assert json.dumps("Cacheta · Ana, Davi") in other  # another table, another title


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_signal_scripts_name_the_reason_in_the_viewers_language(lang):
    t = i18n.catalog(lang)
    for reason in ("turn", "next", "absence"):
        script = signal_script(reason, lang, mode="pife", sound=False, notify=True)
        title = t[f"notice.title_{reason}"].replace("{game}", "Pife").replace(" · {names}", "")
        assert json.dumps(title) in script and "/icon-turn.svg" in script
        assert json.dumps(t[f"notice.body_{reason}"].replace("{game}", "Pife")) in script
        assert '"sound": ""' in script
    idle = signal_script("", lang, mode="pife", sound=True, notify=True)
    assert json.dumps("Pife") in idle and '"on": false' in idle and "/turn.wav" not in idle


def test_turn_signal_inserts_values_as_json_only():
    nasty = "x'); alert(1); (\"</script>"
    script = turn_signal(on=True, title=nasty, icon="/i.svg", notify_title=nasty, notify_body=nasty)
    assert nasty not in script  # never raw: only inside a JSON string literal
    payload = script[script.rindex("})(") + 3 : -1]
    assert json.loads(payload)["title"] == nasty


def test_the_home_tab_counts_the_tables_where_the_player_may_act():
    two = lobby_script(2, "es")
    assert f'"title": {json.dumps("● Tu turno (2) · Pife o Cacheta")}' in two
    assert f'"icon": "{TURN_ICON}"' in two and '"on": true' in two
    assert '"sound": ""' in two and '"nt": ""' in two  # silent: no chime, no notification
    none = lobby_script(0, "pt")
    assert '"title": "Pife ou Cacheta"' in none and f'"icon": "{ICON}"' in none and '"on": false' in none
