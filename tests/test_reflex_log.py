"""``pifecacheta/reflex_log.py``: Reflex's outdated-Node warning said once per ``reflex run``.

Runs Reflex 0.10.1's own check (``is_outdated_nodejs_installed``) twice, as ``run_frontend``
does, with an old Node version reported, and counts the warnings.
"""

from __future__ import annotations

import logging

import pytest
from packaging import version
from reflex.utils import js_runtimes

from pifecacheta import reflex_log


@pytest.fixture
def old_node(monkeypatch):
    monkeypatch.setattr(js_runtimes, "get_node_version", lambda: version.parse("20.20.2"))
    target = logging.getLogger(reflex_log.NODE_LOGGER)
    before = list(target.filters)
    target.filters = [f for f in before if not isinstance(f, reflex_log._OnceFilter)]
    yield
    target.filters = before


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if reflex_log.NODE_WARNING in r.getMessage()]


def test_reflex_warns_at_each_check_without_it(old_node, caplog):
    """The premise: Reflex's own check warns every time (if it stops, drop reflex_log)."""
    with caplog.at_level(logging.WARNING, logger=reflex_log.NODE_LOGGER):
        assert js_runtimes.is_outdated_nodejs_installed()
        assert js_runtimes.is_outdated_nodejs_installed()
    assert len(_warnings(caplog)) == 2


def test_the_warning_is_said_once_and_the_check_still_holds(old_node, caplog):
    reflex_log.node_warning_once()
    reflex_log.node_warning_once()  # idempotent
    assert (
        sum(isinstance(f, reflex_log._OnceFilter) for f in logging.getLogger(reflex_log.NODE_LOGGER).filters)
        == 1
    )
    with caplog.at_level(logging.WARNING, logger=reflex_log.NODE_LOGGER):
        # still True: Reflex keeps starting the frontend with `bun --bun`
        assert js_runtimes.is_outdated_nodejs_installed()
        assert js_runtimes.is_outdated_nodejs_installed()
        logging.getLogger(reflex_log.NODE_LOGGER).warning("another warning")
    assert len(_warnings(caplog)) == 1
    assert "another warning" in caplog.text  # other records pass


def test_rxconfig_installs_it():
    import rxconfig  # noqa: F401

    assert any(
        isinstance(f, reflex_log._OnceFilter) for f in logging.getLogger(reflex_log.NODE_LOGGER).filters
    )


def test_the_pages_call_no_deprecated_reflex_api(monkeypatch):
    """``reflex run`` prints a DeprecationWarning for each deprecated Reflex call the pages make
    while they are built (issue 11 defect 12: a start-up log with no line to ignore of ours)."""
    from reflex_base.utils import console

    said: list[str] = []
    monkeypatch.setattr(console, "deprecate", lambda feature_name="", *a, **k: said.append(feature_name))
    from pifecacheta.pages import access, lobby, not_found, rules, table

    for page in (
        lobby.lobby_page,
        table.table_page,
        rules.rules_page,
        access.access_page,
        access.enter_page,
        not_found.not_found_page,
    ):
        page()
    assert said == []


def test_reflex_advises_to_start_the_app_after_its_init():
    """The premise: Reflex's init (run by ``reflex run`` on a fresh checkout) logs the advice on
    the logger the filter sits on (if it stops, drop ``init_without_advice``)."""
    import inspect

    from reflex import reflex as cli

    assert cli.logger.name == reflex_log.INIT_LOGGER
    assert reflex_log.INIT_ADVICE.strip() in inspect.getsource(cli._init)


def test_the_advice_is_dropped_and_the_line_kept(caplog):
    from reflex_base.utils import log

    import rxconfig  # noqa: F401  (installs the filter, as `reflex run` loads it)

    target = logging.getLogger(reflex_log.INIT_LOGGER)
    assert sum(isinstance(f, reflex_log._DropFilter) for f in target.filters) == 1
    reflex_log.init_without_advice()  # idempotent
    assert sum(isinstance(f, reflex_log._DropFilter) for f in target.filters) == 1
    with caplog.at_level(logging.DEBUG, logger=reflex_log.INIT_LOGGER):
        target.log(log.SUCCESS, f"Initialized pifecacheta.{reflex_log.INIT_ADVICE}")
        target.info("Initialized %s.", "x")
    assert [r.getMessage() for r in caplog.records] == ["Initialized pifecacheta.", "Initialized x."]
