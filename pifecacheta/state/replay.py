"""The replay of a finished round, step by step, as this viewer saw it (service/round_record.py).

:meth:`ReplayState.open_replay` reads the round's steps once (one player view of the viewer's
own seat per action: own hand, the lixo, the stock and hand counts, who is NA BOA) and the
buttons and the slider move through them in the browser's state; the round's vira and wild
(Cacheta) come from its deal. A step names only what was public at that moment: the actor, the
card discarded or taken from the lixo (never a card drawn from the stock), and at the last step
the winner's melds (seed 000 line 68).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from pifecacheta.rules import Card, PlayerView, sort_by_suit
from pifecacheta.service import get_service
from pifecacheta.state.snapshots import is_refusal
from pifecacheta.state.table import TableState, _in_thread, error_key
from pifecacheta.state.ui_values import CardUi, MeldUi, card_ui

ACTION_KEYS = {
    "draw": "replay.act.draw",
    "take_discard": "replay.act.take",
    "discard": "replay.act.discard",
    "go_out": "replay.act.go_out",
    "announce_one_away": "replay.act.announce",
}


@dataclasses.dataclass
class SeatStepUi:
    """A seat at one step: name, cards in hand, NA BOA."""

    name: str = ""
    count: int = 0
    announced: bool = False


@dataclasses.dataclass
class StepUi:
    """One step of the replay as the viewer saw it (all public, or the viewer's own)."""

    text_key: str = "replay.deal"
    name: str = ""
    has_card: bool = False
    card: CardUi = dataclasses.field(default_factory=CardUi)
    has_hand: bool = False
    hand: list[CardUi] = dataclasses.field(default_factory=list)
    has_lixo: bool = False
    lixo: CardUi = dataclasses.field(default_factory=CardUi)
    stock: int = 0
    seats: list[SeatStepUi] = dataclasses.field(default_factory=list)
    winner: str = ""
    melds: list[MeldUi] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class ViraUi:
    """The round's vira and the wild it makes (Cacheta, public from the deal: seed 000 line 60);
    ``has_vira`` False in Pife. ``has_wild_other``: the house rule "coringa da mesma cor"."""

    has_vira: bool = False
    vira: CardUi = dataclasses.field(default_factory=CardUi)
    wild: CardUi = dataclasses.field(default_factory=CardUi)
    has_wild_other: bool = False
    wild_other: CardUi = dataclasses.field(default_factory=CardUi)


def vira_ui(view: PlayerView) -> ViraUi:
    """The :class:`ViraUi` of the round ``view`` belongs to (the vira is the same at every step)."""
    ui = ViraUi()
    if view.vira is None:
        return ui
    wilds = frozenset(view.wilds)
    face = view.vira.face.next
    ui.has_vira, ui.vira = True, card_ui(view.vira)
    ui.wild = card_ui(Card(face.rank, face.suit), wilds=wilds)
    other = sorted(f for f in wilds if f != face)
    if other:
        ui.has_wild_other, ui.wild_other = True, card_ui(Card(other[0].rank, other[0].suit), wilds=wilds)
    return ui


def step_ui(
    view: PlayerView,
    before: PlayerView | None,
    seat: int | None,
    action: dict[str, Any] | None,
    names: list[str],
) -> StepUi:
    """The :class:`StepUi` of ``view`` (after the step) made by ``action`` of ``seat``;
    ``before``: the view before it (for the card taken from the lixo)."""
    wilds = frozenset(view.wilds)
    kind = "" if action is None else str(action.get("type"))
    ui = StepUi(
        text_key="replay.deal" if action is None else ACTION_KEYS.get(kind, "replay.act.other"),
        name="" if seat is None or seat >= len(names) else names[seat],
        has_hand=view.seat is not None,
        hand=[card_ui(c, wilds=wilds) for c in sort_by_suit(view.hand)],
        stock=int(view.stock_size),
        seats=[
            SeatStepUi(
                name=names[n] if n < len(names) else str(n),
                count=int(view.hand_counts[n]),
                announced=n in view.announced,
            )
            for n in range(view.seats)
        ],
    )
    shown: Card | None = None
    if kind == "take_discard" and before is not None and before.discard_pile:
        shown = before.discard_pile[-1]  # it was the top of the lixo: public
    elif kind == "discard":
        shown = Card.parse(str(action["card"])) if action and action.get("card") else None
    if shown is not None:
        ui.has_card, ui.card = True, card_ui(shown, wilds=wilds)
    if view.discard_pile:
        ui.has_lixo, ui.lixo = True, card_ui(view.discard_pile[-1], wilds=wilds)
    if view.result is not None:
        ui.winner = names[view.result.winner] if view.result.winner < len(names) else ""
        ui.melds = [MeldUi(cards=[card_ui(c, wilds=wilds) for c in m.cards]) for m in view.result.plan.melds]
    return ui


class ReplayState(rx.State):
    """The replay dialog: its round, its steps and the step on screen."""

    replay_open: bool = False
    replay_round: int = 0
    replay_match: int = 0  # the round's match when before the last REVANCHE, else 0 (the current one)
    steps: list[StepUi] = []
    vira: ViraUi = ViraUi()
    index: int = 0
    replay_error: str = ""  # catalog key of a refusal

    @rx.var
    def step(self) -> StepUi:
        """The step on screen."""
        return self.steps[self.index] if 0 <= self.index < len(self.steps) else StepUi()

    @rx.var
    def last(self) -> int:
        """The index of the last step (0 when none)."""
        return max(len(self.steps) - 1, 0)

    @rx.event
    async def open_replay(self, round_number: int, match_number: int = 0) -> None:
        """REVER A RODADA: read the steps of round ``round_number`` of match ``match_number`` (0:
        the current match; 1, 2, ...: a match before the last REVANCHE) for this viewer, show
        the deal."""
        self.replay_open, self.replay_round, self.replay_error = True, int(round_number), ""
        self.replay_match = max(int(match_number), 0)
        self.steps, self.index, self.vira = [], 0, ViraUi()
        table = await self.get_state(TableState)
        code, who = table.table_code, table._who()
        try:
            steps = await _in_thread(
                get_service().round_steps, code, who, self.replay_round, self.replay_match or None
            )
            snap = await table._snapshot()
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            self.replay_error = error_key(exc)
            return
        names = [s.name for s in sorted(snap.seats, key=lambda x: x.seat)]
        out, before = [], None
        for st in steps:
            out.append(step_ui(st.view, before, st.seat, st.action, names))
            before = st.view
        self.steps = out
        if steps:
            self.vira = vira_ui(steps[0].view)

    @rx.event
    def go(self, where: str) -> None:
        """``first`` / ``back`` / ``next`` / ``last``."""
        last = max(len(self.steps) - 1, 0)
        target = {"first": 0, "back": self.index - 1, "next": self.index + 1, "last": last}.get(
            where, self.index
        )
        self.index = min(max(int(target), 0), last)

    @rx.event
    def seek(self, value: Any) -> None:
        """The slider moved (Radix gives a list of one number)."""
        raw = value[0] if isinstance(value, list | tuple) and value else value
        try:
            self.index = min(max(int(float(raw)), 0), max(len(self.steps) - 1, 0))
        except (TypeError, ValueError):
            return

    @rx.event
    def set_replay_open(self, is_open: bool) -> None:
        """The dialog's open state."""
        self.replay_open = bool(is_open)
