"""VERIFICAR at FIM DA RODADA, and the round record downloaded through the page checked by the
stand-alone script (scripts/verify_round.py), in pt (desktop) and es (phone)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from _fair import shot, start_verifiable_round
from _replay import planned_go_out, play_log
from playwright.sync_api import expect

from pifecacheta.service.fair_deal import seed_for_tests

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_round.py"
SEEDS = range(55_100, 55_500)


def planned_round(new_page, app_harness):
    """Ana (pt, desktop) and Bruno (es, phone) play a planned verifiable round to FIM DA RODADA.
    Returns (a, b, seed)."""
    a, b, seed, final_plan, log = start_verifiable_round(new_page, app_harness, SEEDS)
    play_log({0: a, 1: b}, planned_go_out(final_plan, log), {0: "pt", 1: "es"})
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    return a, b, seed


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60
    )


def test_verificar_and_the_downloaded_record(app_harness, new_page, tmp_path) -> None:
    a, b, seed = planned_round(new_page, app_harness)
    round_seed = seed_for_tests(seed, 1)
    expect(a.locator("#deal-seed")).to_contain_text(round_seed.hex())
    # Ana's Verificar: every check passes, and her browser finds its own value in the record
    a.locator("#verify-button").click()
    dialog = a.locator("#verify-dialog")
    expect(dialog.locator("#verify-verdict")).to_have_text(
        "Tudo confere: a rodada saiu da semente revelada e das contribuições."
    )
    expect(dialog.locator("#verify-own")).to_have_text("A contribuição deste navegador está no registro.")
    expect(dialog.locator(".verify-check")).to_have_count(5)  # schema, commitment, deal, result, actions
    expect(dialog.locator(".verify-check").nth(2)).to_contain_text(
        "Distribuição refeita = a distribuição jogada"
    )
    expect(dialog.locator("#verify-seed")).to_contain_text(round_seed.hex())
    for w, h in ((1366, 900), (390, 844)):
        a.set_viewport_size({"width": w, "height": h})
        expect(dialog).to_be_visible()
        shot(a, f"verify_{w}_pt")
    # the record, downloaded through the page, checks with the stand-alone script
    with a.expect_download() as dl:
        dialog.locator("#verify-download").click()
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    assert re.fullmatch(r"pifecacheta-.+-rodada-1\.json", dl.value.suggested_filename)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["deal"]["seed"] == round_seed.hex()
    assert [c["value"] for c in record["deal"]["contributions"]] == ["11" * 32, "22" * 32]
    ok = _run(path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "OK   deal" in ok.stdout and "OK   commitment" in ok.stdout
    raw = bytearray.fromhex(record["deal"]["seed"])
    raw[0] ^= 0x80
    record["deal"]["seed"] = raw.hex()
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = _run(path)
    assert bad.returncode == 1 and "FAIL commitment" in bad.stdout, bad.stdout
    dialog.locator("#verify-close").click()
    expect(dialog).to_have_count(0)
    # Bruno's, in Spanish on his phone
    b.locator("#verify-button").click()
    bd = b.locator("#verify-dialog")
    expect(bd.locator("#verify-verdict")).to_have_text(
        "Todo coincide: la ronda salió de la semilla revelada y de los aportes."
    )
    expect(bd.locator("#verify-own")).to_have_text("El aporte de este navegador está en el registro.")
    for w, h in ((390, 844), (1366, 900)):
        b.set_viewport_size({"width": w, "height": h})
        expect(bd).to_be_visible()
        shot(b, f"verify_{w}_es")
    bd.locator("#verify-close").click()
    expect(bd).to_have_count(0)
    # REVER A RODADA: Ana steps through the round as she saw it
    a.set_viewport_size({"width": 1366, "height": 900})
    a.locator("#replay-button").click()
    rd = a.locator("#replay-dialog")
    n_steps = len(record["actions"]) + 1
    expect(rd.locator("#replay-position")).to_have_text(f"Passo 1 de {n_steps}")
    expect(rd.locator("#replay-words")).to_have_text("As cartas foram dadas.")
    expect(rd.locator("#replay-hand [data-card]")).to_have_count(9)
    expect(rd.locator("#replay-first")).to_be_disabled()
    rd.locator("#replay-next").click()
    expect(rd.locator("#replay-position")).to_have_text(f"Passo 2 de {n_steps}")
    first = record["actions"][0]
    assert first["seat"] == 1 and first["action"]["type"] == "draw"
    expect(rd.locator("#replay-words")).to_have_text("Bruno comprou do monte.")
    expect(rd.locator("#replay-hand [data-card]")).to_have_count(9)  # Bruno's draw: not Ana's hand
    rd.locator("#replay-slider [role=slider]").focus()  # the slider by keyboard
    a.keyboard.press("ArrowRight")
    expect(rd.locator("#replay-position")).to_have_text(f"Passo 3 de {n_steps}")
    rd.locator("#replay-last").click()
    expect(rd.locator("#replay-position")).to_have_text(f"Passo {n_steps} de {n_steps}")
    expect(rd.locator("#replay-melds")).to_contain_text("Jogos de Ana")
    expect(rd.locator("#replay-next")).to_be_disabled()
    for w, h in ((1366, 900), (390, 844)):
        a.set_viewport_size({"width": w, "height": h})
        expect(rd).to_be_visible()
        shot(a, f"replay_{w}_pt")
    rd.locator("#replay-first").click()
    expect(rd.locator("#replay-position")).to_have_text(f"Passo 1 de {n_steps}")
    rd.locator("#replay-close").click()
    expect(rd).to_have_count(0)
    # and from the history of past rounds (RODADAS), in Spanish on Bruno's phone
    b.set_viewport_size({"width": 390, "height": 844})
    b.locator("#history-button").click()
    b.locator("#dialog-tab-rounds").click()
    b.locator("#history-dialog .replay-button").first.click()
    rb = b.locator("#replay-dialog")
    expect(rb.locator("#replay-position")).to_have_text(f"Paso 1 de {n_steps}")
    expect(rb.locator("#replay-words")).to_have_text("Se repartieron las cartas.")
    rb.locator("#replay-next").click()
    expect(rb.locator("#replay-words")).to_have_text("Bruno robó del mazo.")
    expect(rb.locator("#replay-hand [data-card]")).to_have_count(10)  # his own draw: in his hand
    for w, h in ((390, 844), (1366, 900)):
        b.set_viewport_size({"width": w, "height": h})
        expect(rb).to_be_visible()
        shot(b, f"replay_{w}_es")
    # a spectator has no VERIFICAR: the record holds every hand
    s = new_page()
    s.goto(a.url)
    expect(s.locator("#deal-seed")).to_contain_text(round_seed.hex())
    expect(s.locator("#verify-button")).to_have_count(0)
    expect(s.locator(".verify-button")).to_have_count(0)
    # the next round: round 1 is checked from the history's past rounds (RONDAS), Bruno's phone
    b.set_viewport_size({"width": 390, "height": 844})
    rb.locator("#replay-close").click()
    expect(rb).to_have_count(0)
    b.keyboard.press("Escape")  # the history dialog
    expect(b.locator("#history-dialog")).to_have_count(0)
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    expect(b.locator("#round-title")).to_have_count(0)
    expect(b.locator("#verify-button")).to_have_count(0)  # FIM DA RODADA's own is gone
    b.locator("#history-button").click()
    b.locator("#dialog-tab-rounds").click()
    b.locator("#history-dialog .verify-button").first.click()
    bd = b.locator("#verify-dialog")
    expect(bd.locator("#verify-verdict")).to_have_text(
        "Todo coincide: la ronda salió de la semilla revelada y de los aportes."
    )
    expect(bd.locator("#verify-seed")).to_contain_text(round_seed.hex())
    shot(b, "verify_past_round_390_es")
    bd.locator("#verify-close").click()
    expect(bd).to_have_count(0)
