"""The refusals of the service: one exception class per reason, each with its ``code``.

``code`` is the snake_case text the UI looks up as ``"err." + code`` in its message catalog.
Catch :class:`Refusal` for any of them, or one subclass for one reason::

    try:
        service.act(code, who, Draw(), expected_version=v)
    except StaleVersion:
        ...  # reload and try again

The rules engine's ``IllegalActionError`` (also with a ``code``) passes through the service
unchanged; it is not a :class:`Refusal`.
"""

from __future__ import annotations

from typing import ClassVar


class Refusal(ValueError):
    """A request the service refuses; ``code`` (snake_case) names the reason for the UI.

    ``Refusal(code, message)`` builds one for a code that has no subclass (the state layer
    does so for its own refusals, such as ``no_seat``); the service raises the subclasses.
    """

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        super().__init__(message or code)


class _Coded(Refusal):
    """A refusal whose code is fixed by its class (``CODE``); built with a message only."""

    CODE: ClassVar[str]

    def __init__(self, message: str = "") -> None:
        super().__init__(self.CODE, message)


class BadIdentity(_Coded):
    """Unknown player id, or a secret that does not match it."""

    CODE = "bad_identity"


class AccessReplaced(_Coded):
    """A secret the player has replaced (Meu acesso): this browser's access was cut off."""

    CODE = "access_replaced"


class BadName(_Coded):
    """A display name with no visible character left after cleaning."""

    CODE = "bad_name"


class TableNotFound(_Coded):
    """No table has this invite code."""

    CODE = "table_not_found"


class TableExpired(_Coded):
    """The table expired in the lobby (7 days without activity, seed 000 line 72)."""

    CODE = "table_expired"


class NotSeated(_Coded):
    """Only the table's players (seated, not left) may do this."""

    CODE = "not_seated"


class TableFull(_Coded):
    """Not enough empty seats (at most 4, seed 000 line 50)."""

    CODE = "table_full"


class NotCreator(_Coded):
    """Only the table's creator may add bots or start."""

    CODE = "not_creator"


class AlreadyStarted(_Coded):
    """The match has started: the lobby is closed."""

    CODE = "already_started"


class NotStarted(_Coded):
    """No match yet: the table is in the lobby."""

    CODE = "not_started"


class NeedTwoPlayers(_Coded):
    """A match needs at least two seated (seed 000 line 50)."""

    CODE = "need_two_players"


class BadBot(_Coded):
    """A bot name that is unknown, repeated or already seated (Carmen, Tito, Luna)."""

    CODE = "bad_bot"


class StaleVersion(_Coded):
    """The table changed since the caller read it (another writer won): reload and retry."""

    CODE = "stale_version"


class NotAbsentYet(_Coded):
    """ENCERRAR POR AUSÊNCIA before the seat to play has been 48 h without a move."""

    CODE = "not_absent_yet"


class ChatEmpty(_Coded):
    """A chat line with nothing left after cleaning."""

    CODE = "chat_empty"


class ChatTooLong(_Coded):
    """A chat line over 200 characters."""

    CODE = "chat_too_long"


class ChatRateLimited(_Coded):
    """More than 5 chat lines by one seat in 10 seconds."""

    CODE = "chat_rate_limited"


class SpectatorCannotChat(_Coded):
    """Spectators read the chat; only seated players write (seed 000 line 74)."""

    CODE = "spectator_cannot_chat"


class RematchNotOffered(_Coded):
    """No rematch for this match (not over, not a normal end, or a FORA player left)."""

    CODE = "rematch_not_offered"


class SeatNotFound(_Coded):
    """No one sits at that seat number (removing a seat that is free or out of 0..3)."""

    CODE = "no_such_seat"


class CreatorStays(_Coded):
    """The creator cannot leave (or be removed from) the waiting room: they start the match."""

    CODE = "creator_stays"


class BadRules(_Coded):
    """A house rule that does not fit the chosen game (a wild variant in Pife, which has no
    wild: seed 000 line 60), or an unknown option."""

    CODE = "bad_rules"


REFUSAL_CODES: tuple[str, ...] = tuple(c.CODE for c in _Coded.__subclasses__())
"""Every code the service raises, in the order of the classes above."""
