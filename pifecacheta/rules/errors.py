"""Exceptions of the rules engine: one class per kind of failure, all ``ValueError``.

Every :class:`IllegalActionError` carries a stable ``code`` (snake_case) that the UI
translates into the player's language; the English message is for logs and tests.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules engine raises."""


class NotationError(RulesError):
    """Text that is not valid card notation (``"7H"``, ``"10H"``, ``"TH"``, ``"qs"``)."""


class IllegalActionError(RulesError):
    """An action the rules refuse in this position; ``code`` names the reason.

    Known codes: ``match_over``, ``not_a_player``, ``player_out``, ``not_your_turn``,
    ``wrong_phase``, ``discard_empty``, ``card_not_in_hand``, ``taken_card``
    (the card just taken from the discard pile, or its twin, cannot be discarded),
    ``cannot_go_out``, ``not_one_away``, ``already_announced``, ``no_announce_in_pife``,
    ``discard_only_to_go_out``, ``round_not_over``, ``round_over``, ``not_absent``,
    ``bad_action``, ``not_out`` (LeaveTable by a seat that still has lives, or in Pife),
    ``stock_empty`` (stock and pile both too small to draw: only in hand-built positions).
    """

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        super().__init__(message or code)


class NotYourTurnError(IllegalActionError):
    """The seat acted out of turn (code ``not_your_turn``)."""

    def __init__(self, message: str = "") -> None:
        super().__init__("not_your_turn", message)


class WrongPhaseError(IllegalActionError):
    """The action does not fit the turn's phase, e.g. discarding before drawing (``wrong_phase``)."""

    def __init__(self, message: str = "") -> None:
        super().__init__("wrong_phase", message)
