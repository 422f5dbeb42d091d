"""Dicas (hints for beginners): what one seated player is shown, from their own view only.

A table created with Dicas on (``TableSnapshot.hints``) gives each seated player three kinds
of hint, every one computed from that player's own ``PlayerView`` (their hand, the public
pile, the wild faces, the table's rules), never from another seat's cards or the stock:

- *espera*: holding 9 cards one card away from going out, the faces whose card drawn from
  the stock lets them go out (the engine's ``completing_faces``, seed 000 lines 54-64);
- *in a meld*: in their discard turn, the cards whose discard leaves fewer cards in melds
  (``melded``): the table asks before such a discard (``state/table.py``);
- *tips*: one of the seeds' "Dicas para quem está começando" (seed 000 lines 39-43; seed 002
  lines 39-43, "Consejos para quien empieza"), at the moment it applies (:func:`choose_tip`).

Pure functions, no Reflex or database.
"""

from __future__ import annotations

import dataclasses

from pifecacheta.bots.hand import HandIndex
from pifecacheta.rules.cards import ALL_FACES, Card, sort_by_suit
from pifecacheta.rules.one_away import completing_faces
from pifecacheta.rules.views import PlayerView

_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

#: The tips, catalogue keys, with the seed line each one says (seed 000; seed 002 the same lines)
TIP_WATCH_PILE = "hints.tip.watch_pile"  # line 40: watch what the others discard and take
TIP_PAIRS = "hints.tip.pairs"  # line 41: two cards in a row beat two with a gap
TIP_KEEP_WILD = "hints.tip.keep_wild"  # line 42: keep the wild for the hardest meld
TIP_TAKE_ONLY = "hints.tip.take_only"  # line 43: take from the pile only a card that melds


@dataclasses.dataclass
class HintCard:
    """A face named by a hint: ``code`` "5H", ``rank`` "5", ``suit`` "H", ``symbol`` "♥" (the
    page says it in the viewer's language, as a card of the hand)."""

    code: str = ""
    rank: str = ""
    suit: str = ""
    symbol: str = ""


def hint_card(card: Card) -> HintCard:
    """The :class:`HintCard` of ``card``'s face.

    >>> hint_card(Card.parse("10H'"))
    HintCard(code='10H', rank='10', suit='H', symbol='♥')
    """
    code = card.code
    return HintCard(code=code, rank=code[:-1], suit=code[-1], symbol=_SYMBOL[code[-1]])


@dataclasses.dataclass
class HintsUi:
    """The Dicas one seated player sees now (all empty when there is none to give).

    ``wait``: the faces that let this player go out when drawn, as cards to draw ("espera:
    5♥, 8♥"), sorted by suit then rank; ``wait_any``: their 9 cards are all in melds already,
    so any card drawn lets them go out; ``melded``: the ids ("7H", "7H'") of the cards of their
    hand whose discard breaks a meld, in their discard turn only; ``tip``: a tip's catalogue key
    or "".
    """

    wait: list[HintCard] = dataclasses.field(default_factory=list)
    wait_any: bool = False
    melded: list[str] = dataclasses.field(default_factory=list)
    tip: str = ""


def _phase(view: PlayerView) -> str:
    return str(getattr(view.phase, "name", view.phase)).lower()


def _index(view: PlayerView, cards: tuple[Card, ...]) -> HandIndex:
    """The melds of ``cards`` under the table's rules and wilds (``plain``: wilds taken from
    the pile count only as themselves, seed 000 line 62)."""
    return HandIndex.of(cards, wilds=view.wilds, plain=view.plain, rules=view.rules)


def needed_cards(view: PlayerView) -> frozenset[Card]:
    """The cards of ``view``'s hand that some best arrangement cannot lose: without one of
    them fewer cards of the hand are in melds.

    >>> from pifecacheta.rules import PIFE
    >>> from pifecacheta.rules.cards import parse_hand
    >>> v = _demo_view(parse_hand("5H 6H 7H 9C 9D KS 2C 3D 8S JD"), PIFE)
    >>> sorted(str(c) for c in needed_cards(v))
    ['5H', '6H', '7H']
    """
    hand = tuple(view.hand)
    idx = _index(view, hand)
    best = idx.max_cover(idx.full)
    return frozenset(c for i, c in enumerate(hand) if idx.max_cover(idx.full ^ (1 << i)) < best)


def _gap_pair(loose: list[Card], hand: tuple[Card, ...]) -> bool:
    """Two loose cards of one suit two ranks apart whose middle card is not held (5 and 7
    without the 6: only the 6 closes them, seed 000 line 41)."""
    held = {(c.suit, c.rank) for c in hand}
    for a in loose:
        for b in loose:
            if a.suit == b.suit and b.rank - a.rank == 2 and (a.suit, a.rank + 1) not in held:
                return True
    return False


def choose_tip(view: PlayerView, needed: frozenset[Card]) -> str:
    """The tip for this moment of ``view``'s player, or "":

    - another seat's turn, with cards in the pile: watch the pile (seed 000 line 40);
    - their draw turn, the pile's top card melding with nothing in their hand, when the table
      lets the pile be taken for more than going out: take only a card that melds (line 43);
    - their discard turn: holding a wild that may stand in (Cacheta) and is in no meld yet, the
      card a beginner throws away, keep it for the hardest meld (line 42); else, with two loose
      cards of a suit around a gap, prefer two in a row (line 41).
    """
    phase = _phase(view)
    if phase not in ("draw", "discard") or view.seat is None:
        return ""
    hand = tuple(view.hand)
    if view.turn != view.seat:
        return TIP_WATCH_PILE if view.discard_pile else ""
    if phase == "draw":
        if view.discard_pile and not view.rules.discard_only_to_go_out:
            top = view.discard_pile[-1]
            before = _index(view, hand)
            after = _index(view, (*hand, top))
            if after.max_cover(after.full) <= before.max_cover(before.full):
                return TIP_TAKE_ONLY
        return ""
    loose = [c for c in hand if c not in needed]
    if view.rules.has_wild and any(c.face in view.wilds and c not in view.plain for c in loose):
        return TIP_KEEP_WILD
    return TIP_PAIRS if _gap_pair(loose, hand) else ""


def hints_for(view: PlayerView) -> HintsUi:
    """The Dicas of ``view``'s player (a seat's own ``PlayerView``); empty for a spectator's
    view and outside a round in play. Reads ``view`` only.

    >>> from pifecacheta.rules import PIFE
    >>> from pifecacheta.rules.cards import parse_hand
    >>> h = hints_for(_demo_view(parse_hand("AH 2H 3H QS KS AS 7C 7D 9S"), PIFE, turn=1))
    >>> [c.code for c in h.wait], h.tip
    (['7H', '7S'], 'hints.tip.watch_pile')
    """
    phase = _phase(view)
    if view.seat is None or phase not in ("draw", "discard") or not view.hand:
        return HintsUi()
    hand = tuple(view.hand)
    my_discard = view.turn == view.seat and phase == "discard"
    needed = needed_cards(view) if my_discard else frozenset()
    out = HintsUi(tip=choose_tip(view, needed))
    if my_discard:
        out.melded = [str(c) for c in hand if c in needed]
    elif len(hand) == 9:
        faces = completing_faces(
            hand, wilds=view.wilds, plain=view.plain, from_discard=False, rules=view.rules
        )
        held = {c.face: sum(1 for d in hand if d.face == c.face) for c in hand}
        if faces and faces >= {f for f in ALL_FACES if held.get(f, 0) < 2}:
            out.wait_any = True
        elif faces:
            out.wait = [hint_card(c) for c in sort_by_suit([Card(f.rank, f.suit) for f in faces])]
    return out


def _demo_view(hand: list[Card], rules: object, *, turn: int = 0) -> PlayerView:
    """A seat-0 view holding ``hand`` in a round in play (for the doctests): discard turn with
    10 cards, draw turn with 9; ``turn`` another seat: that seat's draw turn, a card in the pile."""
    from pifecacheta.rules.match import Phase

    mine = turn == 0
    return PlayerView(
        seat=0,
        rules=rules,  # type: ignore[arg-type]
        seats=2,
        round_number=1,
        dealer=1,
        turn=turn,
        phase=Phase.DISCARD if mine and len(hand) == 10 else Phase.DRAW,
        hand=tuple(hand),
        hand_counts=(len(hand), 9),
        stock_size=50,
        discard_pile=() if mine else (Card.parse("2C'"),),
        discarded_by=() if mine else (0,),
        vira=None,
        wilds=frozenset(),
        lives=(0, 0),
        out=frozenset(),
        left=frozenset(),
        announced=frozenset(),
        picked_up=((), ()),
        taken=None,
        plain=frozenset(),
        result=None,
        outcome=None,
        version=1,
        can_announce=False,
    )
