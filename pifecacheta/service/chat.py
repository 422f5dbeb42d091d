"""The table chat: seated players write, everyone at the table reads (seed 000 line 74).

Lines are plain text (control characters removed, stripped; the UI escapes them), 1 to 200
characters, at most 5 per seat in any 10 seconds. A chat line does not change the table
version; its listeners are still notified.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import col, select

from ..models import ChatMessage
from .errors import ChatEmpty, ChatRateLimited, ChatTooLong, SpectatorCannotChat
from .identity import verify
from .rows import refuse_expired
from .store import Store
from .values import Identity

CHAT_MAX = 200  # characters in one line
CHAT_RATE_COUNT = 5  # at most 5 lines ...
CHAT_RATE_WINDOW = timedelta(seconds=10)  # ... per seat in any 10 seconds


def clean_chat(text: str) -> str:
    """``text`` without control characters (newlines and tabs kept) and without lone
    surrogates (a browser's JSON can carry one; no database can store it), stripped.

    >>> clean_chat("  oi\\x07 "), clean_chat("a\\ud800b")
    ('oi', 'ab')
    """
    text = "".join(ch for ch in str(text) if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs"))
    return text.strip()


class Chat:
    """Posting chat lines, on one :class:`Store` (snapshots carry the last lines)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def post(self, code: str, who: Identity, text: str) -> None:
        """Post a chat line as ``who``'s seat, as cleaned by :func:`clean_chat`.

        Raises SpectatorCannotChat, ChatEmpty, ChatTooLong (> 200), ChatRateLimited (more
        than 5 lines in 10 s), TableExpired (a table that expired in the lobby is closed: its
        page offers no chat box either), BadIdentity, TableNotFound.
        """
        store = self._store
        now = store.now()
        clean = clean_chat(text)
        with store.tx() as s:
            p = verify(s, who)
            ld = store.load(s, code)
            refuse_expired(ld.table)
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise SpectatorCannotChat("only seated players can write")
            if not clean:
                raise ChatEmpty("empty message")
            if len(clean) > CHAT_MAX:
                raise ChatTooLong(f"at most {CHAT_MAX} characters")
            recent = s.exec(
                select(sa.func.count())
                .select_from(ChatMessage)
                .where(
                    ChatMessage.table_id == ld.table.id,
                    ChatMessage.seat == mine.seat,
                    col(ChatMessage.at) > now - CHAT_RATE_WINDOW,
                )
            ).one()
            if recent >= CHAT_RATE_COUNT:
                raise ChatRateLimited("too many messages: wait a few seconds")
            assert ld.table.id is not None
            s.add(ChatMessage(table_id=ld.table.id, seat=mine.seat, name=mine.name, text=clean, at=now))
        store.notify(code)
