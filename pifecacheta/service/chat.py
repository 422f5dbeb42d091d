"""The table chat: seated players write, everyone at the table reads (seed 000 line 74).

Lines are plain text (control and invisible format characters removed, stripped: ``clean_chat``;
the UI escapes them), 1 to 200 characters with something visible, at most 5 per seat in any 10
seconds. A chat line does not change the table version; its listeners are still notified.
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


# format characters kept in a chat line: the zero-width joiner and non-joiner that emoji
# sequences (👨‍👩‍👧) and some scripts need; the others (bidirectional overrides that turn the
# rest of a line around, zero-width spaces, the BOM) are removed
_KEPT_FORMAT = frozenset("\u200c\u200d")
MARKS_MAX = 4  # combining marks kept on one letter: more are stacked to draw over other lines


def clean_chat(text: str) -> str:
    """``text`` as a chat line shows it, stripped: without control characters (newlines and
    tabs kept), lone surrogates (a browser's JSON can carry one; no database can store it),
    format characters other than the zero-width (non-)joiner, nor more than ``MARKS_MAX``
    combining marks on one letter. A text with nothing visible left gives ``""``.

    >>> clean_chat("  oi\\x07 "), clean_chat("a\\ud800b"), clean_chat("\\u202eolleh")
    ('oi', 'ab', 'olleh')
    >>> clean_chat("\\u200b\\u200b"), clean_chat("\\u200d \\u0301")
    ('', '')
    >>> len(clean_chat("e" + "\\u0301" * 9))
    5
    """
    kept: list[str] = []
    marks = 0
    for ch in str(text):
        cat = unicodedata.category(ch)
        if ch not in "\n\t" and (cat in ("Cc", "Cs") or (cat == "Cf" and ch not in _KEPT_FORMAT)):
            continue
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks <= MARKS_MAX:
            kept.append(ch)
    line = "".join(kept).strip()
    visible = any(
        unicodedata.category(ch)[0] not in "CZ" and unicodedata.category(ch) not in ("Mn", "Me")
        for ch in line
    )
    return line if visible else ""


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
