"""The browser's part in verifiable deals: its contribution to the next deal, and the Verificar
view of a finished round (service/fair_deal.py, service/round_record.py).

Contribution: the deal panel mounts a hidden element keyed by the commitment waiting for this
seat's answer (components/table/verify.py); its ``on_mount`` runs :meth:`FairDealState.contribute`,
which asks the browser for 32 random bytes (``browser_scripts.deal_contribution``) and sends
them with the commitment they answer. A new commitment is a new key, so a new answer; a tab
that reloads sends the value it kept (the service keeps the first one anyway).

Verificar: :meth:`FairDealState.open_verify` runs the checks of ``rules/verify_round.py`` on
the round's record (the same the stand-alone script runs on a download) and then asks the
browser for the value it kept for that round's commitment, to say whether it is in the record.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import reflex as rx

from pifecacheta.service import get_service
from pifecacheta.state.browser_scripts import deal_contribution, kept_contribution
from pifecacheta.state.snapshots import is_refusal
from pifecacheta.state.table import TableState, _in_thread, error_key


@dataclasses.dataclass
class CheckUi:
    """One check of the Verificar view: catalog ``key``, ``n`` for the rebuild's number
    ("" otherwise), ``ok``."""

    key: str = ""
    n: str = ""
    ok: bool = False


@dataclasses.dataclass
class ContributionUi:
    """One contribution of a verified round: the seat's ``name`` and the value (hex)."""

    name: str = ""
    value: str = ""


def check_rows(checks: list[tuple[str, bool, str]]) -> list[CheckUi]:
    """The Verificar rows of ``verify()``'s checks: ``rebuild 3`` -> key ``verify.check.rebuild``,
    n ``3``; every other name -> ``verify.check.<name>``."""
    rows = []
    for name, ok, _ in checks:
        base, _, n = name.partition(" ")
        rows.append(CheckUi(key=f"verify.check.{base}", n=n, ok=bool(ok)))
    return rows


class FairDealState(rx.State):
    """Contributions sent by this tab, and the Verificar view's content."""

    sent: str = ""  # the last commitment this tab's contribution was accepted for
    verify_open: bool = False
    verify_round: int = 0
    verify_match: int = 0  # the round's match when before the last REVANCHE, else 0 (the current one)
    verify_loading: bool = False
    verify_error: str = ""  # catalog key of a refusal
    checks: list[CheckUi] = []
    all_ok: bool = False
    commitment: str = ""
    seed: str = ""
    contributions: list[ContributionUi] = []
    own: str = ""  # same | missing | unknown ("" before the browser answered)
    _mine: str = ""  # this viewer's contribution as the record holds it ("" when none)

    # ---- contributing --------------------------------------------------------------------
    @rx.event
    async def contribute(self, commitment: str) -> Any:
        """On mount of the deal panel's hook: have the browser make its value for ``commitment``."""
        if not isinstance(commitment, str) or len(commitment) != 64 or commitment == self.sent:
            return None
        return rx.call_script(deal_contribution(commitment), callback=FairDealState.send_value)

    @rx.event
    async def send_value(self, result: Any) -> None:
        """The browser's ``"<commitment>:<value>"``: sent to the service for this seat."""
        commitment, _, value = str(result).partition(":")
        table = await self.get_state(TableState)
        code, who = table.table_code, table._who()
        if not code:
            return
        try:
            await _in_thread(get_service().contribute, code, who, commitment, value)
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            return  # not seated any more, or a malformed value: nothing to say, nothing changed
        self.sent = commitment

    # ---- Verificar -----------------------------------------------------------------------
    @rx.event
    async def open_verify(self, round_number: int, match_number: int = 0) -> Any:
        """VERIFICAR: check round ``round_number`` of match ``match_number`` (0: the current
        match; 1, 2, ...: a match before the last REVANCHE) and show the checks."""
        self.verify_open, self.verify_round, self.verify_error, self.own = True, int(round_number), "", ""
        self.verify_match = max(int(match_number), 0)
        self.checks, self.all_ok, self.contributions = [], False, []
        table = await self.get_state(TableState)
        code, who = table.table_code, table._who()
        match = self.verify_match or None
        try:
            record = await _in_thread(get_service().round_record, code, who, self.verify_round, match)
            checks = await _in_thread(get_service().round_checks, code, who, self.verify_round, match)
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            self.verify_error = error_key(exc)
            return None
        self.checks = check_rows(checks)
        self.all_ok = all(c.ok for c in self.checks)
        deal = record["deal"]
        self.commitment, self.seed = str(deal["commitment"]), str(deal["seed"])
        names = {int(s["seat"]): str(s["name"]) for s in record["seats"]}
        self.contributions = [
            ContributionUi(name=names.get(int(c["seat"]), str(c["seat"])), value=str(c["value"]))
            for c in deal["contributions"]
        ]
        my_seat = (await table._snapshot()).my_seat
        self._mine = next((str(c["value"]) for c in deal["contributions"] if int(c["seat"]) == my_seat), "")
        return rx.call_script(kept_contribution(self.commitment), callback=FairDealState.own_value)

    @rx.event
    def own_value(self, value: Any) -> None:
        """The value this browser kept for the verified round: in the record or not."""
        kept = str(value or "")
        self.own = "unknown" if not kept else ("same" if kept == self._mine else "missing")

    @rx.event
    async def download_record(self, round_number: int, match_number: int = 0) -> Any:
        """BAIXAR O REGISTRO: the record of round ``round_number`` of match ``match_number`` (0:
        the current one) as a JSON file (docs/ROUND_RECORD.md), for the people of the table only
        (the service checks this tab's identity, as for a move)."""
        table = await self.get_state(TableState)
        code, who = table.table_code, table._who()
        match = max(int(match_number), 0)
        try:
            record = await _in_thread(get_service().round_record, code, who, int(round_number), match or None)
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            self.verify_error = error_key(exc)
            return None
        text = json.dumps(record, indent=1, ensure_ascii=False)
        match_part = f"-partida-{match}" if match else ""  # an earlier match's round
        return rx.download(
            data=text,
            filename=f"pifecacheta-{code}{match_part}-rodada-{int(round_number)}.json",
            mime_type="application/json",
        )

    @rx.event
    def set_verify_open(self, is_open: bool) -> None:
        """The dialog's open state (closed by Esc, the close button or a click outside)."""
        self.verify_open = bool(is_open)
