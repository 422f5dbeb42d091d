"""Replacing a player's secret (Meu acesso): the old secret stops working at once, and a
browser that still holds it is told so (``access_replaced``), never made a new player."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from pifecacheta.models import Player
from pifecacheta.rules import CACHETA_7
from pifecacheta.service import AccessReplaced, BadIdentity, Identity, TableService
from pifecacheta.service.identity import RETIRED_KEEP, hash_secret


def test_the_link_credential_identifies_the_same_player(svc: TableService, people: list[Identity]) -> None:
    ana = people[0]
    again = svc.identify(ana.player_id, ana.secret)  # what a second browser does with the link
    assert again == ana


def test_replace_gives_a_new_secret_and_the_old_one_stops(svc: TableService, people: list[Identity]) -> None:
    ana = people[0]
    code = svc.create_table(ana, CACHETA_7)
    new = svc.replace_secret(ana)
    assert new.player_id == ana.player_id and new.name == ana.name
    assert new.secret != ana.secret and len(new.secret) >= 40
    # the new secret acts for the seat; the old one is refused by every door
    assert svc.identify(new.player_id, new.secret) == new
    assert svc.snapshot(code, new).my_seat == 0
    with pytest.raises(AccessReplaced):
        svc.identify(ana.player_id, ana.secret)
    with pytest.raises(AccessReplaced):
        svc.chat(code, ana, "oi")
    with pytest.raises(AccessReplaced):
        svc.replace_secret(ana)
    assert svc.snapshot(code, ana).my_seat is None  # a spectator, like any forged identity
    with Session(svc.store.engine) as s:
        row = s.get(Player, ana.player_id)
        assert row is not None
        assert row.secret_hash == hash_secret(new.secret)
        assert ana.secret not in row.retired_hashes and new.secret not in row.secret_hash


def test_a_wrong_secret_that_was_never_used_still_gets_a_new_player(
    svc: TableService, people: list[Identity]
) -> None:
    ana = people[0]
    svc.replace_secret(ana)
    other = svc.identify(ana.player_id, "never-this-players-secret")
    assert other.player_id != ana.player_id
    with pytest.raises(BadIdentity):
        svc.replace_secret(Identity(ana.player_id, "never-this-players-secret", "Ana"))


def test_only_the_last_replaced_secrets_are_remembered(svc: TableService, people: list[Identity]) -> None:
    first = who = people[0]
    for _ in range(RETIRED_KEEP + 1):
        who = svc.replace_secret(who)
    with Session(svc.store.engine) as s:
        row = s.get(Player, who.player_id)
        assert row is not None and len(row.retired_hashes.split()) == RETIRED_KEEP
    # the oldest secret fell off the list: it is now just a wrong secret (a new player)
    assert svc.identify(first.player_id, first.secret).player_id != first.player_id


def test_recognise_names_the_player_of_a_link_and_writes_nothing(
    svc: TableService, people: list[Identity]
) -> None:
    ana = people[0]
    assert svc.recognise(ana.player_id, ana.secret) == ana
    with Session(svc.store.engine) as s:
        before = len(s.exec(sa.select(Player)).all())  # type: ignore[call-overload]
    assert svc.recognise(ana.player_id, "not-it") is None
    assert svc.recognise("0" * 32, ana.secret) is None
    assert svc.recognise("", "") is None
    with Session(svc.store.engine) as s:
        assert len(s.exec(sa.select(Player)).all()) == before  # type: ignore[call-overload]
    new = svc.replace_secret(ana)
    assert svc.recognise(ana.player_id, new.secret) == new
    with pytest.raises(AccessReplaced):
        svc.recognise(ana.player_id, ana.secret)


def test_a_move_checks_the_secret_as_every_door(svc: TableService, people: list[Identity]) -> None:
    """``act`` refuses a forged, unknown, empty or replaced secret as the other doors do,
    writes nothing for them, and the new secret plays."""
    from pifecacheta.rules import PIFE, Draw

    ana, bia = people[0], people[1]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    v = svc.snapshot(code, bia).version
    forged = Identity(bia.player_id, "x" * 43, bia.name)
    unknown = Identity("no-such-player", bia.secret, bia.name)
    for who in (forged, unknown, Identity(bia.player_id, "", bia.name), None):
        with pytest.raises(BadIdentity) as e:
            svc.act(code, who, Draw(), expected_version=v)  # type: ignore[arg-type]
        assert e.value.code == "bad_identity"
    new = svc.replace_secret(bia)
    with pytest.raises(AccessReplaced):
        svc.act(code, bia, Draw(), expected_version=v)
    assert svc.snapshot(code, new).version == v  # nothing written by the refusals
    assert svc.act(code, new, Draw(), expected_version=v) == v + 1
    assert svc.action_log(code)[-1]["actor"] == f"player:{bia.player_id}"
