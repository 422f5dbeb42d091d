"""No browser ever receives another player's cards, the stock order or the shuffle seed.

Every websocket frame that reaches three pages (Ana, the creator at seat 0; Bruno at seat 1;
a spectator who opened the invite link in the waiting room without sitting) is recorded
(``_frames.Recorder``) from each page's very first load to FIM DA RODADA. After the round the
test rebuilds the hidden information from the database (``GameTable.match_json`` and the action
log, replayed through the engine from the seed) and checks every frame:

* the seed's decimal digits appear in no frame (raw text);
* the deal is verifiable (``PIFECACHETA_FAIR_DEAL=1``, service/fair_deal.py): before FIM DA
  RODADA no frame carries the round seed, in hex or in base64; after it the seed is on every
  page; the seed committed for the next round is in no frame at all;
* no card face whose two physical copies both stayed hidden from that viewer for the whole
  round appears as a card value: an exact notation string ("7H", "7H'"), a notation token inside
  a longer string ("... 7H ..."), a ``{"rank": "7", "suit": "H"}`` object, or the spoken name in
  either language ("7 de copas", "7 de corazones");
* each player's frames DID carry every card that player held (the check is not vacuous);
* the spectator's frames carry no hand at all, and no face that was never public.

The move history is on screen the whole round (the players' side panels, the spectator's
dialog), so its lines and the past round's melds are among the frames scanned.

Faces collide across the two decks ("7H" and "7H'"), so "hidden from a viewer" is exact: a face
is public for that viewer as soon as either copy was in its own hand, on the discard pile, the
vira, the wild face the vira names (shown as "coringa"), a public pick-up, or the winner's melds
and go-out discard (seed 000 line 68: FIM DA RODADA shows the melds).

``test_scanner_flags_a_crafted_leak`` shows the scanner is not blind: a frame in Reflex's own
shape carrying one secret card (code, full id, rank/suit object, spoken name or seed) is flagged.
Checked against the real app too: with ``service.snapshot`` mutated (in a scratch copy) to give
spectators seat 1's ``player_view`` with ``seat=None``, this test fails with
"spectator received cards before they were public: [Finding(frame=12, face='2C', ...".
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest
from _fair import carrying, contribute_fixed, key_of
from _flows import create_table, join_table, stored_table
from _frames import ALL_FACES, Finding, Recorder, all_card_strings, hand_ids, parse_frame, scan_frames
from _planner import find_seed
from _replay import planned_go_out, play, wait_my_turn
from playwright.sync_api import expect

from pifecacheta.rules import CACHETA_7, Discard
from pifecacheta.rules.cards import Card
from pifecacheta.service.fair_deal import seed_for_tests

# A distinctive seed range: the planner takes the first seed from here whose greedy game ends
# with a normal go-out within a few moves (dealt verifiably: tests/browser/_fair.py). Eight
# digits, so the digits check cannot pass or fail by chance on small counters.
SEED_RANGE = range(86_420_357, 86_420_357 + 400)


def _quiet(page, recorders: Iterable[Recorder], *, quiet_ms: int = 500, limit_s: float = 15.0) -> None:
    """Wait until none of ``recorders`` received a frame for ``quiet_ms`` (at most ``limit_s``).

    Frames are recorded while Playwright waits, so this waits through ``page``. Raises
    AssertionError when frames keep coming for ``limit_s`` seconds.
    """
    recorders = list(recorders)
    deadline = time.monotonic() + limit_s
    counts = None
    while True:
        now = [len(r.frames) for r in recorders]
        if now == counts:
            return
        assert time.monotonic() < deadline, f"frames still arriving after {limit_s} s: {now}"
        counts = now
        page.wait_for_timeout(quiet_ms)


# ---- what each viewer legitimately saw, rebuilt from the database ------------------------------
@dataclass
class RoundKnowledge:
    """The round replayed from the seed: what each seat held and what was public, version by version.

    ``timeline``: ``(table version, public faces so far, {seat: faces held so far})`` after every
    action-log row, oldest first; before the deal (``start``) nothing is known and every face is
    hidden. Public = discard pile, vira, the wild face the vira names, pick-ups, the winner's melds
    and go-out discard.
    """

    seed: int
    held: dict[int, set[Card]]  # every physical card that seat held at some point of the round
    public: set[Card]  # every card made public during the round
    public_faces: set[str]  # faces of ``public`` plus the wild faces the vira names
    stock_at_end: tuple[Card, ...]
    final: Any  # the Match
    timeline: list[tuple[int, frozenset[str], dict[int, frozenset[str]]]]

    def hidden_faces(self, viewer: int | None, version: int | None = None) -> set[str]:
        """Faces whose two copies were both hidden from ``viewer`` (a seat, None = spectator).

        ``version``: as of that table version (everything made public or held up to then);
        None: over the whole round (the smallest set).
        """
        if version is None:
            seen = set(self.public_faces)
            if viewer is not None:
                seen |= {c.code for c in self.held[viewer]}
            return set(ALL_FACES) - seen
        seen = set()
        for v, pub, held in self.timeline:
            if v > version:
                break
            seen = set(pub) | (set(held.get(viewer, ())) if viewer is not None else set())
        return set(ALL_FACES) - seen


NOT_ENGINE = ("create", "join", "add_bots", "rematch", "vote_rematch")  # service-only log rows


def rebuild_round(code: str) -> RoundKnowledge:
    """Replay table ``code``'s round from its logged seed and actions; must equal ``match_json``."""
    from pifecacheta.rules import Match, RoundKey, apply, new_match
    from pifecacheta.rules.actions import action_from_dict

    match_json, rows = stored_table(code)
    final = Match.from_dict(json.loads(match_json))
    log = [(r.version, r.seat, json.loads(r.action_json)) for r in rows]
    held: dict[int, set[Card]] = {n: set() for n in range(final.seats)}
    public: set[Card] = set()
    wild_faces: set[str] = set()
    timeline: list[tuple[int, frozenset[str], dict[int, frozenset[str]]]] = []

    def note(match: Any) -> None:
        r = match.round
        for n, h in enumerate(r.hands):
            held[n].update(h)
        public.update(r.discard_pile)
        for p in r.picked_up:
            public.update(p)
        if r.vira is not None:
            public.add(r.vira)
            nxt = r.vira.face.next
            wild_faces.add(Card(nxt.rank, nxt.suit).code)
        if r.result is not None:
            for meld in r.result.plan.melds:
                public.update(meld.cards)
            if r.result.plan.discard is not None:
                public.add(r.result.plan.discard)

    m = None
    for version, seat, entry in log:
        if entry.get("type") == "start":
            key = RoundKey.from_dict(entry["key"]) if entry.get("key") else None
            m = new_match(final.rules, final.seats, seed=final.seed, key=key)
            note(m)
        elif m is not None and entry.get("type") not in NOT_ENGINE:
            m = apply(m, seat, action_from_dict(entry))
            note(m)
        timeline.append(
            (
                version,
                frozenset({c.code for c in public} | wild_faces),
                {n: frozenset(c.code for c in h) for n, h in held.items()},
            )
        )
    assert m is not None, "the table was never started"
    assert m.to_dict() == final.to_dict(), "the replayed round differs from the stored match"
    return RoundKnowledge(
        seed=final.seed,
        held=held,
        public=public,
        public_faces={c.code for c in public} | wild_faces,
        stock_at_end=m.round.stock,
        final=final,
        timeline=timeline,
    )


def ui_versions(data: Any) -> list[int]:
    """The ``version`` of every TableUi object (a dict holding ``hand_by_suit``) and every
    HistoryUi object (a dict holding ``lines`` and ``latest_n``: the move history) inside ``data``."""
    out: list[int] = []
    if isinstance(data, dict):
        if ("hand_by_suit" in data or ("lines" in data and "latest_n" in data)) and isinstance(
            data.get("version"), int
        ):
            out.append(data["version"])
        for v in data.values():
            out += ui_versions(v)
    elif isinstance(data, list):
        for v in data:
            out += ui_versions(v)
    return out


def scan_viewer(frames: list[str], k: RoundKnowledge, viewer: int | None) -> list[Finding]:
    """Scan each frame against what ``viewer`` could know at the table version that frame shows.

    A frame carrying a TableUi is checked as of that UI's version; other frames as of the last
    version this viewer saw. Stricter than the whole-round set: a card that goes public later
    (the winner's melds) still must not reach anyone before.
    """
    found: list[Finding] = []
    version = 0
    for i, text in enumerate(frames):
        data = parse_frame(text)
        vs = ui_versions(data) if data is not None else []
        if vs:
            version = max(vs)
        for f in scan_frames([text], k.hidden_faces(viewer, version), seed=k.seed):
            f.frame = i
            found.append(f)
    return found


# ---- the unit check: the scanner flags a leak ------------------------------------------------
def _delta(ui: dict[str, Any], chat: list[dict[str, str]] | None = None) -> str:
    """A frame shaped like Reflex's state delta for TableState.ui (and TableState.chat_lines,
    the table's chat lines, when ``chat`` is given)."""
    tab: dict[str, Any] = {"ui_rx_state_": ui}
    if chat is not None:
        tab["chat_lines_rx_state_"] = chat
    return "42/_event," + json.dumps(["event", {"delta": {"reflex___state____state.table_state": tab}}])


def test_scanner_flags_a_crafted_leak() -> None:
    clean = _delta(
        {
            "hand_by_suit": [{"id": "7H", "code": "7H", "rank": "7", "suit": "H"}],
            "discard_top": {"id": "QS'", "code": "QS", "rank": "Q", "suit": "S"},
            "version": 3,
            "code": "a7H-x_KS9",
            "key": "AS+tzt8v9Trv7dOVNOFkgg==",  # a random base64 value that starts with a face
        },
        chat=[{"name": "Ana", "text": "Boa sorte, 7 de copas na mesa"}],
    )
    hidden = {"9C", "AS"}
    assert scan_frames([clean], hidden, seed=86420456) == []  # public cards, codes, a word
    leaks = {
        "code": _delta({"hand_by_suit": [{"id": "9C'", "code": "9C", "rank": "", "suit": ""}]}),
        "rank/suit": _delta({"seats": [{"peek": {"rank": "9", "suit": "C"}}]}),
        "token": _delta({}, chat=[{"name": "x", "text": "Bruno tem 9C e 2D"}]),
        "spoken": _delta({"note": "nove? no: 9 de paus"}),
        "nested json": "42/_event," + json.dumps(["event", json.dumps({"stock": ["AS", "2D"]})]),
        "seed": _delta({"debug": "seed=86420456"}),
    }
    for what, frame in leaks.items():
        got = scan_frames(["2", clean, frame], hidden, seed=86420456)
        assert got and all(f.frame == 2 for f in got), what
    assert hand_ids([clean]) == {"7H"}
    with pytest.raises(ValueError):  # a frame the scanner cannot read fails the test, never passes it
        scan_frames(["42/_event,[not json"], hidden)


# ---- the browser test ---------------------------------------------------------------------------
def test_no_frame_carries_a_secret(app_harness, new_page) -> None:
    seed, final_plan, log = find_seed(
        CACHETA_7, 2, out_of_turn=False, max_actions=16, seeds=SEED_RANGE, key_of=key_of
    )
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    os.environ["PIFECACHETA_FAIR_DEAL"] = "1"
    round_seed, next_seed = seed_for_tests(seed, 1), seed_for_tests(seed, 2)
    # recorders attach before each page's first navigation: nothing the server sends is missed
    a = new_page()
    contribute_fixed(a, 0)
    rec_a = Recorder(a)
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    code = re.search(r"/mesa/([^/?#]+)", a.url).group(1)
    s = new_page(width=390, height=844)
    rec_s = Recorder(s)
    s.goto(a.url)  # a spectator from the waiting room on: opens the link, never sits
    expect(s.locator("#join-name")).to_be_visible()
    b = new_page(locale="es-AR")
    contribute_fixed(b, 1)
    rec_b = Recorder(b)
    join_table(b, a.url, "Bruno", "es")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    expect(s.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    # the commitment of round 1 is on every screen before the deal; both players contributed
    for p in (a, b, s):
        expect(p.locator("#deal-pending")).to_contain_text(hashlib.sha256(round_seed).hexdigest())
    for p in (a, b):
        expect(p.locator("#deal-sent")).to_be_visible()
    expect(s.locator("#deal-sent")).to_have_count(0)  # a spectator has no say in the deal
    a.get_by_role("button", name="COMEÇAR").click()
    wait_my_turn(b, "es")
    expect(s.locator("#status-line")).to_have_text("Você está assistindo à partida.")
    # the move history is on screen the whole round: Ana's and Bruno's side panels (desktop),
    # the spectator's dialog (phone)
    for p in (a, b):
        expect(p.locator("#history-side .hist-line")).to_have_count(1)
    s.locator("#history-button").click()
    expect(s.locator("#history-dialog .hist-line")).to_have_count(1)
    pages, langs = {0: a, 1: b}, {0: "pt", 1: "es"}
    log = planned_go_out(final_plan, log)
    before = {}
    for i, (seat, action) in enumerate(log):
        if i == len(log) - 1:  # the go-out: everything received until now was before FIM DA RODADA
            before = {"Ana": len(rec_a.frames), "Bruno": len(rec_b.frames), "spectator": len(rec_s.frames)}
        play(pages[seat], action, langs[seat])
        if isinstance(action, Discard):
            for p in (pages[1 - seat], s):  # the move reached the other screens
                expect(p.get_by_test_id("discard").locator("[data-card]")).to_have_attribute(
                    "data-card", action.card.code
                )
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    expect(s.locator("#round-title")).to_have_text("FIM DA RODADA")
    # each player opens REVER A RODADA and VERIFICAR: every step of the replay and the checks
    # reach the browser, and are scanned with the rest (nothing of the other hand may be there)
    for p, first in ((a, "Passo 1 de "), (b, "Paso 1 de ")):
        p.locator("#replay-button").click()
        expect(p.locator("#replay-position")).to_contain_text(first)
        p.locator("#replay-last").click()
        expect(p.locator("#replay-melds")).to_be_visible()
        p.locator("#replay-close").click()
        p.locator("#verify-button").click()
        expect(p.locator("#verify-own")).to_be_visible()
        p.locator("#verify-close").click()
    # let any trailing delta arrive before the frames are read: until no page got a frame for
    # 0.5 s (one fixed 0.5 s sleep could end before a late delta on a loaded machine, and the
    # scan would then pass without having seen it)
    _quiet(s, (rec_a, rec_b, rec_s))

    k = rebuild_round(code)
    assert k.seed == seed and k.final.round.result is not None
    assert k.final.key == key_of(seed), "the round was not dealt from the commitment and both values"
    frames = {"Ana": rec_a.frames, "Bruno": rec_b.frames, "spectator": rec_s.frames}
    for p in (a, b, s):  # the seed is revealed at FIM DA RODADA, on every screen
        expect(p.locator("#deal-seed")).to_contain_text(round_seed.hex())
    _quiet(s, (rec_a, rec_b, rec_s))
    for who, fr in frames.items():
        early = carrying(fr[: before[who]], round_seed)
        assert not early, f"{who} received the round seed before FIM DA RODADA: frames {early}"
        assert carrying(fr[before[who] :], round_seed), f"{who} never received the revealed seed"
        assert not carrying(fr, next_seed), f"{who} received the next round's secret seed"
    for who, fr in frames.items():
        assert len(fr) > 10, (who, len(fr))  # the socket was recorded from the first load
        # the history's lines (with their public cards) were among the frames scanned
        assert any("hist.draw_discard" in f for f in fr), who
    for p in (a, b):
        expect(p.locator("#history-side .hist-line").first).to_contain_text("BAT" if p is a else "CERR")
    viewers = {"Ana": 0, "Bruno": 1, "spectator": None}
    loser = 1 - k.final.round.result.winner
    if os.environ.get("PIFECACHETA_FRAMES_DUMP"):  # debugging aid: the raw frames, one file per viewer
        for who, fr in frames.items():
            with open(os.path.join(os.environ["PIFECACHETA_FRAMES_DUMP"], f"frames_{who}.txt"), "w") as fh:
                fh.write("\n".join(fr))
    for who, seat in viewers.items():
        hidden = k.hidden_faces(seat)
        # not vacuous: the opponent's never-shown cards and the stock leave many faces hidden
        assert len(hidden) >= 15, (who, sorted(hidden))
        # the stock stays hidden from everyone; the loser's hand from all but the loser (the
        # winner's whole hand went public with its melds)
        assert any(c.code in hidden for c in k.stock_at_end), who
        if seat != loser:
            assert any(c.code in hidden for c in k.held[loser]), who
        leaks = scan_frames(frames[who], hidden, seed=seed)
        assert not leaks, f"{who} received secrets: {leaks[:10]}"
        # and move by move: nothing arrived before it was public (e.g. the winner's hand)
        leaks = scan_viewer(frames[who], k, seat)
        assert not leaks, f"{who} received cards before they were public: {leaks[:10]}"
    # each player received its own hand, every card it held during the round, with the deck mark
    for who, seat in (("Ana", 0), ("Bruno", 1)):
        got = hand_ids(frames[who])
        want = {str(c) for c in k.held[seat]}
        assert want <= got, (who, sorted(want - got))
        opp = {str(c) for c in k.held[1 - seat]} - {str(c) for c in k.public}
        assert not (got & opp), (who, sorted(got & opp))
    # the spectator never got a hand, and no card of any hand that was never public
    assert hand_ids(frames["spectator"]) == set()
    never_public = {c.code for n in k.held for c in k.held[n]} - k.public_faces
    assert never_public, "every held face went public: nothing to check"
    seen_codes = {x.rstrip("'") for x in all_card_strings(frames["spectator"])}
    assert not (seen_codes & never_public), sorted(seen_codes & never_public)
    # the spectator did receive the public cards (the scanner reads the real shapes)
    assert {c.code for c in k.final.round.discard_pile} <= seen_codes
    assert k.final.round.vira is not None and k.final.round.vira.code in seen_codes
