"""Verifiable deals in browser tests: fixed browser contributions, so a test can plan the deal.

The service, under ``PIFECACHETA_FIXED_SEED`` and ``PIFECACHETA_FAIR_DEAL=1``, commits round 1 to
``seed_for_tests(seed, 1)`` (service/fair_deal.py). Each player's page gets an init script that
answers its 32-byte ``crypto.getRandomValues`` calls (the deal contribution) with one byte
value; every other call stays random (Reflex's own tokens). :func:`key_of` is then the key the
service deals round 1 with, and ``_planner.find_seed(..., key_of=key_of)`` plans it.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from pifecacheta.rules import RoundKey
from pifecacheta.service.fair_deal import seed_for_tests

CONTRIBUTIONS = {0: 0x11, 1: 0x22}
FIXED_CONTRIBUTION = (
    "(() => { const v = %d; const real = window.crypto.getRandomValues.bind(window.crypto);"
    " window.crypto.getRandomValues = (a) => (a instanceof Uint8Array && a.length === 32)"
    " ? a.fill(v) : real(a); })()"
)
# where the feature's screenshots go (env PIFECACHETA_SHOTS, else screenshots/fair_deal beside
# the other browser shots)
_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "fair_deal"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS", _DEFAULT_SHOTS))


def contribute_fixed(page, seat: int) -> None:
    """Make ``page`` (the player who will sit at ``seat``) contribute its fixed value."""
    page.add_init_script(FIXED_CONTRIBUTION % CONTRIBUTIONS[seat])


def key_of(seed: int) -> RoundKey:
    """The key the service deals round 1 with under fixed seed ``seed`` and the fixed values."""
    return RoundKey(seed_for_tests(seed, 1), tuple((s, bytes([v]) * 32) for s, v in CONTRIBUTIONS.items()))


def seed_forms(seed: bytes) -> list[str]:
    """The ways a frame could carry a 32-byte seed: hex (both cases), base64, url-safe base64."""
    b64 = base64.b64encode(seed).decode().rstrip("=")
    return [seed.hex(), seed.hex().upper(), b64, base64.urlsafe_b64encode(seed).decode().rstrip("=")]


def carrying(frames: list[str], seed: bytes) -> list[int]:
    """Indexes of the frames that carry ``seed`` in any of :func:`seed_forms`."""
    forms = seed_forms(seed)
    return [i for i, f in enumerate(frames) if any(x in f for x in forms)]


def shot(page, name: str) -> None:
    """``<SHOTS>/<name>.png``, what the screen shows (a dialog is over the viewport)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def start_verifiable_round(new_page, app_harness, seeds):
    """Ana (pt, desktop) creates a Cacheta 7 table, Bruno (es, phone) joins by the link, both
    browsers give their fixed deal values and Ana presses COMEÇAR, under verifiable deals
    with a planned seed from ``seeds``. Returns ``(a, b, seed, final_plan, log)`` once it is
    Bruno's turn (``_planner.find_seed``'s plan and action log)."""
    from _flows import create_table, join_table
    from _planner import find_seed
    from _replay import wait_my_turn
    from playwright.sync_api import expect

    from pifecacheta.rules import CACHETA_7

    seed, final_plan, log = find_seed(
        CACHETA_7, 2, out_of_turn=False, max_actions=16, seeds=seeds, key_of=key_of
    )
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    os.environ["PIFECACHETA_FAIR_DEAL"] = "1"
    a = new_page()
    contribute_fixed(a, 0)
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    b = new_page(width=390, height=844, locale="es-AR")
    contribute_fixed(b, 1)
    join_table(b, a.url, "Bruno", "es")
    for p in (a, b):
        expect(p.locator("#deal-sent")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    wait_my_turn(b, "es")
    return a, b, seed, final_plan, log
