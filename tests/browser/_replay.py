"""Replay a planned log of engine actions (``_planner.find_seed``'s ``[(seat, action), ...]``)
in the browser tests: as a player's clicks on their own page (:func:`play`, :func:`play_log`),
or through the app's own service when AppHarness runs it in this process (:func:`act`,
:func:`play_moves`, :func:`play_planned`)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from pifecacheta.rules import AnnounceOneAway, Discard, Draw, GoOut, TakeDiscard

BUTTONS = {
    "pt": {
        "draw": "COMPRAR",
        "take": "PEGAR DO LIXO",
        "go_out": "BATER",
        "announce": "NA BOA",
        "next": "PRÓXIMA RODADA",
    },
    "es": {
        "draw": "ROBAR",
        "take": "TOMAR DEL POZO",
        "go_out": "CERRAR",
        "announce": "ME FALTA UNA",
        "next": "SIGUIENTE RONDA",
    },
}


def hand(page: Page):
    return page.locator("#hand [data-card]")


def card(page: Page, c) -> object:
    return page.locator(f'[id="card-{c}"]')


def wait_my_turn(page: Page, lang: str = "pt") -> None:
    expect(page.get_by_role("button", name=BUTTONS[lang]["draw"], exact=True)).to_be_enabled(timeout=10_000)


def play(page: Page, action, lang: str = "pt", *, gesture: str = "dblclick") -> None:
    """Do ``action`` through the UI of ``page`` (the acting player's own page)."""
    b = BUTTONS[lang]
    if isinstance(action, Draw):
        wait_my_turn(page, lang)
        if gesture == "tap":
            page.get_by_test_id("stock").click()
        else:
            page.get_by_role("button", name=b["draw"], exact=True).click()
        expect(hand(page)).to_have_count(10)
    elif isinstance(action, TakeDiscard):
        wait_my_turn(page, lang)
        page.get_by_role("button", name=b["take"], exact=True).click()
        expect(hand(page)).to_have_count(10)
    elif isinstance(action, Discard):
        target = card(page, action.card)
        if gesture == "drag":
            target.drag_to(page.get_by_test_id("discard"))
        elif gesture == "tap":
            target.click()
            page.get_by_test_id("discard").click()
        else:
            target.dblclick()
        expect(hand(page)).to_have_count(9)
    elif isinstance(action, GoOut):
        if action.discard is None:
            page.get_by_role("button", name=b["go_out"], exact=True).click()
        else:
            card(page, action.discard).drag_to(page.get_by_test_id("discard"))
    elif isinstance(action, AnnounceOneAway):
        page.get_by_role("button", name=b["announce"], exact=True).click()
    else:
        raise NotImplementedError(action)


def play_log(pages, log, langs=None) -> None:
    """Each ``(seat, action)`` of ``log`` in turn as :func:`play` on ``pages[seat]``, in
    ``langs[seat]`` (pt for every seat when ``langs`` is None)."""
    for seat, action in log:
        play(pages[seat], action, "pt" if langs is None else langs[seat])


def planned_go_out(final, log):
    """``log`` with its last move, when a go-out, made the go-out the rules planned in ``final``
    (``GoOut`` with ``final.round.result.plan``'s discard, the leftover dragged to the pile);
    any other log as it is."""
    if not log or not isinstance(log[-1][1], GoOut):
        return list(log)
    seat, _ = log[-1]
    return [*log[:-1], (seat, GoOut(discard=final.round.result.plan.discard))]


def act(svc, code: str, who, action) -> None:
    """``who`` does ``action`` at table ``code`` through the service, at its current version."""
    svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)


def play_moves(svc, code: str, who, moves) -> None:
    """Each ``(seat, action)`` of ``moves`` in turn through the service, as ``who[seat]``."""
    for seat, action in moves:
        act(svc, code, who[seat], action)


def play_planned(svc, code: str, who, final, moves) -> None:
    """:func:`play_moves` of ``moves`` (the end of a ``find_seed`` log), its last go-out the one
    planned in ``final`` (:func:`planned_go_out`)."""
    play_moves(svc, code, who, planned_go_out(final, moves))


def empty_the_stock(svc, code: str, who, *, down_to: int = 0) -> None:
    """Play through the service, seat by seat, COMPRAR then the card just drawn to the lixo,
    until the stock is empty ("Monte · 0"), or holds ``down_to`` cards; nobody goes out, the
    round stays in play."""
    while (view := svc.snapshot(code, None).view).stock_size > down_to:
        seat = view.turn
        before = set(svc.snapshot(code, who[seat]).view.hand)
        act(svc, code, who[seat], Draw())
        drawn = next(c for c in svc.snapshot(code, who[seat]).view.hand if c not in before)
        act(svc, code, who[seat], Discard(drawn))


def play_to_round(svc, code: str, who, number: int) -> None:
    """Play whole rounds of a two-seat Cacheta table through the service until round ``number``
    is dealt: both seats draw from the stock and discard their least connected card; the seat
    with fewer lives (seat 0 on a tie) goes out whenever it can, so the lives stay even and
    the match goes on; PRÓXIMA RODADA by seat 0."""
    from _planner import least_connected

    from pifecacheta.rules import IllegalActionError, NextRound, Phase

    for _ in range(5000):
        v = svc.snapshot(code, None).view
        assert v.outcome is None, v.outcome
        if v.phase is Phase.ROUND_OVER:
            act(svc, code, who[0], NextRound())
            continue
        if v.round_number >= number:
            return
        seat = v.turn
        mine = svc.snapshot(code, who[seat]).view
        if mine.phase is Phase.DRAW:
            act(svc, code, who[seat], Draw())
            continue
        if v.lives[seat] <= v.lives[1 - seat]:
            try:
                act(svc, code, who[seat], GoOut())
                continue
            except IllegalActionError:
                pass
        act(svc, code, who[seat], Discard(least_connected(mine.hand, mine.wilds)))
    raise AssertionError(f"round {number} never came")
