"""State helpers without a browser: bots to add, refusal messages, every UI key translated."""

from __future__ import annotations

import re
from pathlib import Path

from pifecacheta import i18n
from pifecacheta.service import Refusal, SeatInfo
from pifecacheta.state.table import bots_to_add, error_key

PKG = Path(__file__).resolve().parents[2] / "pifecacheta"


def _seat(n, name, bot=False):
    return SeatInfo(seat=n, name=name, is_bot=bot, is_me=False, left=False)


def test_bots_fill_only_free_seats_and_skip_seated_bots():
    assert bots_to_add((_seat(0, "Ana"),)) == ["Carmen", "Tito", "Luna"]
    assert bots_to_add((_seat(0, "Ana"), _seat(1, "Bruno"))) == ["Carmen", "Tito"]
    assert bots_to_add((_seat(0, "Ana"), _seat(1, "Carmen", True))) == ["Tito", "Luna"]
    assert bots_to_add(tuple(_seat(i, f"P{i}") for i in range(4))) == []


def test_service_refusals_have_messages_in_both_languages():
    codes = (
        "bad_identity bad_name table_not_found not_seated table_full not_creator already_started "
        "not_started need_two_players bad_bot stale_version not_absent_yet chat_empty chat_too_long "
        "chat_rate_limited spectator_cannot_chat rematch_not_offered table_expired"
    ).split()
    for code in codes:
        key = error_key(Refusal(code))
        assert key == "err." + code
        assert i18n.text("pt", key) != i18n.text("es", key)


def test_every_key_used_by_the_pages_is_in_the_catalog():
    used: set[str] = set()
    for path in list((PKG / "pages").rglob("*.py")) + list((PKG / "components").rglob("*.py")):
        used |= set(re.findall(r'\b[Tt]\["([\w.]+)"\]', path.read_text()))
    assert len(used) > 40
    missing = used - set(i18n.catalog("pt"))
    assert not missing, missing
