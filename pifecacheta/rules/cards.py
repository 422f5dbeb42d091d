"""Cards and their notation: 104 physical cards, two decks of 52, no jokers.

Seed 000 line 4 / line 50: two ordinary 52-card decks shuffled together, without jokers.
A :class:`Card` is one physical card: ``rank``, ``suit`` and ``deck`` (0 or 1). The two copies
of a face are different cards (they can be in different places) but share a :class:`Face`;
``card.twin`` is "the same card of the other deck" (seed 000 line 54).

Notation (python-chess style, case-insensitive): rank ``A 2-10 J Q K`` (``T`` for ten also
accepted) then suit ``C D H S`` (paus, ouros, copas, espadas). A trailing ``'`` marks the
second deck: ``str(card)`` round-trips through :meth:`Card.parse`.

>>> Card.parse("7H")
Card.parse('7H')
>>> str(Card.parse("th"))
'10H'
>>> [str(c) for c in parse_hand("7h 7H qs")]
['7H', "7H'", 'QS']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import NotationError


class Suit(enum.Enum):
    """The four suits; the value is the notation letter. Suits order as C < D < H < S."""

    CLUBS = "C"  # paus / tréboles
    DIAMONDS = "D"  # ouros / diamantes
    HEARTS = "H"  # copas / corazones
    SPADES = "S"  # espadas / picas

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts, the red suits."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def index(self) -> int:
        """0..3 in the order C, D, H, S."""
        return _SUIT_INDEX[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_INDEX[self] < _SUIT_INDEX[other]

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_INDEX[self] <= _SUIT_INDEX[other]

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_INDEX[self] > _SUIT_INDEX[other]

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_INDEX[self] >= _SUIT_INDEX[other]


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_TEXT_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "10": 10}
for _r in range(2, 10):
    _TEXT_RANK[str(_r)] = _r


def rank_text(rank: int) -> str:
    """Notation of a rank 1..13: ``"A"``, ``"2"``..``"10"``, ``"J"``, ``"Q"``, ``"K"``."""
    return _RANK_TEXT.get(rank, str(rank))


class Face(NamedTuple):
    """Rank and suit, without the deck: what a player sees and what rules compare.

    >>> str(Face(12, Suit.SPADES))
    'QS'
    """

    rank: int
    suit: Suit

    def __str__(self) -> str:
        return rank_text(self.rank) + self.suit.value

    @classmethod
    def parse(cls, text: str) -> Face:
        """Parse ``"7H"``-style notation (a trailing ``'`` is refused here).

        Raises:
            NotationError: not a rank followed by a suit.
        """
        card = Card.parse(text)
        if card.deck:
            raise NotationError(f"a face has no deck mark: {text!r}")
        return card.face

    @property
    def next(self) -> Face:
        """The face after this one in the same suit; after the king comes the ace
        (seed 000 line 62: the wild is the card after the vira, a king turns up an ace)."""
        return Face(1 if self.rank == KING else self.rank + 1, self.suit)


#: The 52 faces, by suit (C, D, H, S) then rank (ace low).
ALL_FACES: tuple[Face, ...] = tuple(Face(r, s) for s in SUITS for r in RANKS)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One physical card. ``rank`` 1..13 (ace 1), ``suit``, ``deck`` 0 or 1.

    Cards order by (rank with the ace low, suit C < D < H < S, deck): ``sorted(cards)`` is the
    engine's one card order (the solver's tie-break, the serialised ``plain`` list, the rank
    display order of :func:`sort_by_rank`); :func:`sort_by_suit` gives the suit display order.
    Equality, hashing and order all go through ``_order``, that triple as one int
    (``rank * 8 + suit index * 2 + deck``), so sorting a hand compares ints.

    Raises:
        NotationError: rank outside 1..13, deck not 0/1, or ``suit`` not a :class:`Suit`.
    """

    rank: int = field(compare=False)
    suit: Suit = field(compare=False)
    deck: int = field(default=0, compare=False)
    _order: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise NotationError(f"rank must be 1..13, not {self.rank!r}")
        if self.deck not in (0, 1):
            raise NotationError(f"deck must be 0 or 1, not {self.deck!r}")
        suit_index = _SUIT_INDEX.get(self.suit)
        if suit_index is None:
            raise NotationError(f"suit must be a Suit, not {self.suit!r}")
        object.__setattr__(self, "_order", self.rank * 8 + suit_index * 2 + self.deck)

    @classmethod
    def parse(cls, text: str, *, deck: int | None = None) -> Card:
        """Parse one card: ``"7H"``, ``"10h"``, ``"TH"``, ``"AS'"`` (second deck).

        Args:
            text: the notation, case-insensitive, surrounding spaces ignored.
            deck: force the deck (0 or 1); by default 0, or 1 with a trailing ``'``.

        Raises:
            NotationError: empty text, unknown rank or suit.
        """
        if not isinstance(text, str):
            raise NotationError(f"card notation must be a string, not {type(text).__name__}")
        t = text.strip().upper()
        mark = 0
        if t.endswith("'"):
            mark, t = 1, t[:-1]
        if len(t) < 2:
            raise NotationError(f"not a card: {text!r}")
        rank_part, suit_part = t[:-1], t[-1]
        if rank_part not in _TEXT_RANK:
            raise NotationError(f"unknown rank {rank_part!r} in {text!r} (use A, 2-10, T, J, Q, K)")
        try:
            suit = Suit(suit_part)
        except ValueError:
            raise NotationError(f"unknown suit {suit_part!r} in {text!r} (use C, D, H, S)") from None
        return cls(_TEXT_RANK[rank_part], suit, mark if deck is None else deck)

    @property
    def face(self) -> Face:
        """Rank and suit without the deck."""
        return Face(self.rank, self.suit)

    @property
    def twin(self) -> Card:
        """The same card of the other deck (seed 000 line 54)."""
        return Card(self.rank, self.suit, 1 - self.deck)

    @property
    def code(self) -> str:
        """Face notation without the deck mark, e.g. ``"7H"`` (used as ``data-card``)."""
        return str(self.face)

    def __str__(self) -> str:
        text = _CARD_TEXT.get(self._order)
        if text is None:  # each of the 104 cards' notation is built once
            text = _CARD_TEXT[self._order] = self.code + ("'" if self.deck else "")
        return text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARD_TEXT: dict[int, str] = {}  # Card._order -> str(card)


def parse_hand(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards separated by spaces or commas, e.g. ``"7H 8H 9H, QS"``.

    A face written twice gets deck 0 then deck 1 (a third copy is an error); an explicit
    ``'`` forces deck 1.

    Raises:
        NotationError: bad notation, or more than two copies of one face.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    seen: set[Card] = set()
    out: list[Card] = []
    for p in parts:
        c = Card.parse(p)
        if c in seen:
            c = c.twin
        if c in seen:
            raise NotationError(f"more than two copies of {c.code} in {text!r}")
        seen.add(c)
        out.append(c)
    return tuple(out)


def full_deck() -> tuple[Card, ...]:
    """All 104 physical cards in a fixed order (deck, suit, rank)."""
    return tuple(Card(r, s, d) for d in (0, 1) for s in SUITS for r in RANKS)


def format_hand(cards: Iterable[Card]) -> str:
    """Inverse of :func:`parse_hand` for display: notation joined by spaces."""
    return " ".join(str(c) for c in cards)


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Display order: by suit (C, D, H, S), then rank with the ace low, then deck."""
    return sorted(cards, key=lambda c: (c.suit.index, c.rank, c.deck))


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Display order: by rank (ace low), then suit, then deck: the cards' own order."""
    return sorted(cards)
