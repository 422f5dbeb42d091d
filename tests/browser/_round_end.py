"""The set-up of the browser tests that play a planned round through the app's own service
(``test_round_end.py``, ``test_round_story.py``, ``test_newcomer_fixes.py``): Ana (pt) and
Bruno (es) at a table dealt with a planned seed (``_planner.find_seed``), the match started;
``_replay.play_planned`` then plays the planned game up to its go-out."""

from __future__ import annotations

import os

from _flows import browser_identity, create_table, join_table, service_or_skip
from _replay import hand
from playwright.sync_api import expect

DESKTOP = (1366, 900)
PHONE = (390, 844)


def two_players(
    new_page,
    app_harness,
    mode_id: str,
    seed: int,
    *,
    a_size: tuple[int, int] = DESKTOP,
    b_size: tuple[int, int] = PHONE,
    others: tuple[str, ...] = (),
    watch=None,
):
    """Ana (pt, ``a_size``) creates a ``mode_id`` table dealt with ``seed``, Bruno (es,
    ``b_size``) joins, ``others`` sit down through the service (no browser); Ana starts the
    match and both hands show their 9 cards. ``watch(seat, page)`` is called on each new page
    before it opens anything (e.g. to record its websocket frames).

    Returns ``(ana_page, bruno_page, code, who)``, ``who`` the identities by seat."""
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page(width=a_size[0], height=a_size[1])
    if watch is not None:
        watch(0, a)
    create_table(a, app_harness.frontend_url, "Ana", mode_id)
    b = new_page(width=b_size[0], height=b_size[1], locale="es-AR")
    if watch is not None:
        watch(1, b)
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    svc = service_or_skip()
    for name in others:
        ident = svc.identify(None, None, name)
        who[svc.join(code, ident)] = ident
        expect(a.locator(".lobby-seat").filter(has_text=name)).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    expect(hand(b)).to_have_count(9)
    return a, b, code, who
