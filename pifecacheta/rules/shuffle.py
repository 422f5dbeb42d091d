"""Where a round's randomness comes from: the deal and every rebuild of the stock.

Two sources behind one small interface (:class:`ShuffleSource`, ``shuffle(cards, context)``):

* :class:`SeededSource`: ``random.Random(f"{seed}:{round_number}")`` for the deal and
  ``random.Random(f"{seed}:{round_number}:rebuild:{n}")`` for the n-th rebuild, from the match's
  integer seed. ``new_match(rules, seats, seed=int)`` without a key deals this way, so a test
  can plan a deal from an integer; tables stored before verifiable deals keep it for the round
  they are in.
* :class:`RoundKey`: the verifiable deal, construction ``pifecacheta-deal-1`` (HMAC-SHA256 in
  counter mode over the round seed and the players' contributions, feeding an unbiased
  Fisher-Yates; see :mod:`.verify_round`, the stand-alone checker that holds the one
  implementation). The service gives every new round a fresh key.

Contexts: ``"deal"`` and ``"rebuild:N"`` (N = 1, 2, ...).

>>> key = RoundKey(bytes(32), ((0, bytes([1]) * 32),))
>>> key.commitment == commitment(bytes(32))
True
>>> RoundKey.from_dict(key.to_dict()) == key
True
>>> mine = [str(c) for c in key.shuffle(full_deck()[:5], "deal")]
>>> mine == shuffled(DECK[:5], bytes(32), "deal", key.contributions)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import Card, full_deck
from .errors import RulesError
from .verify_round import CONSTRUCTION, DECK, SEED_BYTES, commitment, shuffled

__all__ = ["ShuffleSource", "SeededSource", "RoundKey", "commitment", "CONSTRUCTION", "DECK", "shuffled"]


class ShuffleSource(Protocol):
    """Shuffles the cards of one round: ``shuffle(cards, context)`` returns a new list."""

    def shuffle(self, cards: Sequence[Card], context: str) -> list[Card]:
        """``cards`` shuffled for ``context`` (``"deal"`` or ``"rebuild:N"``)."""
        ...


@dataclass(frozen=True)
class SeededSource:
    """The integer-seeded shuffle of round ``round_number`` of a match seeded ``seed``."""

    seed: int
    round_number: int

    def shuffle(self, cards: Sequence[Card], context: str) -> list[Card]:
        """``Random(f"{seed}:{round}")`` for ``deal``, ``Random(f"{seed}:{round}:{context}")``
        for ``rebuild:N``."""
        out = list(cards)
        suffix = "" if context == "deal" else f":{context}"
        random.Random(f"{self.seed}:{self.round_number}{suffix}").shuffle(out)
        return out


@dataclass(frozen=True)
class RoundKey:
    """The verifiable source of one round: its secret 32-byte ``seed`` and the players'
    ``contributions`` as ``(seat, 32 bytes)`` sorted by seat.

    Raises RulesError when a value is not 32 bytes or a seat repeats.
    """

    seed: bytes
    contributions: tuple[tuple[int, bytes], ...] = ()

    def __post_init__(self) -> None:
        if len(self.seed) != SEED_BYTES:
            raise RulesError(f"a round seed is {SEED_BYTES} bytes, not {len(self.seed)}")
        seats = [s for s, _ in self.contributions]
        if seats != sorted(set(seats)) or any(len(v) != SEED_BYTES for _, v in self.contributions):
            raise RulesError("contributions: 32 bytes each, one per seat, in seat order")

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: shown before the deal."""
        return commitment(self.seed)

    def shuffle(self, cards: Sequence[Card], context: str) -> list[Card]:
        """``cards`` shuffled by construction ``pifecacheta-deal-1`` for ``context``."""
        return shuffled(cards, self.seed, context, self.contributions)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: ``{"seed": hex, "contributions": [[seat, hex], ...]}``."""
        return {"seed": self.seed.hex(), "contributions": [[s, v.hex()] for s, v in self.contributions]}

    @classmethod
    def from_dict(cls, d: Any) -> RoundKey:
        """Inverse of :meth:`to_dict`; RulesError on a malformed dict."""
        try:
            return cls(
                bytes.fromhex(d["seed"]),
                tuple((int(s), bytes.fromhex(v)) for s, v in d["contributions"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise RulesError(f"malformed round key: {e}") from None


def source_of(seed: int, round_number: int, key: RoundKey | None) -> ShuffleSource:
    """The source of a round: its key when it has one, else the integer-seeded shuffle."""
    return SeededSource(seed, round_number) if key is None else key


assert DECK == tuple(str(c) for c in full_deck())  # the checker's deck is the engine's
