"""Dicas: the question asked before a discard that breaks one of the player's melds.

A Reflex state mixin that ``TableState`` inherits. At a table with Dicas on, a plain discard
(not a go-out) of a card whose loss leaves fewer of the player's cards in melds
(:func:`~pifecacheta.state.hints.needed_cards`, from their own view) is held back: the tab
keeps the card in ``hint_confirm`` and the table asks "7♥ está num jogo seu: descartar mesmo
assim?" (``components/table/hints.py``). DESCARTAR MESMO ASSIM discards it; MANTER drops the
question and nothing is sent. Whatever the player's browser sends, the engine still checks
the discard itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import reflex as rx

from pifecacheta.rules import Action, Discard, Phase, PlayerView
from pifecacheta.rules.cards import Card
from pifecacheta.state.hints import HintCard, hint_card, needed_cards


def must_confirm(view: PlayerView | None, hints: bool, action: Action) -> bool:
    """True when ``action`` is a plain discard, at a table with Dicas on (``hints``), of a card
    in one of the melds of ``view``'s player during their own discard turn.

    >>> from pifecacheta.rules import PIFE
    >>> from pifecacheta.rules.cards import Card, parse_hand
    >>> from pifecacheta.state.hints import _demo_view
    >>> v = _demo_view(parse_hand("5H 6H 7H 9C 9D KS 2C 3D 8S JD"), PIFE)
    >>> must_confirm(v, True, Discard(Card.parse("6H"))), must_confirm(v, True, Discard(Card.parse("KS")))
    (True, False)
    >>> must_confirm(v, False, Discard(Card.parse("6H")))
    False
    """
    if not hints or view is None or view.seat is None or not isinstance(action, Discard):
        return False
    if view.turn != view.seat or view.phase is not Phase.DISCARD or action.card not in view.hand:
        return False
    return action.card in needed_cards(view)


class DiscardGuard(rx.State, mixin=True):
    """The discard waiting for the player's answer (``hint_confirm``, a card id, "" when none)."""

    hint_confirm: str = ""

    if TYPE_CHECKING:

        async def _discard(self, card_id: str, version: int, confirmed: bool = False) -> Any: ...

    @rx.var
    def hint_confirm_card(self) -> HintCard:
        """The held card's face, for the question's words (empty when none is held)."""
        try:
            return hint_card(Card.parse(self.hint_confirm)) if self.hint_confirm else HintCard()
        except ValueError:
            return HintCard()

    @rx.event
    async def confirm_discard(self, version: int) -> Any:
        """DESCARTAR MESMO ASSIM: discard the held card (the table's ``version`` as shown)."""
        card, self.hint_confirm = self.hint_confirm, ""
        if not card:
            return None
        return await self._discard(card, version, confirmed=True)

    @rx.event
    def cancel_discard(self) -> None:
        """MANTER: keep the card; nothing is sent to the table."""
        self.hint_confirm = ""
