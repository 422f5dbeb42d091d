"""Players without accounts: a random id and secret kept in the browser, and a display name.

The secret is 256 random bits; the database keeps only its SHA-256 (:func:`hash_secret`), and
:func:`secret_matches` is the one place a secret is checked. A player may replace its secret
(:func:`replace_secret`, the "Meu acesso" page): the old one stops working everywhere, and a
browser that still holds it gets ``AccessReplaced`` (``access_replaced``), not a new identity.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
import uuid
from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session, col

from .. import i18n
from ..models import Player
from .errors import AccessReplaced, BadIdentity, BadName
from .store import Store
from .values import Identity

NAME_MAX = 24
RETIRED_KEEP = 8  # replaced secrets remembered per player, to say "replaced" rather than "unknown"


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest stored for ``secret`` (256 random bits: nothing to brute-force)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(player: Player | None, secret: str | None) -> bool:
    """True when ``player`` exists and ``secret`` is its secret (constant-time comparison)."""
    return (
        player is not None
        and bool(secret)
        and hmac.compare_digest(player.secret_hash, hash_secret(secret or ""))
    )


def was_replaced(player: Player | None, secret: str | None) -> bool:
    """True when ``secret`` is one ``player`` replaced (its digest is in ``retired_hashes``)."""
    if player is None or not secret:
        return False
    digest = hash_secret(secret)
    return any(hmac.compare_digest(old, digest) for old in player.retired_hashes.split())


def clean_name(name: str) -> str:
    """A display name made safe: control characters removed, spaces collapsed, cut to 24.

    Raises BadName (``bad_name``) when nothing is left.

    >>> clean_name("  Zé \\n da   Silva ")
    'Zé da Silva'
    >>> clean_name("x" * 30) == "x" * 24
    True
    """
    text = unicodedata.normalize("NFC", str(name))
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = " ".join(text.split())[:NAME_MAX].strip()
    if not text:
        raise BadName("a name needs 1 to 24 visible characters")
    return text


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` + " 2", " 3", ... when someone at the table already has it, so two
    players who both call themselves "Ana" can be told apart at the table, in FIM DA RODADA and
    in the chat. Compared without case; the result still fits in 24 characters (the name is cut
    before the number).

    >>> distinct_name("Ana", ["Bia"])
    'Ana'
    >>> distinct_name("Ana", ["ana", "Ana 2"])
    'Ana 3'
    >>> len(distinct_name("x" * 24, ["x" * 24]))
    24
    """
    used = {n.casefold() for n in taken}
    if name.casefold() not in used:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        n += 1


def verify(s: Session, who: Identity | None) -> Player:
    """The player row of ``who`` inside transaction ``s``; raises BadIdentity (``bad_identity``)
    for None, an unknown id or a wrong secret."""
    if who is None or not who.player_id or not who.secret:
        raise BadIdentity("unknown player")
    p = s.get(Player, who.player_id)
    if p is None or not secret_matches(p, who.secret):
        if was_replaced(p, who.secret):
            raise AccessReplaced("this secret was replaced")
        raise BadIdentity("unknown player or wrong secret")
    return p


# a move's check of its player: a Core row (id, secret digest), no ORM object
_SECRET_OF = sa.select(col(Player.id), col(Player.secret_hash)).where(col(Player.id) == sa.bindparam("id"))


def verified_id(s: Session, who: Identity | None) -> str:
    """The player id of ``who`` inside transaction ``s``, checked as :func:`verify` checks it
    (same refusals: BadIdentity, AccessReplaced), from one Core row instead of an ORM object
    (a move needs only the id). A failed check goes through :func:`verify` for its refusal."""
    if who is not None and who.player_id and who.secret:
        row = s.connection().execute(_SECRET_OF, {"id": who.player_id}).first()
        if row is not None and hmac.compare_digest(row[1], hash_secret(who.secret)):
            return str(row[0])
    return verify(s, who).id


def recognise(store: Store, player_id: str, secret: str) -> Identity | None:
    """The identity of ``player_id`` when ``secret`` is its current secret, else None; nothing
    is written (a personal link that does not work creates no player). Raises AccessReplaced
    (``access_replaced``) for a secret the player replaced."""
    with store.tx() as s:
        p = s.get(Player, player_id) if player_id and secret else None
        if p is not None and secret_matches(p, secret):
            return Identity(p.id, secret, p.name)
        if was_replaced(p, secret):
            raise AccessReplaced("this secret was replaced")
        return None


def replace_secret(store: Store, who: Identity) -> Identity:
    """A new secret for ``who``'s player; the old one stops working at once, everywhere.

    The old digest goes to ``Player.retired_hashes`` (newest first, :data:`RETIRED_KEEP` kept).
    Raises BadIdentity / AccessReplaced (:func:`verify`) when ``who`` is not the player.
    """
    with store.tx() as s:
        p = verify(s, who)
        new_secret = secrets.token_urlsafe(32)
        p.retired_hashes = " ".join([p.secret_hash, *p.retired_hashes.split()][:RETIRED_KEEP])
        p.secret_hash = hash_secret(new_secret)
        s.add(p)
        fresh = Identity(p.id, new_secret, p.name)
    store.secret_replaced()  # after the commit: a reader that kept the old digest reads again
    return fresh


def identify(
    store: Store, player_id: str | None, secret: str | None, name: str | None = None, *, lang: str = "pt"
) -> Identity:
    """The identity for a browser's stored id + secret, or a NEW one.

    An unknown id, a forged id or a wrong secret gives a new random identity, never someone
    else's; a secret the player replaced (:func:`replace_secret`) raises AccessReplaced
    (``access_replaced``) instead, so that browser can say its access was replaced. ``name``
    (if given) is cleaned (:func:`clean_name`) and stored; a new player without a name gets
    "Jogador NNN" in ``lang`` (catalog key ``name.default``: "Jugador NNN" in es). Raises BadName
    (``bad_name``) for a blank name.
    """
    clean = None if name is None else clean_name(name)
    with store.tx() as s:
        if player_id and secret:
            p = s.get(Player, player_id)
            if p is not None and secret_matches(p, secret):
                if clean is not None and clean != p.name:
                    p.name = clean
                    s.add(p)
                return Identity(p.id, secret, clean or p.name)
            if was_replaced(p, secret):
                raise AccessReplaced("this secret was replaced")
        new_secret = secrets.token_urlsafe(32)
        p = Player(
            id=uuid.uuid4().hex,
            secret_hash=hash_secret(new_secret),
            name=clean or i18n.text(lang, "name.default", n=secrets.randbelow(900) + 100),
            created_at=store.now(),
        )
        s.add(p)
        return Identity(p.id, new_secret, p.name)
