#!/usr/bin/env python3
"""Check a Pife & Cacheta round record: the deal and every rebuild came from the revealed seed.

Stand-alone: Python 3.11+ standard library only, no import from the project, so anyone can
read it, copy it and run it on a round record downloaded from the table (``docs/ROUND_RECORD.md``
describes the record)::

    python3 verify_round.py round.json        # exit 0: every check passed, 1: one failed

``scripts/verify_round.py`` in the repository is this same file. The engine shuffles with the
functions below (``pifecacheta.rules.shuffle`` imports them), so the construction has one
implementation.

The construction ``pifecacheta-deal-1``:

* the server draws a fresh 32-byte round seed (``secrets.token_bytes``) and shows its
  commitment, ``SHA-256(seed)`` in hex, before the deal;
* each seated person's browser sends a 32-byte random value (``crypto.getRandomValues``) after
  seeing the commitment; the deal uses every value received before it, by seat;
* the random bytes of a shuffle are the blocks ``HMAC-SHA256(seed, message || counter)``,
  counter = 0, 1, 2, ... as 8 bytes big-endian, where ``message`` is ``b"pifecacheta-deal-1"
  0x00 context 0x00`` followed by one byte seat + 32 bytes value per contribution, in seat
  order; ``context`` is ``deal`` for the deal and ``rebuild:N`` for the N-th rebuild;
* the shuffle is Fisher-Yates from the last position down (``i = n-1 .. 1``, swap ``i`` with
  ``j`` uniform in ``0..i``); ``j`` takes 4 bytes big-endian ``u`` and is ``u mod (i+1)``,
  except that a ``u`` at or above the largest multiple of ``i+1`` below 2^32 is rejected and 4
  new bytes are taken (no modulo bias);
* the deck before the deal is the 104 cards in the order deck (0, 1), suit (C, D, H, S), rank
  (A, 2..10, J, Q, K); the second deck's cards carry a ``'``. Cards are dealt from the END of
  the shuffled list, one at a time to each active seat starting after the dealer, 9 each; in
  Cacheta the next card is the vira; what is left is the stock, its top card last. A rebuild
  shuffles the lixo minus its top card, oldest discard first (seed 000 line 58), unless the
  table's rule ``rebuild_without_shuffle`` turns it over as it lies (reversed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

CONSTRUCTION = "pifecacheta-deal-1"
SCHEMA = "pifecacheta.round-record/1"
SEED_BYTES = 32
HAND_SIZE = 9
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK: tuple[str, ...] = tuple(r + s + ("'" if d else "") for d in (0, 1) for s in "CDHS" for r in _RANKS)
"""The 104 cards before the shuffle, in notation (the engine's ``full_deck()`` order)."""


def commitment(seed: bytes) -> str:
    """The commitment shown before the deal: SHA-256 of the round seed, 64 hex digits."""
    return hashlib.sha256(seed).hexdigest()


def _message(context: str, contributions: Sequence[tuple[int, bytes]]) -> bytes:
    """The HMAC message prefix of ``context`` (ASCII) and the contributions (seat order)."""
    parts = [CONSTRUCTION.encode(), b"\x00", context.encode("ascii"), b"\x00"]
    for seat, value in sorted(contributions):
        parts.append(bytes([seat]) + value)
    return b"".join(parts)


def byte_stream(seed: bytes, context: str, contributions: Sequence[tuple[int, bytes]]) -> Iterator[int]:
    """The shuffle's random bytes: HMAC-SHA256 in counter mode (see the module docstring)."""
    prefix = _message(context, contributions)
    counter = 0
    while True:
        yield from hmac.new(seed, prefix + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1


def _uniform(stream: Iterator[int], n: int) -> int:
    """A number uniform in ``0..n-1`` (1 <= n < 2^32) by rejection sampling on 4 bytes."""
    limit = (1 << 32) // n * n
    while True:
        u = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if u < limit:
            return u % n


def shuffled(
    items: Sequence[T], seed: bytes, context: str, contributions: Sequence[tuple[int, bytes]] = ()
) -> list[T]:
    """``items`` in the order the construction gives for ``context``: a new list."""
    out = list(items)
    stream = byte_stream(seed, context, contributions)
    for i in range(len(out) - 1, 0, -1):
        j = _uniform(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal(
    seed: bytes,
    contributions: Sequence[tuple[int, bytes]],
    *,
    seats: int,
    dealer: int,
    active: Sequence[int],
    vira: bool,
) -> tuple[list[list[str]], str | None, list[str]]:
    """The deal: (hands by seat, vira or None, stock with its top card last)."""
    deck = shuffled(DECK, seed, "deal", contributions)
    order = [s for s in ((dealer + i) % seats for i in range(1, seats + 1)) if s in active]
    hands: list[list[str]] = [[] for _ in range(seats)]
    for _ in range(HAND_SIZE):
        for s in order:
            hands[s].append(deck.pop())
    top = deck.pop() if vira else None
    return hands, top, deck


# --- checking a record ---------------------------------------------------------------------


def _hex(text: Any, what: str) -> bytes:
    """32 bytes from 64 hex digits; ValueError naming ``what`` otherwise."""
    raw = bytes.fromhex(str(text))
    if len(raw) != SEED_BYTES:
        raise ValueError(f"{what}: {len(raw)} bytes, not {SEED_BYTES}")
    return raw


class _Flow:
    """The round's cards and turns replayed from the deal (stdlib only, no rules of melds): the
    stock, the lixo, every hand, whose turn and which phase (draw, discard, over)."""

    def __init__(self, record: dict[str, Any], seed: bytes, contribs: list[tuple[int, bytes]]) -> None:
        played = record["played"]
        self.seats = len(played["hands"])
        self.active = [int(s) for s in record["active"]]
        self.hands = [list(h) for h in played["hands"]]
        self.stock, self.pile = list(played["stock"]), list[str]()
        self.rebuilt: list[list[str]] = [list(x) for x in played.get("rebuilds", [])]
        self.no_shuffle = bool(record["rules"].get("rebuild_without_shuffle"))
        self.cacheta = record["rules"].get("mode") == "cacheta"
        self.seed, self.contribs = seed, contribs
        self.n = 0
        self.turn = self.after(int(record["dealer"]))
        self.phase = "draw"
        self.taken: str | None = None
        self.announced: set[int] = set()
        self.named: str | None = None  # the card a go-out named as its discard
        self.checks: list[tuple[str, bool, str]] = []

    def after(self, seat: int) -> int:
        """The first active seat after ``seat`` in play order (seed 000 line 50)."""
        return next(
            s for s in ((seat + i) % self.seats for i in range(1, self.seats + 1)) if s in self.active
        )

    def rebuild(self) -> None:
        """The lixo minus its top card becomes the stock (seed 000 line 58), checked against the
        recorded rebuild."""
        if len(self.pile) < 2:
            raise _Bad("draw from an empty stock")
        self.n += 1
        n, body = self.n, self.pile[:-1]
        body = (
            list(reversed(body))
            if self.no_shuffle
            else shuffled(body, self.seed, f"rebuild:{n}", self.contribs)
        )
        ok = n <= len(self.rebuilt) and body == self.rebuilt[n - 1]
        self.checks.append((f"rebuild {n}", ok, "" if ok else "the stock rebuilt differs"))
        self.stock, self.pile = body, self.pile[-1:]

    def turn_of(self, seat: Any, phase: str) -> int:
        """``seat``, refused unless it is the seat to move in ``phase``."""
        if self.phase != phase or seat != self.turn:
            raise _Bad(f"seat {seat} moved out of turn (seat {self.turn}, {self.phase} phase)")
        return int(seat)

    def step(self, seat: Any, act: dict[str, Any]) -> None:
        """Apply one recorded action; raises :class:`_Bad` for one the rules do not allow."""
        kind = act.get("type")
        if self.phase == "over":
            raise _Bad(f"{kind} after the end of the round")
        if kind == "draw":
            s = self.turn_of(seat, "draw")
            if not self.stock:
                self.rebuild()
            self.hands[s].append(self.stock.pop())
            self.phase, self.taken = "discard", None
        elif kind == "take_discard":
            s = self.turn_of(seat, "draw")
            if not self.pile:
                raise _Bad("take from an empty lixo")
            self.taken = self.pile.pop()
            self.hands[s].append(self.taken)
            self.phase = "discard"
        elif kind in ("discard", "go_out"):
            s = self.turn_of(seat, "discard")
            card = act.get("card") if kind == "discard" else act.get("discard")
            if kind == "discard" and card is None:
                raise _Bad("a discard without a card")
            if card is not None and card not in self.hands[s]:
                raise _Bad(f"seat {s} did not hold {card}")
            if card is not None and self.taken is not None and card.rstrip("'") == self.taken.rstrip("'"):
                raise _Bad(f"seat {s} discarded the card it took from the lixo")
            if kind == "go_out":
                self.phase, self.named = "over", card
                return
            self.hands[s].remove(card)
            self.pile.append(str(card))
            self.turn, self.phase, self.taken = self.after(s), "draw", None
        elif kind == "announce_one_away":
            if not self.cacheta or seat not in self.active or len(self.hands[seat]) != HAND_SIZE:
                raise _Bad(f"seat {seat} cannot announce now")
            self.announced.add(seat)
        elif kind in ("resign", "claim_absence"):
            if seat not in self.active or (kind == "claim_absence" and seat == self.turn):
                raise _Bad(f"seat {seat} cannot {kind}")
            self.phase = "over"
        elif kind == "expire":
            self.phase = "over"
        elif kind == "leave_table":
            if seat in self.active or not isinstance(seat, int) or not 0 <= seat < self.seats:
                raise _Bad(f"seat {seat} cannot leave the table")
        else:
            raise _Bad(f"unknown action {kind!r}")

    def end(self, actions: list[dict[str, Any]], result: dict[str, Any] | None) -> None:
        """How the round ended against ``played.result``: the winner's melds and discard are
        exactly its hand (plus the card just discarded, out of turn: lines 60, 64)."""
        last = actions[-1] if actions else {"seat": None, "action": {}}
        kind = last["action"].get("type")
        if result is None:
            if self.phase != "over" or kind == "go_out":
                raise _Bad("the round does not end")
            return
        w = result["winner"]
        if result.get("out_of_turn"):
            if kind != "discard" or self.phase != "draw" or w == last["seat"] or w not in self.active:
                raise _Bad("no discard to go out with")
            if self.cacheta and w not in self.announced:
                raise _Bad(f"seat {w} went out of turn without NA BOA")
            hand = [*self.hands[w], self.pile[-1]]
        else:
            if kind != "go_out" or w != last["seat"] or self.named not in (None, result.get("discard")):
                raise _Bad(f"seat {w} did not go out")
            hand = list(self.hands[w])
        melded = [c for meld in result["melds"] for c in meld]
        if result.get("discard") is not None:
            melded.append(result["discard"])
        if sorted(melded) != sorted(hand):
            raise _Bad(f"the winner's melds are not seat {w}'s hand", "result")
        self.phase = "over"


class _Bad(Exception):
    """An action (or the end) the replay of the round does not allow; ``check``: the failed
    check's name."""

    def __init__(self, detail: str, check: str = "actions") -> None:
        super().__init__(detail)
        self.check = check


def _card_flow(
    record: dict[str, Any], seed: bytes, contribs: list[tuple[int, bytes]]
) -> list[tuple[str, bool, str]]:
    """Replay the round's actions from the deal: numbered one after another from the deal's
    table version, each by the seat whose turn and phase it is, the cards moving from stock and
    lixo to hands and back, each rebuild against the one played, the end against the result."""
    flow = _Flow(record, seed, contribs)
    actions = record["actions"]
    version = int(record["deal"]["version"])
    where = "the end"
    try:
        for i, row in enumerate(actions):
            where = f"action {i}"
            if row["version"] != version + 1 + i:
                raise _Bad(f"version {row['version']}, not {version + 1 + i}: an action missing or moved")
            flow.step(row["seat"], row["action"])
        where = "the end"
        flow.end(actions, record["played"].get("result"))
    except _Bad as e:
        return [*flow.checks, (e.check, False, f"{where}: {e}")]
    checks = flow.checks
    if len(flow.rebuilt) != flow.n:
        checks.append(("rebuilds", False, f"{len(flow.rebuilt)} rebuilds recorded, {flow.n} replayed"))
    if record["played"].get("result") is not None:
        checks.append(("result", True, ""))
    checks.append(("actions", True, f"{len(actions)} actions"))
    return checks


def verify(record: dict[str, Any]) -> list[tuple[str, bool, str]]:
    """Every check of ``record`` (a parsed round record): ``(name, passed, detail)`` in order.

    Names: ``schema``, ``commitment`` (SHA-256 of the revealed seed), ``deal`` (hands, vira and
    stock recomputed from the seed and contributions equal the ones played), ``rebuild N``,
    ``rebuilds``, ``result`` (the winner's melds are its hand), ``actions`` (numbered one after
    another from ``deal.version``, each by the seat to move in its phase, every card moved from
    where the replay has it, the round ended as ``played.result`` says). A record of another
    schema gives the failed ``schema`` check only; a malformed one a failed ``record`` check.
    """
    checks: list[tuple[str, bool, str]] = []
    try:
        ok = record.get("schema") == SCHEMA and record["deal"].get("construction") == CONSTRUCTION
        checks.append(("schema", ok, "" if ok else f"not a {SCHEMA} record of {CONSTRUCTION}"))
        if not ok:
            return checks
        d = record["deal"]
        seed = _hex(d["seed"], "seed")
        contribs = [
            (int(c["seat"]), _hex(c["value"], f"contribution of seat {c['seat']}"))
            for c in d["contributions"]
        ]
        ok = hmac.compare_digest(commitment(seed), str(d["commitment"]).lower())
        checks.append(("commitment", ok, "" if ok else "SHA-256 of the seed is not the commitment"))
        played = record["played"]
        hands, vira, stock = deal(
            seed,
            contribs,
            seats=len(played["hands"]),
            dealer=int(record["dealer"]),
            active=[int(s) for s in record["active"]],
            vira=record["rules"].get("mode") == "cacheta",
        )
        ok = hands == played["hands"] and vira == played.get("vira") and stock == played["stock"]
        checks.append(("deal", ok, "" if ok else "the recomputed deal differs from the one played"))
        checks += _card_flow(record, seed, contribs)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, StopIteration) as e:
        checks.append(("record", False, f"malformed record: {e!r}"))
    return checks


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``verify_round.py RECORD.json``; prints each check, returns 0 when all pass."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: verify_round.py ROUND_RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"FAIL record: cannot read {args[0]} as JSON: {e}")
        return 1
    if not isinstance(record, dict):
        print(f"FAIL record: {args[0]} holds a JSON {type(record).__name__}, not a round record object")
        return 1
    checks = verify(record)
    for name, ok, detail in checks:
        print(f"{'OK  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    good = all(ok for _, ok, _ in checks)
    print("the round matches its revealed seed" if good else "the round does NOT match its record")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
