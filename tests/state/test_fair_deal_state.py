"""The browser snippets of the verifiable deal and the Verificar rows (state/fair_deal.py)."""

from __future__ import annotations

import json

from pifecacheta.state.browser_scripts import deal_contribution, kept_contribution
from pifecacheta.state.fair_deal import CheckUi, check_rows


def test_the_snippets_insert_the_commitment_as_json_only() -> None:
    c = "ab" * 32
    js = deal_contribution(c)
    assert json.dumps({"c": c}) in js and "getRandomValues" in js and "pfc-deal:" in js
    hostile = "x'); alert(1); ('"
    assert json.dumps({"c": hostile}) in deal_contribution(hostile)  # a string, never code
    assert json.dumps({"c": c}) in kept_contribution(c) and "localStorage.getItem" in kept_contribution(c)


def test_check_rows_name_each_check_by_its_catalog_key() -> None:
    rows = check_rows([("commitment", True, ""), ("rebuild 2", False, "differs"), ("deal", True, "")])
    assert rows == [
        CheckUi(key="verify.check.commitment", n="", ok=True),
        CheckUi(key="verify.check.rebuild", n="2", ok=False),
        CheckUi(key="verify.check.deal", n="", ok=True),
    ]
    from pifecacheta.i18n import catalog

    for lang in ("pt", "es"):  # every check the verifier can give has its words
        for name in ("schema", "commitment", "deal", "rebuild", "rebuilds", "result", "actions", "record"):
            assert f"verify.check.{name}" in catalog(lang)
