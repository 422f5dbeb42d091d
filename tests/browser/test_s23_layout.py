"""What session 23's screenshots of a newcomer's tour showed (issue 11, "screenshots that you
would show a player of Jogatina"), each held by what the page shows:

1. At 1366x900 and 1920x1080 a long round's history panel is taller than the screen: its foot
   is cut off at the screen's edge and the page scrolls (which also makes the sticky panel a
   compositor layer: bench/README.md, "Why the card room paints slower"). Its lines scroll
   inside it, mid-round and at FIM DA RODADA.
2. On a phone in Spanish, ROBAR / TOMAR DEL POZO / CERRAR share one row (CERRAR wrapped to a
   row of its own and pushed the hand down).
3. On a phone with four seats, a long badge ("ME FALTA UNA") stays inside its seat and the
   screen.

The games are planned (``_planner``) and played through the app's own service (AppHarness
runs the backend in this process).
"""

from __future__ import annotations

from _flows import service_or_skip, start_two
from _planner import find_seed, first_game, greedy_game
from _replay import BUTTONS, hand, play_moves, play_planned, wait_my_turn
from _round_end import PHONE, two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, PIFE, AnnounceOneAway

WIDE = ((1366, 900), (1920, 1080))


def _fits_the_screen(page: Page) -> None:
    """The history panel ends inside the screen and the page does not scroll, at each wide size."""
    for w, h in WIDE:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        side = page.locator("#history-side").bounding_box()
        assert side is not None and side["y"] + side["height"] <= h, (w, h, side)
        scroll = page.evaluate("() => document.documentElement.scrollHeight")
        assert scroll <= h, (w, h, scroll)


def test_a_long_rounds_history_stays_inside_a_wide_screen(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = first_game(
        lambda seed: greedy_game(PIFE, 2, seed),
        lambda m, log: not m.round.result.out_of_turn and len(log) >= 50,
    )
    a, b, code, who = two_players(new_page, app_harness, "pife", seed, a_size=WIDE[0], b_size=WIDE[1])
    lines = a.locator("#history-side li.hist-line")
    moves = log[:-2]
    for done in range(10, len(moves) + 10, 10):
        # ten moves at a time, each batch shown before the next: a page under load (two busy
        # cores) takes a while to draw a hundred changes that come in a burst
        play_moves(svc, code, who, moves[done - 10 : done])
        # a draw and its discard are one line, and the deal one more
        expect(lines).to_have_count(len(moves[:done]) // 2 + 1, timeout=60_000)
    _fits_the_screen(a)  # mid-round
    play_planned(svc, code, who, final, log[-2:])
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA", timeout=60_000)
    _fits_the_screen(a)
    # the panel's newest lines show and its oldest are reached by scrolling inside it
    expect(a.locator("#history-side li.hist-line").first).to_be_in_viewport()


def test_the_three_buttons_share_one_row_on_a_spanish_phone(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 7, b_size=PHONE, b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(b)).to_have_count(9)
    wait_my_turn(b, "es")
    names = ("ROBAR", "TOMAR DEL POZO", "CERRAR")
    boxes = [b.get_by_role("button", name=n, exact=True).bounding_box() for n in names]
    assert all(x is not None for x in boxes), boxes
    assert len({round(x["y"]) for x in boxes}) == 1, boxes  # one row
    assert all(x["x"] >= 0 and x["x"] + x["width"] <= PHONE[0] for x in boxes), boxes
    assert b.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]


def test_a_long_badge_stays_inside_its_seat_on_a_phone(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 4, out_of_turn=True, max_actions=60, announce=True)
    a, b, code, who = two_players(
        new_page, app_harness, "cacheta7", seed, a_size=PHONE, b_size=PHONE, others=("Carla", "Davi")
    )
    first = next(i for i, (_, action) in enumerate(log) if isinstance(action, AnnounceOneAway))
    play_moves(svc, code, who, log[: first + 1])
    announcer = log[first][0]
    seat = b.locator(f'#seats .seat[data-seat="{announcer}"]')
    badge = seat.get_by_text("ME FALTA UNA", exact=True)
    expect(badge).to_be_visible()
    in_pt = a.locator(f'#seats .seat[data-seat="{announcer}"]').get_by_text("NA BOA", exact=True)
    expect(in_pt).to_be_visible()
    box, around = badge.bounding_box(), seat.bounding_box()
    assert box is not None and around is not None
    assert around["x"] <= box["x"] and box["x"] + box["width"] <= around["x"] + around["width"], (box, around)
    assert box["x"] + box["width"] <= PHONE[0], box
    assert b.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    expect(b.get_by_role("button", name=BUTTONS["es"]["draw"], exact=True)).to_be_visible()


def test_the_dealers_name_is_whole_in_a_row_of_four_seats_on_a_phone(app_harness, new_page):
    """On a phone four seats share one row; the dealer's D sits on its seat's corner, so a
    seven-letter name beside it is not cut ("Carm… D", found by a newcomer trial)."""
    from _flows import create_table

    a = new_page(width=PHONE[0], height=PHONE[1])
    create_table(a, app_harness.frontend_url, "Carmela", "cacheta7")
    a.locator("#add-bots").click()
    expect(a.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    dealer = a.locator('#seats .seat[data-seat="0"]')  # the creator deals round 1
    expect(dealer.get_by_label("Dá as cartas", exact=True)).to_be_visible()
    name = dealer.locator(".seat-name")
    expect(name).to_have_text("Carmela")
    assert name.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the name is cut"
    chip, seat = dealer.get_by_label("Dá as cartas", exact=True).bounding_box(), dealer.bounding_box()
    assert chip is not None and seat is not None
    assert seat["x"] <= chip["x"] + chip["width"] / 2 <= seat["x"] + seat["width"], (chip, seat)
    assert a.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
