"""Websocket frames as a browser receives them, and a scanner for secrets inside them.

:class:`Recorder` keeps every text frame a Playwright page receives; :func:`parse_frame` reads
a Socket.IO packet; :func:`scan_frames` finds a card face (or a seed's digits) in any form
the page could show it: notation, a token in a longer string, a rank/suit object, the spoken
name. Pure apart from the Recorder; ``test_frames_secrecy.py`` uses and checks it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pifecacheta import i18n

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
ALL_FACES = frozenset(r + s for r in RANKS for s in SUITS)
_CODE = re.compile(r"^(10|[2-9AJQK])([CDHS])'?$")
# a notation token inside a longer string, e.g. "hand: 7H 10D'" (not inside a word or a token_urlsafe code)
_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])(10|[2-9AJQK])([CDHS])'?(?![A-Za-z0-9_\-])")
# a padded base64 value (a random key or hash, e.g. "3S+tzt8v9Trv7dOVNOFkgg=="): not text, so a
# face at its start or after its "+" or "/" is chance, not a card
_BASE64 = re.compile(r"^[A-Za-z0-9+/]{20,}={1,2}$")


# ---- the frame scanner (pure; test_scanner_flags_a_crafted_leak checks it) ---------------------
_PACKET = re.compile(r"^(\d+)(/[^,\[{]*,)?(\d*)(.*)$", re.S)


def parse_frame(text: str) -> Any | None:
    """A socket.io text frame as JSON, e.g. ``42/_event,["event", {...}]`` -> the list.

    Engine.io/socket.io packet: type digits, optional ``/namespace,``, optional ack id, JSON body.
    Returns None for a packet without a body (ping ``2``, pong ``3``, ...); raises ValueError for
    a body that is not JSON, so no frame can escape the scan unread.
    """
    m = _PACKET.match(text)
    body = m.group(4) if m else text
    if not body.strip():
        return None
    return json.loads(body)


def walk_strings(node: Any) -> Iterator[tuple[str, Any]]:
    """Every string in ``node`` (dict keys too) with its parent; JSON held in a string is walked too.

    Yields ``(string, parent)``; a ``{"rank": .., "suit": ..}`` dict is yielded once as
    ``("<rank><suit>", dict)`` with the marker parent so callers can tell structured cards.
    """
    if isinstance(node, dict):
        r, s = node.get("rank"), node.get("suit")
        if isinstance(r, str) and isinstance(s, str) and r + s in ALL_FACES:
            yield r + s, node
        for k, v in node.items():
            yield str(k), node
            yield from walk_strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_strings(v)
    elif isinstance(node, str):
        yield node, None
        t = node.strip()
        if t[:1] in ("{", "[") and len(t) > 1:
            try:
                inner = json.loads(t)
            except ValueError:
                return
            yield from walk_strings(inner)


def spoken_names(face: str) -> set[str]:
    """The card's screen-reader names in every UI language ("7 de copas", "7 de corazones")."""
    return {i18n.card_label(face, lang) for lang in i18n.LANGUAGES}


@dataclass
class Finding:
    """One secret seen in one frame: which frame, which face (or "seed"), how it appeared."""

    frame: int
    face: str
    how: str
    text: str = field(repr=False, default="")


def scan_frames(
    frames: Iterable[str], hidden_faces: Iterable[str], *, seed: int | None = None
) -> list[Finding]:
    """Every appearance of a hidden face (or of the seed's digits) in ``frames``.

    ``hidden_faces``: faces ("7H") the viewer must never receive. A face counts as received when a
    string equals its notation (either deck), a notation token appears inside a longer string,
    a dict has that rank and suit, or a string contains its spoken name in pt or es.
    """
    hidden = set(hidden_faces)
    names = {name: f for f in hidden for name in spoken_names(f)}
    found: list[Finding] = []
    for i, text in enumerate(frames):
        if seed is not None and str(seed) in text:
            found.append(Finding(i, "seed", "digits", text))
        data = parse_frame(text)
        if data is None:
            continue
        for s, parent in walk_strings(data):
            if parent is not None and isinstance(parent, dict) and s in ALL_FACES and "rank" in parent:
                if s in hidden and parent.get("rank", "") + parent.get("suit", "") == s:
                    found.append(Finding(i, s, "rank/suit object", text))
                    continue
            m = _CODE.match(s)
            if m and m.group(1) + m.group(2) in hidden:
                found.append(Finding(i, m.group(1) + m.group(2), f"value {s!r}", text))
                continue
            if not m and not _BASE64.match(s):
                for t in _TOKEN.finditer(s):
                    if t.group(1) + t.group(2) in hidden:
                        found.append(Finding(i, t.group(1) + t.group(2), f"token in {s[:60]!r}", text))
            low = s.lower()
            for name, f in names.items():
                if name.lower() in low:
                    found.append(Finding(i, f, f"spoken {name!r}", text))
    return found


def hand_ids(frames: Iterable[str]) -> set[str]:
    """Card ids ("7H", "7H'") sent inside ``hand_by_suit`` / ``hand_by_rank`` lists."""
    ids: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("hand_by_suit", "hand_by_rank") and isinstance(v, list):
                    ids.update(c["id"] for c in v if isinstance(c, dict) and "id" in c)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str) and node[:1] in ("{", "["):
            try:
                walk(json.loads(node))
            except ValueError:
                pass

    for text in frames:
        data = parse_frame(text)
        if data is not None:
            walk(data)
    return ids


def all_card_strings(frames: Iterable[str]) -> set[str]:
    """Every exact notation string ("7H", "7H'") anywhere in ``frames``."""
    out: set[str] = set()
    for text in frames:
        data = parse_frame(text)
        if data is not None:
            out.update(s for s, _ in walk_strings(data) if _CODE.match(s))
    return out


class Recorder:
    """Every websocket text frame ``page`` receives from now on (attach before the first goto)."""

    def __init__(self, page) -> None:
        self.frames: list[str] = []
        self.sockets: list[str] = []
        page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        self.sockets.append(ws.url)
        ws.on("framereceived", self._add)

    def _add(self, payload: Any) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))
