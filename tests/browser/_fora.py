"""Reaching FORA in a browser test: a Cacheta 7 table whose seat 0 (Ana) runs out of lives while
the match goes on (``test_leftovers.py``, ``test_s33_phone.py``), played through the app's own
service (AppHarness runs it in this process)."""

from __future__ import annotations

import os

from _flows import browser_identity, create_table, join_table
from _planner import least_connected
from _replay import hand
from playwright.sync_api import expect

from pifecacheta.rules import Discard, Draw, GoOut, IllegalActionError, NextRound, Phase

FORA_SEED = 8  # Cacheta 7, Ana + Bruno + Carmen + Tito: Ana FORA after 5 rounds; lives then 0, 4, 1, 2


def _act(svc, code: str, who, action) -> None:
    """``who`` does ``action`` at its current version; a stale version (a bot moved) is let go."""
    from pifecacheta.service import Refusal

    try:
        svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)
    except Refusal as e:  # the app's own sweeper moved a bot meanwhile: the loop looks again
        if e.code != "stale_version":
            raise


def play_until_ana_is_out(svc, code: str, ana, bruno) -> None:
    """Seats 0 (Ana) and 1 (Bruno) play through the service: both draw from the stock and
    discard their least connected card; Bruno goes out whenever he can, Ana never does, so she
    loses a life every round. Bots move by ``bot_step``; Ana presses PRÓXIMA RODADA. Stops at
    the FIM DA RODADA where Ana is FORA."""
    for _ in range(3000):
        v = svc.snapshot(code, ana).view
        assert v.outcome is None, v.outcome
        if v.phase is Phase.ROUND_OVER:
            if 0 in v.out:
                return
            _act(svc, code, ana, NextRound())
        elif v.turn in (0, 1):
            who = (ana, bruno)[v.turn]
            mine = svc.snapshot(code, who).view
            if mine.phase is Phase.DRAW:
                _act(svc, code, who, Draw())
                continue
            if v.turn == 1:
                try:
                    _act(svc, code, who, GoOut())
                    continue
                except IllegalActionError:
                    pass
            cards, wilds = mine.hand, mine.wilds
            card = least_connected(cards, wilds)
            _act(svc, code, who, Discard(card))
        else:
            svc.bot_step(code)
    raise AssertionError("Ana never went FORA")


def ana_out_of_lives(svc, url: str, a, b) -> tuple[str, str]:
    """Ana (page ``a``) creates a Cacheta 7 table dealt with :data:`FORA_SEED` at ``url``, Bruno
    (page ``b``) sits, the bots fill the table and Ana starts; the pages leave while the service
    plays the rounds (:func:`play_until_ana_is_out`). Returns the table's ``(code, address)``,
    at the FIM DA RODADA where Ana is FORA, with no page open on it."""
    os.environ["PIFECACHETA_FIXED_SEED"] = str(FORA_SEED)
    create_table(a, url, "Ana", "cacheta7")
    join_table(b, a.url, "Bruno")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    a.locator("#add-bots").click()
    expect(a.locator(".lobby-seat").filter(has_text="Tito")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    for p in (a, b):
        expect(hand(p)).to_have_count(9)
    code, address = a.url.rstrip("/").rsplit("/", 1)[-1], a.url
    ana, bruno = browser_identity(a, "Ana"), browser_identity(b, "Bruno")
    for p in (a, b):  # away while the service plays the rounds (no live update per move)
        p.goto("about:blank")
    play_until_ana_is_out(svc, code, ana, bruno)
    return code, address
