"""What one viewer's screen shows, as plain dataclasses Reflex can send to that browser.

:class:`TableUi` is the whole table page of one viewer (built by
:func:`~pifecacheta.state.view_model.table_ui`) but its chat; :class:`CardUi`, :class:`SeatUi`,
:class:`MeldUi` and :class:`ResultUi` are its parts, also used by the move history, the replay
and the rules page; :class:`ChatUi` is one chat line (``TableState.chat_lines``, a var of its
own, sent only when a line was added). Language-neutral: the pages translate keys and card names with the
viewer's catalog. Plain data, no Reflex or database.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from pifecacheta.rules.cards import Card, Face
from pifecacheta.state.hints import HintsUi

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@dataclasses.dataclass
class CardUi:
    """One card as drawn on screen.

    ``id`` is the full notation with the deck mark ("7H" or "7H'"), unique per physical card;
    ``code`` the face ("7H", the ``data-card`` attribute); ``rank`` "A".."K"; ``suit`` C/D/H/S.
    ``taken``: this card (or its twin) came from the pile this turn; ``drawn``: the card the
    viewer just drew from the stock, until its discard (only ever set in the viewer's own hand).
    """

    id: str = ""
    code: str = ""
    rank: str = ""
    suit: str = ""
    symbol: str = ""
    wild: bool = False
    taken: bool = False
    drawn: bool = False


@dataclasses.dataclass
class SeatUi:
    """One seat around the table, as every viewer may see it (no cards, only counts)."""

    seat: int = 0
    name: str = ""
    empty: bool = False
    is_bot: bool = False
    is_me: bool = False
    left: bool = False
    creator: bool = False
    cards: int = 0
    lives: int = 0
    lives_lost: int = 0
    out: bool = False
    announced: bool = False
    dealer: bool = False
    turn: bool = False
    winner: bool = False
    rematch: bool = False
    place: str = "top"  # where the seat sits around the felt on a wide screen: seat_place()


# Around the felt from the viewer's own seat at the bottom, in the order of play: the game goes
# to the right (seed 000 lines 9 and 50), so the next seat to play sits at the viewer's right,
# counter-clockwise on the screen; by the number of seats at the table.
PLACES: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}


def seat_place(seat: int, my_seat: int, seats: int) -> str:
    """Where ``seat`` sits around the felt for the viewer at ``my_seat`` (-1: a spectator, who
    sees seat 0 at the bottom) at a table of ``seats`` seats: "bottom" (the viewer), "left",
    "top" or "right". A table of more than four seats puts every other seat at the top.

    >>> [seat_place(s, 1, 4) for s in range(4)]
    ['left', 'bottom', 'right', 'top']
    >>> seat_place(1, -1, 2)
    'top'
    """
    base = my_seat if 0 <= my_seat < seats else 0
    rel = (seat - base) % seats if seats > 0 else 0
    order = PLACES.get(seats)
    if order is None:
        return "bottom" if rel == 0 else "top"
    return order[rel]


@dataclasses.dataclass
class MeldUi:
    """A meld laid down when someone went out (seed 000 line 68: FIM DA RODADA shows them)."""

    cards: list[CardUi] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class ChatUi:
    """One chat line: who, what, and when (``at``: ISO 8601 in UTC, e.g.
    ``"2026-12-01T11:40:00Z"``; the browser shows it in its own time zone). Not a field of
    :class:`TableUi`: the tab's ``TableState.chat_lines`` holds the table's lines
    (``view_model.chat_ui``), sent only when a line was added."""

    name: str = ""
    text: str = ""
    at: str = ""


@dataclasses.dataclass
class ResultUi:
    """A round's go-out as FIM DA RODADA shows it (seed 000 line 68): who went out, how, with
    which melds and cards; the fields both the table in play (:class:`TableUi`) and a past
    round of the history (``history_ui.RoundUi``) carry under these names, so that one
    rendering (``components/table/round_over.py``) draws both. ``has_result`` False: no
    go-out to show (the ``result_*`` fields are then empty). The ``*_key`` fields are catalog
    keys set by ``state/end_texts.py``'s ``choose_result_texts``, "" when that line is not
    shown."""

    mode: str = "cacheta"  # pife | cacheta
    has_result: bool = False
    result_winner: str = ""
    result_out_of_turn: bool = False
    result_discarder: str = ""  # whose discard the winner went out on (louca / furou a fila)
    result_with_ten: bool = False
    result_melds: list[MeldUi] = dataclasses.field(default_factory=list)
    result_has_discard: bool = False
    result_discard: CardUi = dataclasses.field(default_factory=CardUi)
    # out-of-turn go-out (louca / furou a fila): the discarded card the winner went out with
    result_has_taken: bool = False
    result_taken: CardUi = dataclasses.field(default_factory=CardUi)
    result_banner_key: str = ""  # banner.louca (Pife) | banner.jump (Cacheta): went out of turn
    result_headline_key: str = ""  # round.with_ten | round.went_out
    result_taken_key: str = ""  # round.took_card_from | round.took_card (with result_has_taken)


@dataclasses.dataclass
class TableUi(ResultUi):
    """Everything the table page shows to one viewer but the chat: the fields of
    :class:`ResultUi` (the round's go-out, once there is one) and the table's. ``found`` False:
    no such table. The chat lines are ``TableState.chat_lines`` (a list of :class:`ChatUi`),
    apart so that a move's delta does not carry them again."""

    found: bool = False
    code: str = ""
    status: str = ""  # lobby | playing | finished
    version: int = 0
    lives_start: int = 0
    round_number: int = 0
    my_seat: int = -1  # -1: spectator
    is_player: bool = False
    is_creator: bool = False
    seated: int = 0
    seats: list[SeatUi] = dataclasses.field(default_factory=list)
    hand_by_suit: list[CardUi] = dataclasses.field(default_factory=list)
    hand_by_rank: list[CardUi] = dataclasses.field(default_factory=list)
    hand_count: int = 0
    stock_size: int = 0
    has_stock: bool = False  # the stock has a card (at 0 it is drawn as an empty slot)
    discard_count: int = 0
    has_discard: bool = False
    discard_top: CardUi = dataclasses.field(default_factory=CardUi)
    discard_by: str = ""  # the name of who discarded the pile's top card ("" when empty)
    discard_by_me: bool = False  # ... and it was this viewer
    has_vira: bool = False
    vira: CardUi = dataclasses.field(default_factory=CardUi)
    wild: CardUi = dataclasses.field(default_factory=CardUi)
    has_wild_other: bool = False  # the house rule "coringa da mesma cor": the other suit's wild
    wild_other: CardUi = dataclasses.field(default_factory=CardUi)
    phase: str = ""  # draw | discard | round_over | match_over
    turn_seat: int = -1
    turn_name: str = ""
    my_turn: bool = False
    i_am_out: bool = False
    can_draw: bool = False
    can_discard: bool = False
    can_announce: bool = False
    can_go_out: bool = False  # BATER would be accepted now (the button is enabled only then)
    # PEGAR DO LIXO would be accepted now: a card on the pile and, under "o lixo só para bater"
    # (seed 000 line 38), a go-out with it (the button is enabled only then)
    can_take: bool = False
    can_next_round: bool = False
    # this player has played a turn of the round in play (and is not in the middle of one):
    # the last round's summary card (components/table/last_round.py) goes away then
    played_this_round: bool = False
    round_over: bool = False
    match_over: bool = False
    match_decided: bool = False  # the match has its winner (a Pife go-out): nobody may resign
    has_outcome: bool = False
    outcome_kind: str = ""  # gone_out | last_with_lives | resigned | absence | expired
    outcome_winner: str = ""
    outcome_loser: str = ""
    can_start: bool = False
    can_add_bots: bool = False
    absence_claimable: bool = False
    rematch_offered: bool = False
    rematch_voted: bool = False
    # What FIM DA RODADA and the end of the match say (state/end_texts.py: choose_end_texts):
    # catalog keys the page translates, "" when that line is not shown.
    round_title_key: str = "round.title"  # or "match.title": the match ended outside a round
    no_winner_key: str = ""  # match.expired | match.no_winner: a finished match without a winner
    end_reason_key: str = ""  # match.resigned | match.absence (with outcome_loser)
    no_rematch_key: str = ""  # rematch.none.{resigned,absence,expired,left}: why no REVANCHE
    has_rematch_votes: bool = False  # at least one seat agreed to a rematch
    house: list[str] = dataclasses.field(default_factory=list)  # house rules on (service.HOUSE_RULES)
    hints_on: bool = False  # the table has Dicas on (shown to all)
    hints: HintsUi = dataclasses.field(default_factory=HintsUi)  # this seat's own Dicas (state/hints.py)
    # verifiable deals (service/fair_deal.py): commitment of the round in play, its seed once
    # the round is over, the commitment of the next deal and whether this seat answered it
    deal_commitment: str = ""
    deal_seed: str = ""
    deal_pending: str = ""
    deal_answered: bool = False


def card_ui(
    card: Card, *, wilds: Iterable[Face] = (), taken: Card | None = None, drawn: Card | None = None
) -> CardUi:
    """A :class:`CardUi` for ``card``; ``wilds`` are this round's wild faces, ``taken`` the card
    taken from the pile this turn, ``drawn`` the card just drawn from the stock (this very card
    is marked, not its twin). A ``set``/``frozenset`` of wilds (a view's ``wilds``) is used as
    it is; any other iterable is gathered into a set first.

    >>> card_ui(Card.parse("10H'")).id, card_ui(Card.parse("10H'")).code
    ("10H'", '10H')
    """
    code = card.code
    wild_faces = wilds if isinstance(wilds, (frozenset, set)) else set(wilds)
    return CardUi(
        id=str(card),
        code=code,
        rank=code[:-1],
        suit=code[-1],
        symbol=SUIT_SYMBOL[code[-1]],
        wild=card.face in wild_faces,
        # the taken card and its twin from the other deck: neither may be discarded this turn
        # (seed 000 line 54)
        taken=taken is not None and card.face == taken.face,
        drawn=drawn is not None and card == drawn,
    )
