"""What one viewer's screen shows, as plain dataclasses Reflex can send to that browser.

:func:`table_ui` turns the service's ``TableSnapshot`` (docs/SERVICE_API.md) for ONE viewer
into a :class:`TableUi`. It holds only what that viewer may see: its own hand (from its
``PlayerView``), counts of the others' cards, the public piles. It is language-neutral:
the pages translate keys and card names with the viewer's catalog.

Pure functions, no Reflex or database: unit-tested in ``tests/state/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Protocol

from pifecacheta.rules.cards import Card, Face, sort_by_rank, sort_by_suit
from pifecacheta.service import MAX_SEATS, TableSnapshot, house_rules_on
from pifecacheta.service.fair_deal import NONE as NO_DEAL
from pifecacheta.state.hints import HintsUi, hints_for

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


# Around the felt, clockwise from the viewer's own seat at the bottom (the next seat to play
# sits at the viewer's left), by the number of seats at the table.
PLACES: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


def seat_place(seat: int, my_seat: int, seats: int) -> str:
    """Where ``seat`` sits around the felt for the viewer at ``my_seat`` (-1: a spectator, who
    sees seat 0 at the bottom) at a table of ``seats`` seats: "bottom" (the viewer), "left",
    "top" or "right". A table of more than four seats puts every other seat at the top.

    >>> [seat_place(s, 1, 4) for s in range(4)]
    ['right', 'bottom', 'left', 'top']
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
    ``"2026-12-01T11:40:00Z"``; the browser shows it in its own time zone)."""

    name: str = ""
    text: str = ""
    at: str = ""


@dataclasses.dataclass
class TableUi:
    """Everything the table page shows to one viewer. ``found`` False: no such table."""

    found: bool = False
    code: str = ""
    status: str = ""  # lobby | playing | finished
    version: int = 0
    mode: str = "cacheta"  # pife | cacheta
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
    can_next_round: bool = False
    # this player has played a turn of the round in play (and is not in the middle of one):
    # the last round's summary card (components/table/last_round.py) goes away then
    played_this_round: bool = False
    round_over: bool = False
    match_over: bool = False
    match_decided: bool = False  # the match has its winner (a Pife go-out): nobody may resign
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
    has_outcome: bool = False
    outcome_kind: str = ""  # gone_out | last_with_lives | resigned | absence | expired
    outcome_winner: str = ""
    outcome_loser: str = ""
    can_start: bool = False
    can_add_bots: bool = False
    absence_claimable: bool = False
    rematch_offered: bool = False
    rematch_voted: bool = False
    chat: list[ChatUi] = dataclasses.field(default_factory=list)
    # What FIM DA RODADA and the end of the match say, decided here (:func:`choose_end_texts`):
    # catalog keys the page translates, "" when that line is not shown.
    round_title_key: str = "round.title"  # or "match.title": the match ended outside a round
    result_banner_key: str = ""  # banner.louca (Pife) | banner.jump (Cacheta): went out of turn
    result_headline_key: str = ""  # round.with_ten | round.went_out
    result_taken_key: str = ""  # round.took_card_from | round.took_card (with result_has_taken)
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
    is marked, not its twin).

    >>> card_ui(Card.parse("10H'")).id, card_ui(Card.parse("10H'")).code
    ("10H'", '10H')
    """
    code = card.code
    return CardUi(
        id=str(card),
        code=code,
        rank=code[:-1],
        suit=code[-1],
        symbol=SUIT_SYMBOL[code[-1]],
        wild=card.face in set(wilds),
        # the taken card and its twin from the other deck: neither may be discarded this turn
        # (seed 000 line 54)
        taken=taken is not None and card.face == taken.face,
        drawn=drawn is not None and card == drawn,
    )


def just_drawn(view: Any) -> Card | None:
    """The card the viewer of ``view`` (a ``PlayerView``) drew from the stock this turn, or None.

    A draw appends the stock's top card to the hand (``rules/turns.py``, ``_draw``) and the view
    keeps the engine's order, so it is the hand's last card while the viewer's own turn waits for
    its discard and nothing came from the pile (``taken`` None). A spectator's view, another
    seat's turn or the draw phase: None. Only the viewer's own hand is read, so no other
    player's card can be marked.

    >>> from pifecacheta.rules import CACHETA_7, Draw, apply, new_match, player_view
    >>> m = new_match(CACHETA_7, 2, seed=1)
    >>> just_drawn(player_view(m, m.round.turn)) is None
    True
    >>> m2 = apply(m, m.round.turn, Draw())
    >>> just_drawn(player_view(m2, m.round.turn)) == m2.round.hands[m.round.turn][-1]
    True
    """
    if view.seat is None or view.turn != view.seat or view.taken is not None or not view.hand:
        return None
    return view.hand[-1] if _lower_name(view.phase) == "discard" else None


def utc_iso(when: datetime) -> str:
    """``when`` (aware, or naive meaning UTC) as ISO 8601 in UTC to the second, ending in Z.

    >>> utc_iso(datetime(2026, 12, 1, 11, 40, 5, 123))
    '2026-12-01T11:40:05Z'
    """
    aware = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _lower_name(value: Any) -> str:
    """Enum member -> "draw"; plain string -> itself, lower case."""
    name = getattr(value, "name", None)
    return str(name if name is not None else value).lower()


def table_ui(snap: TableSnapshot) -> TableUi:
    """Project a service ``TableSnapshot`` (docs/SERVICE_API.md) to this viewer's :class:`TableUi`."""
    rules = snap.rules
    mode = _lower_name(rules.mode)
    view = snap.view
    my_seat = snap.my_seat if snap.my_seat is not None else -1
    infos = {s.seat: s for s in snap.seats}
    hints_on = bool(getattr(snap, "hints", False))  # a snapshot-like value without it: off
    deal = getattr(snap, "deal", NO_DEAL)  # a snapshot-like value without it: no verifiable deal
    ui = TableUi(
        found=True,
        code=snap.code,
        status=str(snap.status),
        version=int(snap.version),
        mode=mode,
        lives_start=rules.lives if mode == "cacheta" else 0,
        my_seat=my_seat,
        is_creator=snap.creator_seat is not None and snap.creator_seat == my_seat,
        seated=len(infos),
        absence_claimable=snap.absence_claimable,
        rematch_offered=snap.rematch_offered,
        rematch_voted=my_seat in snap.rematch_votes,
        chat=[ChatUi(name=c.name, text=c.text, at=utc_iso(c.at)) for c in snap.chat],
        house=list(house_rules_on(rules)),
        hints_on=hints_on,
        deal_commitment=deal.commitment,
        deal_seed=deal.seed,
        deal_pending=deal.pending,
        deal_answered=my_seat in deal.pending_from,
    )
    votes = snap.rematch_votes
    if view is None:  # lobby: show free seats up to four
        for n in range(MAX_SEATS):
            info = infos.get(n)
            if info is None:
                ui.seats.append(SeatUi(seat=n, empty=True))
            else:
                ui.seats.append(_seat_from_info(info, snap))
        ui.is_player = my_seat >= 0
        ui.can_start = ui.is_creator and ui.status == "lobby" and ui.seated >= 2
        ui.can_add_bots = ui.is_creator and ui.status == "lobby" and ui.seated < MAX_SEATS
        return ui

    wilds = frozenset(view.wilds)
    phase = _lower_name(view.phase)
    out = set(view.out)
    result = view.result
    lost = tuple(result.lives_lost) if result is not None else ()
    for n in range(view.seats):
        info = infos.get(n)
        s = _seat_from_info(info, snap) if info is not None else SeatUi(seat=n, name=f"#{n + 1}")
        s.cards = int(view.hand_counts[n])
        s.lives = int(view.lives[n]) if n < len(view.lives) else 0
        s.lives_lost = int(lost[n]) if n < len(lost) else 0
        s.out = mode == "cacheta" and n in out
        s.left = s.left or n in set(view.left)
        # NA BOA is a claim about the round in play; FIM DA RODADA does not show it
        s.announced = n in set(view.announced) and phase in ("draw", "discard")
        s.dealer = n == view.dealer
        s.turn = view.turn is not None and n == view.turn and phase in ("draw", "discard")
        # the trophy: the match's winner once the match is over (a resignation, an absence, the
        # last with lives), else the winner of the round just over
        s.winner = (
            view.outcome.winner == n
            if view.outcome is not None and phase == "match_over"
            else result is not None and result.winner == n
        )
        s.rematch = n in votes
        s.place = seat_place(n, my_seat, view.seats)
        ui.seats.append(s)
    hand = tuple(view.hand)
    ui.is_player = view.seat is not None
    # a wild taken from the discard pile counts only as itself (seed 000 line 62): no wild star
    plain = view.plain
    drawn = just_drawn(view)
    ui.hand_by_suit = [
        card_ui(c, wilds=() if c in plain else wilds, taken=view.taken, drawn=drawn)
        for c in sort_by_suit(hand)
    ]
    ui.hand_by_rank = [
        card_ui(c, wilds=() if c in plain else wilds, taken=view.taken, drawn=drawn)
        for c in sort_by_rank(hand)
    ]
    ui.hand_count = len(hand)
    ui.round_number = int(view.round_number)
    ui.stock_size = int(view.stock_size)
    ui.discard_count = len(view.discard_pile)
    if view.discard_pile:
        ui.has_discard = True
        ui.discard_top = card_ui(view.discard_pile[-1], wilds=wilds)
        if view.discarded_by:  # public: the pile says who put each card (PlayerView)
            by = int(view.discarded_by[-1])
            ui.discard_by = ui.seats[by].name if 0 <= by < len(ui.seats) else ""
            ui.discard_by_me = by == my_seat
    if view.vira is not None:
        ui.has_vira = True
        ui.vira = card_ui(view.vira)
        wild_face = view.vira.face.next
        ui.wild = card_ui(Card(wild_face.rank, wild_face.suit), wilds=wilds)
        other = sorted(f for f in wilds if f != wild_face)  # house rule wild_same_colour: 4 wilds
        if other:
            ui.has_wild_other = True
            ui.wild_other = card_ui(Card(other[0].rank, other[0].suit), wilds=wilds)
    ui.phase = phase
    if view.turn is not None and phase in ("draw", "discard"):
        ui.turn_seat = int(view.turn)
        ui.turn_name = ui.seats[view.turn].name
    ui.i_am_out = ui.is_player and my_seat in out and mode == "cacheta"
    ui.my_turn = ui.is_player and ui.turn_seat == my_seat
    ui.can_draw = ui.my_turn and phase == "draw"
    ui.can_discard = ui.my_turn and phase == "discard"
    ui.can_announce = view.can_announce
    ui.can_go_out = ui.can_discard and view.can_go_out
    ui.round_over = phase == "round_over"
    ui.match_over = phase == "match_over" or snap.status == "finished"
    ui.match_decided = ui.match_over or view.outcome is not None
    ui.can_next_round = ui.is_player and ui.round_over
    # not while this viewer's own turn is on: the card's going would move the hand up under a
    # finger about to double-tap a card (it goes once the turn is over)
    ui.played_this_round = (
        ui.is_player
        and phase in ("draw", "discard")
        and not ui.can_discard
        and (
            my_seat in view.discarded_by
            or bool(view.picked_up and 0 <= my_seat < len(view.picked_up) and view.picked_up[my_seat])
        )
    )
    if result is not None:
        ui.has_result = True
        ui.result_winner = ui.seats[result.winner].name
        ui.result_out_of_turn = bool(result.out_of_turn)
        ui.result_with_ten = result.plan.discard is None
        ui.result_melds = [
            MeldUi(cards=[card_ui(c, wilds=wilds) for c in m.cards]) for m in result.plan.melds
        ]
        picked = tuple(view.picked_up[result.winner]) if result.out_of_turn and view.picked_up else ()
        if picked:  # the card jumped on is the last one the winner took from the pile (match.py)
            ui.result_has_taken = True
            ui.result_taken = card_ui(picked[-1], wilds=wilds)
            discarder = result.discarder
            if discarder is not None:
                ui.result_discarder = ui.seats[discarder].name
        if result.plan.discard is not None:
            ui.result_has_discard = True
            ui.result_discard = card_ui(result.plan.discard, wilds=wilds)
    outcome = view.outcome
    if outcome is not None:
        ui.has_outcome = True
        ui.outcome_kind = _lower_name(outcome.termination)
        if outcome.winner is not None:
            ui.outcome_winner = ui.seats[outcome.winner].name
        if outcome.loser is not None:
            ui.outcome_loser = ui.seats[outcome.loser].name

    if hints_on and view.seat is not None:  # from this seat's own view only
        ui.hints = hints_for(view)
    choose_end_texts(ui)
    return ui


def choose_end_texts(ui: TableUi) -> None:
    """Set ``ui``'s end-screen keys (``round_title_key`` ... ``has_rematch_votes``) from the
    fields already set: which headline FIM DA RODADA and the end of the match show.

    >>> ui = TableUi(mode="pife", match_over=True, has_result=True, result_out_of_turn=True)
    >>> choose_end_texts(ui)
    >>> ui.round_title_key, ui.result_banner_key, ui.result_headline_key
    ('match.title', 'banner.louca', 'round.went_out')
    """
    ui.round_title_key = "match.title" if ui.match_over and not ui.round_over else "round.title"
    choose_result_texts(ui)
    if ui.has_outcome:
        if not ui.outcome_winner and ui.match_over:
            ui.no_winner_key = "match.expired" if ui.outcome_kind == "expired" else "match.no_winner"
        if ui.outcome_kind in ("resigned", "absence"):
            ui.end_reason_key = "match." + ui.outcome_kind
        reason = ui.outcome_kind if ui.outcome_kind in ("resigned", "absence", "expired") else "left"
        ui.no_rematch_key = "rematch.none." + reason
    ui.has_rematch_votes = any(seat.rematch for seat in ui.seats)


class ResultTexts(Protocol):
    """The result fields FIM DA RODADA reads: a ``TableUi``, or a past round's ``RoundUi``."""

    mode: str
    has_result: bool
    result_out_of_turn: bool
    result_with_ten: bool
    result_has_taken: bool
    result_discarder: str
    result_banner_key: str
    result_headline_key: str
    result_taken_key: str


def choose_result_texts(ui: ResultTexts) -> None:
    """Set the keys of a go-out's lines (banner, headline, card taken) from ``ui``'s result.

    >>> ui = TableUi(mode="cacheta", has_result=True, result_out_of_turn=True, result_with_ten=True)
    >>> choose_result_texts(ui)
    >>> ui.result_banner_key, ui.result_headline_key
    ('banner.jump', 'round.with_ten')
    """
    if ui.has_result:
        if ui.result_out_of_turn:
            ui.result_banner_key = "banner.louca" if ui.mode == "pife" else "banner.jump"
        ten = ui.result_with_ten and ui.mode == "cacheta"  # "bater com 10" is Cacheta's (seed 000 line 21)
        ui.result_headline_key = "round.with_ten" if ten else "round.went_out"
        if ui.result_has_taken:
            ui.result_taken_key = "round.took_card_from" if ui.result_discarder else "round.took_card"


def _seat_from_info(info: Any, snap: Any) -> SeatUi:
    return SeatUi(
        seat=int(info.seat),
        name=str(info.name),
        is_bot=bool(info.is_bot),
        is_me=bool(info.is_me),
        left=bool(info.left),
        creator=snap.creator_seat is not None and info.seat == snap.creator_seat,
    )
