"""The refusal classes: one per code, each code shown to players through the message catalog."""

from __future__ import annotations

import pytest

from pifecacheta import i18n
from pifecacheta.service import REFUSAL_CODES, Refusal, StaleVersion, TableNotFound


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_refusal_code_has_a_message(lang: str) -> None:
    missing = [c for c in REFUSAL_CODES if "err." + c not in i18n.catalog(lang)]
    assert missing == []


def test_a_refusal_class_carries_its_code_and_is_caught_as_the_base() -> None:
    with pytest.raises(Refusal) as caught:
        raise StaleVersion("the table changed")
    assert caught.value.code == "stale_version" and str(caught.value) == "the table changed"
    assert TableNotFound().code == "table_not_found" == str(TableNotFound())
    assert Refusal("no_seat").code == "no_seat"  # a code of the state layer's own
