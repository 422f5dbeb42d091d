"""One viewer's screen from the service's snapshot of a table.

:func:`table_ui` turns the service's ``TableSnapshot`` (docs/SERVICE_API.md) for ONE viewer
into a :class:`~pifecacheta.state.ui_values.TableUi`. It holds only what that viewer may see:
its own hand (from its ``PlayerView``), counts of the others' cards, the public piles; the
chat lines are projected apart by :func:`chat_ui` (a var of their own on the page). It is
language-neutral: the pages translate keys and card names with the viewer's catalog; the end
screen's keys come from :mod:`pifecacheta.state.end_texts`.

Pure functions, no Reflex or database: unit-tested in ``tests/state/``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pifecacheta.rules.cards import Card, sort_by_rank, sort_by_suit
from pifecacheta.service import MAX_SEATS, TableSnapshot, house_rules_on
from pifecacheta.service.fair_deal import NONE as NO_DEAL
from pifecacheta.state.end_texts import choose_end_texts
from pifecacheta.state.hints import hints_for
from pifecacheta.state.ui_values import ChatUi, MeldUi, SeatUi, TableUi, card_ui, seat_place


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


def chat_ui(snap: TableSnapshot) -> list[ChatUi]:
    """The table's chat lines in ``snap`` (its last 100, oldest first: docs/SERVICE_API.md) as
    :class:`ChatUi`; every viewer reads the same lines, spectators too (seed 000 line 74).
    Sent to the tab as its own var, ``TableState.chat_lines`` (``state/table_view.py``), not in
    :class:`TableUi`, so that a move does not send them again."""
    return [ChatUi(name=c.name, text=c.text, at=utc_iso(c.at)) for c in snap.chat]


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
    ui.has_stock = view.stock_size > 0
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
    ui.can_take = ui.can_draw and view.can_take
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


def _seat_from_info(info: Any, snap: Any) -> SeatUi:
    return SeatUi(
        seat=int(info.seat),
        name=str(info.name),
        is_bot=bool(info.is_bot),
        is_me=bool(info.is_me),
        left=bool(info.left),
        creator=snap.creator_seat is not None and info.seat == snap.creator_seat,
    )
