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


def _card_flow(
    record: dict[str, Any], seed: bytes, contribs: list[tuple[int, bytes]]
) -> list[tuple[str, bool, str]]:
    """Replay the round's cards (stock, lixo, hands) from the deal and the actions: each rebuild
    against the one played, each discard from the hand that made it, the winner's melds and
    go-out discard against the winner's hand."""
    checks: list[tuple[str, bool, str]] = []
    played = record["played"]
    hands = [list(h) for h in played["hands"]]
    stock, pile = list(played["stock"]), list[str]()
    rebuilt: list[list[str]] = [list(x) for x in played.get("rebuilds", [])]
    no_shuffle = bool(record["rules"].get("rebuild_without_shuffle"))
    n = 0
    named: str | None = None  # the card a go-out named as its discard
    for i, row in enumerate(record["actions"]):
        seat, act = row["seat"], row["action"]
        kind = act.get("type")
        if kind == "draw":
            if not stock:
                n += 1
                body = (
                    list(reversed(pile[:-1]))
                    if no_shuffle
                    else shuffled(pile[:-1], seed, f"rebuild:{n}", contribs)
                )
                ok = n <= len(rebuilt) and body == rebuilt[n - 1]
                checks.append((f"rebuild {n}", ok, "" if ok else f"action {i}: the stock rebuilt differs"))
                stock, pile = body, pile[-1:]
            if not stock:
                return checks + [("actions", False, f"action {i}: draw from an empty stock")]
            hands[seat].append(stock.pop())
        elif kind == "take_discard":
            if not pile:
                return checks + [("actions", False, f"action {i}: take from an empty lixo")]
            hands[seat].append(pile.pop())
        elif kind in ("discard", "go_out"):
            card = act.get("card") if kind == "discard" else act.get("discard")
            if card is not None and card not in hands[seat]:
                return checks + [("actions", False, f"action {i}: seat {seat} did not hold {card}")]
            if kind == "go_out":  # the go-out discard is checked with the melds below
                named = card
            elif card is not None:
                hands[seat].remove(card)
                pile.append(card)
    if len(rebuilt) != n:
        checks.append(("rebuilds", False, f"{len(rebuilt)} rebuilds recorded, {n} replayed"))
    result = played.get("result")
    if result is not None:
        w = result["winner"]
        hand = list(hands[w])
        if result.get("out_of_turn"):  # went out with the card just discarded (lines 60, 64)
            if not pile:
                return checks + [("result", False, "no discard to go out with")]
            hand.append(pile[-1])
        melded = [c for meld in result["melds"] for c in meld]
        if result.get("discard") is not None:
            melded.append(result["discard"])
        ok = sorted(melded) == sorted(hand) and named in (None, result.get("discard"))
        checks.append(("result", ok, "" if ok else f"the winner's melds are not seat {w}'s hand"))
    checks.append(("actions", True, f"{len(record['actions'])} actions"))
    return checks


def verify(record: dict[str, Any]) -> list[tuple[str, bool, str]]:
    """Every check of ``record`` (a parsed round record): ``(name, passed, detail)`` in order.

    Names: ``schema``, ``commitment`` (SHA-256 of the revealed seed), ``deal`` (hands, vira and
    stock recomputed from the seed and contributions equal the ones played), ``rebuild N``,
    ``rebuilds``, ``result`` (the winner's melds are its hand), ``actions``. A malformed
    record gives one failed ``record`` check.
    """
    checks: list[tuple[str, bool, str]] = []
    try:
        ok = record.get("schema") == SCHEMA and record["deal"].get("construction") == CONSTRUCTION
        checks.append(("schema", ok, "" if ok else f"not a {SCHEMA} record of {CONSTRUCTION}"))
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
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        checks.append(("record", False, f"malformed record: {e!r}"))
    return checks


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``verify_round.py RECORD.json``; prints each check, returns 0 when all pass."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: verify_round.py ROUND_RECORD.json", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as fh:
        record = json.load(fh)
    checks = verify(record)
    for name, ok, detail in checks:
        print(f"{'OK  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    good = all(ok for _, ok, _ in checks)
    print("the round matches its revealed seed" if good else "the round does NOT match its record")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
