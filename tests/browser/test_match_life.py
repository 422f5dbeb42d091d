"""A match's whole life in the browser (issue 4; seed 000 lines 66-74, seed 002 the same in Spanish).

- one person against Carmen, Tito and Luna plays a Cacheta match to its winner;
- ENCERRAR POR AUSÊNCIA after 48 simulated hours (the table's timestamps moved back in the DB);
- DESISTIR and SAIR DO JOGO (pause menu), each after a confirmation; no REVANCHE afterwards;
- REVANCHE after a normal Pife end: both agree, a new match starts at the same table;
- chat: seated players write, spectators read (late arrivals too), markup shown as text, limits.

AppHarness runs the app's backend in this process, so these tests can reach the app's own
``TableService`` (``pifecacheta.service.get_service()``): to keep the match test short they run
the sweeper's own ``drive_once`` in a tight loop (the app's sweeper ticks every 0.25 s) and give
FIM DA RODADA a 2 s self-closing delay (0 by default when bots have no delay).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from datetime import timedelta

import sqlalchemy as sa
from _flows import create_table, fast_bots, in_process_service, join_table, shots, simple_turn, start_two
from _planner import find_seed
from _replay import hand, play_log
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pifecacheta.rules import PIFE


@contextlib.contextmanager
def _clock_stopped() -> Iterator[None]:
    """The app's service reads one fixed time meanwhile (when it runs in this process), so what it
    counts per time window does not depend on how fast the machine gets the clicks through."""
    svc = in_process_service()
    if svc is None:
        yield
        return
    old = svc.store.clock
    now = svc.store.now()
    svc.store.clock = lambda: now
    try:
        yield
    finally:
        svc.store.clock = old


def _with_bots(new_page, app_harness, mode_id: str, seed: int, *, size=(1366, 900)) -> Page:
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page(width=size[0], height=size[1])
    create_table(a, app_harness.frontend_url, "Ana", mode_id)
    a.get_by_role("button", name="COMPLETAR COM ROBÔS").click()
    expect(a.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    expect(a.locator(".seat")).to_have_count(4)
    return a


def _i_am_out(page: Page) -> bool:
    return page.locator('.seat[data-seat="0"]').filter(has_text="FORA").count() > 0


def test_one_person_against_three_bots_to_the_winner(app_harness, new_page, shot):
    """Seed 000 lines 66-70: 7 lives; FIM DA RODADA between rounds; the last with lives wins;
    once only bots play, FIM DA RODADA closes by itself."""
    a = _with_bots(new_page, app_harness, "cacheta7", 5)
    title = a.locator("#round-title")
    draw = a.get_by_role("button", name="COMPRAR", exact=True, disabled=False)
    rounds = auto_closed = 0
    shot_round = False
    with fast_bots() as fast:
        deadline = time.monotonic() + 150
        while True:
            assert time.monotonic() < deadline, f"match not over after {rounds} rounds"
            expect(draw.or_(title).first).to_be_visible(timeout=30_000)
            if draw.count():
                # Ana's draw turn: it stays until she acts (a jump on a discard happens inside
                # that discard, never during the next player's draw turn)
                simple_turn(a)
                continue
            # FIM DA RODADA of a bots-only round closes by itself 2 s after the go-out (counted on
            # the server, so less on a page that got it late): it may be gone already, so its
            # text is read once and a vanished title just goes round the loop again
            try:
                text = title.inner_text(timeout=500)
            except PlaywrightTimeoutError:
                continue
            if text == "FIM DA PARTIDA":
                break
            assert text == "FIM DA RODADA", text
            rounds += 1
            if _i_am_out(a):
                # only bots still play: nobody clicks, the screen closes by itself
                expect(title.filter(has_text="FIM DA RODADA")).to_have_count(0, timeout=20_000)
                auto_closed += 1
                continue
            # Ana still plays: FIM DA RODADA waits for her PRÓXIMA RODADA
            expect(a.locator("#lives .lives-row")).to_have_count(4)
            if not shot_round:
                shots(a, shot, "life_round_over")
                shot_round = True
            a.get_by_role("button", name="PRÓXIMA RODADA").click()
            expect(title.filter(has_text="FIM DA RODADA")).to_have_count(0)
    expect(a.locator("#winner")).to_contain_text("venceu a partida!")
    winner = a.locator("#winner").inner_text().removesuffix(" venceu a partida!")
    rows = a.locator("#lives .lives-row")
    alive = [r for r in rows.all() if r.locator(".rt-Badge", has_text="FORA").count() == 0]
    assert len(alive) == 1 and winner in alive[0].inner_text()
    if fast:  # a FIM DA RODADA that waits for Ana's click is never missed
        assert rounds >= 4  # 7 lives, at most 2 lost per round: nobody is FORA before round 4
    # a normal end: REVANCHE is offered (and would start at once: the bots always agree)
    expect(a.get_by_role("button", name="REVANCHE")).to_be_visible()
    expect(a.locator("#rematch-votes")).to_have_count(0)  # nobody agreed yet: no empty list
    if fast and _i_am_out(a):
        # the page may miss a bots-only FIM DA RODADA that it got late; the log never does
        log = in_process_service().action_log(a.url.rstrip("/").rsplit("/", 1)[-1])
        closed = [e for e in log if e["action"]["type"] == "next_round" and e["actor"].startswith("bot:")]
        assert closed, "no bots-only FIM DA RODADA closed by itself"
        assert auto_closed <= len(closed)  # each one the page saw close was a bot's next_round
    shots(a, shot, "life_match_over")


def _age_table(code: str, hours: float) -> None:
    """Move the table's move clocks back ``hours`` (as if nobody played for that long)."""
    from pifecacheta.models import GameTable

    engine = sa.create_engine(os.environ["PIFECACHETA_DB_URL"])
    try:
        with engine.begin() as conn:
            row = conn.execute(
                sa.select(GameTable.turn_started_at, GameTable.last_move_at).where(GameTable.code == code)
            ).one()
            back = timedelta(hours=hours)
            conn.execute(
                sa.update(GameTable)
                .where(GameTable.code == code)
                .values(turn_started_at=row[0] - back, last_move_at=row[1] - back)
            )
    finally:
        engine.dispose()


def test_absence_claim_after_48_hours(app_harness, new_page, code_of, shot):
    """Seed 000 line 72: the player to move (Bruno) does nothing for 49 h; Ana may end the match
    by ENCERRAR POR AUSÊNCIA; Bruno loses, no REVANCHE (line 70)."""
    a, b = start_two(new_page, app_harness, "cacheta7", 11)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()  # Bruno to play
    expect(a.locator("#claim-button")).to_have_count(0)
    _age_table(code_of(a), 47)
    a.reload()
    expect(hand(a)).to_have_count(9)
    expect(a.locator("#claim-button")).to_have_count(0)  # 47 h: not yet
    _age_table(code_of(a), 2)
    a.reload()
    b.reload()
    expect(a.locator("#claim-button")).to_have_text("ENCERRAR POR AUSÊNCIA")
    expect(a.locator("#absence-hint")).to_have_text("Bruno está há mais de 48 horas sem jogar.")
    expect(b.locator("#hand [data-card]")).to_have_count(9)
    expect(b.locator("#claim-button")).to_have_count(0)  # not against oneself
    shots(a, shot, "absence_claim")
    # MINHAS MESAS tells Ana, from the home page, that she may end it (and Bruno that he should play)
    lobby = a.context.new_page()
    lobby.goto(app_harness.frontend_url)
    row = lobby.locator(f'.my-table[href="/mesa/{code_of(a)}"]')
    expect(row.locator(".rt-Badge")).to_have_text("AUSÊNCIA")
    expect(row).to_contain_text("Bruno está há mais de 48 horas sem jogar: você pode ENCERRAR POR AUSÊNCIA")
    shots(lobby, shot, "absence_my_tables")
    lobby.close()
    a.locator("#claim-button").click()
    expect(a.get_by_role("alertdialog")).to_contain_text("Bruno perde e a partida acaba.")
    shots(a, shot, "absence_confirm")
    a.locator("#confirm-claim-ok").click()
    for p in (a, b):
        expect(p.locator("#round-title")).to_have_text("FIM DA PARTIDA")
        expect(p.locator("#end-reason")).to_have_text("Encerrada por ausência de Bruno.")
        expect(p.locator("#winner")).to_have_text("Ana venceu a partida!")
        expect(p.get_by_role("button", name="REVANCHE")).to_have_count(0)
        expect(p.locator("#no-rematch")).to_have_text(
            "Sem revanche depois de uma partida encerrada por ausência."
        )
    expect(a.get_by_role("alertdialog")).to_have_count(0)
    shots(b, shot, "absence_over")


def _three(new_page, app_harness, mode_id: str, seed: int) -> tuple[Page, Page, Page]:
    a, b = start_two(new_page, app_harness, mode_id, seed)
    c = new_page(width=390, height=844)
    join_table(c, a.url, "Carla")
    expect(a.locator(".lobby-seat").filter(has_text="Carla")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    for p in (a, b, c):
        expect(hand(p)).to_have_count(9)
    return a, b, c


def test_resign_with_confirmation_pife(app_harness, new_page, shot):
    """DESISTIR asks first; cancelling changes nothing; confirming ends the match: Pife, the next
    player after the loser wins (seed 000 line 72), not the creator; no REVANCHE (line 70)."""
    a, b, c = _three(new_page, app_harness, "pife", 21)
    b.locator("#resign-button").click()
    dialog = b.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Desistir da partida?")
    shots(b, shot, "resign_confirm")
    b.locator("#confirm-resign-cancel").click()
    expect(dialog).to_have_count(0)
    expect(hand(b)).to_have_count(9)
    expect(a.locator("#round-title")).to_have_count(0)
    b.locator("#resign-button").click()
    b.locator("#confirm-resign-ok").click()
    for p in (a, b, c):
        expect(p.locator("#round-title")).to_have_text("FIM DA PARTIDA")
        expect(p.locator("#end-reason")).to_have_text("Bruno desistiu.")
        expect(p.locator("#winner")).to_have_text("Carla venceu a partida!")
        expect(p.locator('.seat[data-seat="2"] .winner-badge')).to_be_visible()  # Carla's trophy
        expect(p.locator(".winner-badge")).to_have_count(1)
        expect(p.get_by_role("button", name="REVANCHE")).to_have_count(0)
    expect(b.locator("#resign-button")).to_have_count(0)
    expect(b.locator("#pause-button")).to_have_count(0)
    shots(c, shot, "resign_over")


def test_leave_game_from_pause_menu_cacheta(app_harness, new_page, shot):
    """SAIR DO JOGO from the pause menu, after a round: Ana (seat 0) loses; Cacheta, the one with
    most lives among the others wins (ties: first after the loser), seed 000 line 72."""
    a = _with_bots(new_page, app_harness, "cacheta7", 8)
    url = a.url
    title = a.locator("#round-title")
    draw = a.get_by_role("button", name="COMPRAR", exact=True, disabled=False)
    played_round = False
    with fast_bots():
        deadline = time.monotonic() + 60
        # play simple moves until one round is over and it is Ana's turn in a later round
        while True:
            assert time.monotonic() < deadline
            expect(draw.or_(title).first).to_be_visible(timeout=30_000)
            if title.count():
                a.get_by_role("button", name="PRÓXIMA RODADA").click()
                expect(title).to_have_count(0)
                played_round = True
            elif played_round:
                break
            else:
                simple_turn(a)
        # Ana's turn: the bots wait for her, the lives stay as they are
        lives = [int(x) for x in a.locator(".seat .seat-lives").all_inner_texts()]
        bots = ("Carmen", "Tito", "Luna")
        for n, bot in enumerate(bots, start=1):
            expect(a.locator(f'.seat[data-seat="{n}"]')).to_contain_text(bot)
        assert len(set(lives)) > 1, lives  # a round was lost by someone
        expected = bots[lives[1:].index(max(lives[1:]))]
        # the pause menu: CONTINUAR closes it and nothing happens
        a.locator("#pause-button").click()
        expect(a.get_by_role("dialog")).to_contain_text("A partida fica guardada")
        shots(a, shot, "pause_menu")
        a.get_by_role("button", name="CONTINUAR").click()
        expect(a.get_by_role("dialog")).to_have_count(0)
        a.locator("#pause-button").click()
        a.get_by_role("dialog").get_by_role("button", name="SAIR DO JOGO").click()
        expect(a.get_by_role("alertdialog")).to_contain_text("conta como desistência")
        shots(a, shot, "leave_game_confirm")
        a.locator("#confirm-leave-game-ok").click()
        expect(a.locator("#name-input")).to_be_visible()
        assert "/mesa/" not in a.url
    # back at the table through the link: the end of the match
    a.goto(url)
    expect(a.locator("#round-title")).to_have_text("FIM DA PARTIDA")
    expect(a.locator("#end-reason")).to_have_text("Ana desistiu.")
    expect(a.locator("#winner")).to_have_text(f"{expected} venceu a partida!")
    expect(a.get_by_role("button", name="REVANCHE")).to_have_count(0)
    expect(a.locator("#no-rematch")).to_have_text("Sem revanche: a partida acabou porque alguém desistiu.")
    # why, and NOVA MESA under it, centred in the panel's foot as REVANCHE is
    foot = a.locator("#round-over-actions").bounding_box()
    for part in ("#no-rematch", "#round-over-actions a"):
        box = a.locator(part).bounding_box()
        assert foot and box and abs(box["x"] + box["width"] / 2 - (foot["x"] + foot["width"] / 2)) < 2, part
    expect(a.locator("#pause-button")).to_have_count(0)
    shots(a, shot, "leave_game_over")


def test_rematch_after_pife_at_the_same_table(app_harness, new_page, code_of, shot):
    """Seed 000 line 70: a normal end (Pife, first go-out); both press REVANCHE; a new match
    starts at the same table."""
    seed, final, log = find_seed(PIFE, 2, out_of_turn=False, max_actions=30)
    a, b = start_two(new_page, app_harness, "pife", seed)
    a.get_by_role("button", name="COMEÇAR").click()
    code = code_of(a)
    s = new_page(width=390, height=844)  # opens the link after the start: watches
    s.goto(a.url)
    expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    play_log({0: a, 1: b}, log)
    for p in (a, b):
        expect(p.locator("#round-title")).to_have_text("FIM DA RODADA")
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    wname = ("Ana", "Bruno")[final.round.result.winner]
    for p in (a, b):
        expect(p.locator("#winner")).to_have_text(f"{wname} venceu a partida!")
        expect(p.get_by_role("button", name="REVANCHE")).to_be_enabled()
        expect(p.get_by_role("link", name="NOVA MESA")).to_have_count(0)  # players get REVANCHE
    # the spectator has no vote: instead of a dead end it gets the way to a table of its own
    expect(s.locator("#winner")).to_have_text(f"{wname} venceu a partida!")
    expect(s.get_by_role("button", name="REVANCHE")).to_have_count(0)
    expect(s.get_by_role("link", name="NOVA MESA")).to_have_attribute("href", "/")
    shots(s, shot, "match_over_spectator")
    a.get_by_role("button", name="REVANCHE").click()
    expect(a.get_by_role("button", name="REVANCHE")).to_be_disabled()
    expect(a.get_by_text("Você topou a revanche. Esperando os outros.")).to_be_visible()
    expect(b.locator("#rematch-votes .rematch-vote")).to_have_text(["Ana"])
    shots(b, shot, "rematch_vote")
    b.get_by_role("button", name="REVANCHE").click()
    for p in (a, b):
        expect(p.locator("#round-title")).to_have_count(0)
        expect(hand(p)).to_have_count(9)
        expect(p.get_by_text("Rodada 1", exact=False)).to_be_visible()
    assert code_of(a) == code_of(b) == code
    # the first match's round is still in the history's RODADAS, told as match 1's, and REVER A
    # RODADA replays that match's round (the current match has no finished round yet)
    a.locator("#side-tab-rounds").click()
    past = a.locator(".hist-round")
    expect(past).to_have_count(1)
    expect(past.locator("h3")).to_have_text("Partida 1 · 1ª rodada")
    expect(past).to_contain_text(f"{wname} bateu")
    expect(past.get_by_role("button")).to_have_text(["VERIFICAR", "REVER A RODADA"])
    shot(a, "history_earlier_match_1366")
    past.locator(".replay-button").click()
    rd = a.locator("#replay-dialog")
    expect(rd.get_by_role("heading", name="Rever a rodada 1 da partida 1")).to_be_visible()
    n_steps = len(log) + 1  # the deal, then each action of match 1's round
    expect(rd.locator("#replay-position")).to_have_text(f"Passo 1 de {n_steps}")
    expect(rd.locator("#replay-hand [data-card]")).to_have_count(9)
    rd.locator("#replay-last").click()
    expect(rd.locator("#replay-position")).to_have_text(f"Passo {n_steps} de {n_steps}")
    expect(rd.locator("#replay-melds")).to_be_visible()
    shot(a, "replay_earlier_match_1366")
    rd.locator("#replay-close").click()
    expect(rd).to_have_count(0)


def test_chat_players_spectators_markup_and_limits(app_harness, new_page, shot):
    """Seed 000 line 74: seated players write, spectators read (also messages sent before they
    arrived); markup is shown as text; too long / too fast is refused with a clear message."""
    a, b = start_two(new_page, app_harness, "cacheta10", 31, b_size=(390, 844), b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # the table shows its own rules: the game and its starting lives, beside the round
    expect(a.get_by_text("Cacheta · 10 vidas · Rodada 1")).to_be_visible()
    expect(b.get_by_text("Cacheta · 10 vidas · Ronda 1")).to_be_visible()
    evil = "<b>x</b><script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>"
    a.locator("#chat-input").fill(evil)
    a.get_by_role("button", name="ENVIAR").click()
    expect(a.locator("#chat-input")).to_have_value("")
    b.locator("#chat-input").fill("¡Hola!")
    b.get_by_role("button", name="ENVIAR").click()
    for p in (a, b):
        expect(p.locator("#chat .chat-line").first).to_have_text(f"Ana: {evil}")
        expect(p.locator("#chat .chat-line").nth(1)).to_have_text("Bruno: ¡Hola!")
        expect(p.locator("#chat .chat-line b, #chat .chat-line script, #chat .chat-line img")).to_have_count(
            0
        )
        assert p.evaluate("window.__pwned") is None
        # each line says when it was written (day/month hour:minute, the browser's time zone)
        expect(p.locator("#chat .chat-time")).to_have_count(2)
        expect(p.locator("#chat .chat-time").first).to_have_text(re.compile(r"^\d\d/\d\d \d\d:\d\d$"))
    # a spectator arriving later reads everything and has no way to write
    s = new_page(width=390, height=844)
    s.goto(a.url)
    expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    expect(s.locator("#chat .chat-line")).to_have_count(2)
    expect(s.locator("#chat .chat-line").first).to_have_text(f"Ana: {evil}")
    expect(s.locator("#chat-input")).to_have_count(0)
    expect(s.locator("#chat")).to_contain_text("Quem assiste lê a conversa, mas não escreve.")
    # the input takes at most 200 letters; a longer line (forged past the input) is refused,
    # with the reason shown in the chat box, and the text stays in the input to be fixed
    expect(a.locator("#chat-input")).to_have_attribute("maxlength", "200")
    a.locator("#chat-input").evaluate("el => el.removeAttribute('maxlength')")
    a.locator("#chat-input").fill("y" * 201)
    a.get_by_role("button", name="ENVIAR").click()
    expect(a.locator("#chat-message")).to_have_text("Mensagem longa demais (até 200 letras).")
    expect(a.locator("#chat-input")).to_have_value("y" * 201)
    expect(a.locator("#chat .chat-line")).to_have_count(2)
    shots(a, shot, "chat_too_long")
    # rate limit: at most 5 lines in 10 s; lines go out until one is refused. The service's
    # clock stands still meanwhile: on a slow machine six sends could otherwise spread over
    # more than 10 s, and the sixth would go out too
    lines = a.locator("#chat .chat-line")
    calm = a.locator("#chat-message", has_text="Calma: espere um pouco para escrever de novo.")
    sent = 0
    with _clock_stopped():
        for i in range(6):
            a.locator("#chat-input").fill(f"linha {i}")
            a.get_by_role("button", name="ENVIAR").click()
            expect(lines.nth(2 + sent).or_(calm)).to_be_visible()
            if calm.count():
                break
            # an accepted line also empties the input, a moment after the line shows: the next
            # line is typed only then (typed before, it was wiped and an empty line sent)
            expect(a.locator("#chat-input")).to_have_value("")
            sent += 1
        expect(calm).to_be_visible()
    assert 4 <= sent <= 5, sent  # Ana's first line may or may not still count
    expect(a.locator("#chat-input")).to_have_value(f"linha {sent}")
    expect(s.locator("#chat .chat-line")).to_have_count(2 + sent)
    shots(s, shot, "chat_spectator")
    shots(b, shot, "chat_player_es")
