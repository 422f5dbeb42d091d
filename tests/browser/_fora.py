"""Reaching FORA in a browser test: a Cacheta 7 table whose seat 0 (Ana) runs out of lives while
the match goes on (``test_leftovers.py``, ``test_s33_phone.py``), played through the app's own
service (AppHarness runs it in this process)."""

from __future__ import annotations

from _planner import least_connected

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
