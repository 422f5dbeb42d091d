"""Browser tests: the real app under AppHarness, a temp SQLite database, system Chromium.

Run in their own pytest process (pyproject ignores tests/browser by default):
``.venv/bin/python -m pytest tests/browser`` with bun on PATH and ``REFLEX_USE_SYSTEM_BUN=1``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator
from pathlib import Path

import pytest
from playwright.sync_api import expect

expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
FIXED_SEED = "12345"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """System Chromium when present (Playwright's own download cannot work here)."""
    args = {
        **browser_type_launch_args,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
    exe = os.environ.get("PIFECACHETA_CHROMIUM") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else ""
    )
    if exe:
        args["executable_path"] = exe
    return args


@pytest.fixture(scope="session")
def app_harness(tmp_path_factory) -> Generator:
    """The app, started once per session on a fresh SQLite database with a fixed deal."""
    from reflex.testing import AppHarness

    db = tmp_path_factory.mktemp("db") / "test.db"
    os.environ["PIFECACHETA_DB_URL"] = f"sqlite:///{db}"
    os.environ["PIFECACHETA_FIXED_SEED"] = FIXED_SEED
    os.environ["PIFECACHETA_BOT_DELAY"] = "0"
    os.environ.setdefault("REFLEX_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("REFLEX_CHECK_LATEST_VERSION", "false")
    os.environ.setdefault("REFLEX_USE_SYSTEM_BUN", "1")
    bun_dir = ROOT / ".tools" / "node_modules" / ".bin"
    if bun_dir.exists() and str(bun_dir) not in os.environ.get("PATH", ""):
        os.environ["PATH"] = f"{bun_dir}:{os.environ['PATH']}"
    with AppHarness.create(root=ROOT, app_name="pifecacheta") as harness:
        yield harness


DEAL_ENV = ("PIFECACHETA_FIXED_SEED", "PIFECACHETA_FAIR_DEAL")
"""The settings with which a test chooses how the in-process service deals (tests/browser/_planner.py)."""


@pytest.fixture(autouse=True)
def _deal_settings_restored() -> Generator:
    """Each test starts with the harness's deal settings: one test's fixed seed or verifiable
    deals must not change the deals another test planned."""
    before = {name: os.environ.get(name) for name in DEAL_ENV}
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def new_page(browser, app_harness):
    """Factory of pages in fresh browser contexts (each its own localStorage = its own player)."""
    contexts = []
    pages: list = []

    def make(*, width: int = 1366, height: int = 900, locale: str = "pt-BR", touch: bool = False):
        """``touch``: a touch screen (``has_touch``), for touches sent by the browser's input
        (CDP ``Input.dispatchTouchEvent``: they scroll the page as a finger would)."""
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale, has_touch=touch)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.set_default_navigation_timeout(90_000)
        pages.append(page)
        return page

    make.pages = pages  # read by pytest_runtest_makereport when the test fails
    yield make
    for ctx in contexts:
        ctx.close()


def _shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


SIZES = {"390": (390, 844), "1366": (1366, 900)}


def _shots_all(page, name: str) -> None:
    """Screenshots of ``page`` at phone and desktop width, in pt and es; restores size and language."""
    size = page.viewport_size
    was_es = page.locator("#lang-es[aria-pressed=true]").count() > 0
    for lang in ("pt", "es"):
        page.locator(f"#lang-{lang}").click()
        expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")
        for label, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(150)
            _shot(page, f"{name}_{label}_{lang}")
    page.locator("#lang-es" if was_es else "#lang-pt").click()
    page.set_viewport_size(size)


@pytest.fixture
def shot():
    """``shot(page, name)`` saves screenshots/<name>.png (gitignored)."""
    return _shot


@pytest.fixture
def shots_all():
    """``shots_all(page, name)``: <name>_{390,1366}_{pt,es}.png."""
    return _shots_all


@pytest.fixture
def code_of():
    """``code_of(page)``: the table code in the page's /mesa/<code> URL."""

    def get(page) -> str:
        m = re.search(r"/mesa/([^/?#]+)", page.url)
        assert m, page.url
        return m.group(1)

    return get


def _server_view(code: str) -> str:
    """The table as the app's own service sees it (AppHarness runs the backend in this process)."""
    try:
        from pifecacheta.service import get_service

        snap = get_service().snapshots(code, [None])[0]
        v = snap.view
        if v is None:
            return f"status={snap.status} version={snap.version}"
        return (
            f"status={snap.status} version={snap.version} round={v.round_number} phase={v.phase.value} "
            f"turn={v.turn} hands={list(v.hand_counts)} lives={list(v.lives)}"
        )
    except Exception as exc:  # noqa: BLE001 - diagnostics must not hide the real failure
        return f"(no server view: {exc!r})"


def _diagnose(pages: list, test_name: str) -> str:
    """What every open page showed when the test failed: URL, the page's text and a screenshot
    (screenshots/FAILED_<test>_<n>.png), next to the server's own view of the table."""
    lines = []
    for n, page in enumerate(pages):
        if page.is_closed():
            continue
        try:
            lines.append(f"--- page {n}: {page.url}")
            m = re.search(r"/mesa/([^/?#]+)", page.url)
            if m:
                lines.append("server: " + _server_view(m.group(1)))
            body = page.locator("body").inner_text(timeout=2_000)
            lines.append("text: " + " | ".join(x.strip() for x in body.splitlines() if x.strip())[:1500])
            SHOTS.mkdir(exist_ok=True)
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", test_name)
            page.screenshot(path=str(SHOTS / f"FAILED_{safe}_{n}.png"), full_page=True, timeout=5_000)
        except Exception as exc:  # noqa: BLE001
            lines.append(f"(page {n} could not be read: {exc!r})")
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed browser test, add what the pages showed to the report (CI prints it)."""
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call" and rep.failed:
        make = item.funcargs.get("new_page")
        pages = getattr(make, "pages", None)
        if pages:
            rep.sections.append(("pages at failure", _diagnose(pages, item.name)))
