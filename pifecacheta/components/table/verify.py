"""The verifiable deal on screen: the commitments, this browser's contribution, VERIFICAR.

:func:`deal_panel` goes in the waiting room and in FIM DA RODADA (the moments a deal is
waiting): the commitment of the next deal (``#deal-pending``; once the match is decided, of
the REVANCHE's first deal), at FIM DA RODADA the round's
commitment and its revealed seed (``#deal-seed``), the hidden hook that sends this seat's
contribution, and VERIFICAR (:func:`verify_button`, also on each past round of the history),
which opens :func:`verify_dialog` (``#verify-dialog``, once on the table page).
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.table.replay import replay_button
from pifecacheta.components.table.shared import UI, WRAP_STYLE, T, fill_in, round_button, round_title
from pifecacheta.state.fair_deal import CheckUi, ContributionUi, FairDealState

HEX_STYLE: dict[str, str] = {
    "font_family": "monospace",
    "font_size": "0.8em",
    **WRAP_STYLE,
}


def _hex(label: Any, value: Any, box_id: str) -> rx.Component:
    """A label and a long hex value on its own line, wrapped anywhere (a phone is narrow)."""
    return rx.box(  # type: ignore[no-any-return]
        rx.text(label, size="2"),
        rx.text(value, style=HEX_STYLE, class_name="deal-hex"),
        id=box_id,
        width="100%",
    )


def _contribution_hook() -> rx.Component:
    """Hidden: mounted (again) for each commitment this seat has not answered, it makes and
    sends this browser's value (state/fair_deal.py)."""
    needs = (
        UI.is_player & (UI.deal_pending != "") & ~UI.deal_answered & (FairDealState.sent != UI.deal_pending)
    )
    return rx.cond(  # type: ignore[no-any-return]
        needs,
        rx.box(
            key=UI.deal_pending,
            on_mount=FairDealState.contribute(UI.deal_pending),  # type: ignore[operator]
            display="none",
        ),
    )


def _codes() -> rx.Component:
    """The commitments and the revealed seed behind a native disclosure, closed at first
    (``#deal-details``: "Ver os códigos (SHA-256)"): 64 hex digits each, for the players who
    check them, not in everyone's way. ``<details>``/``<summary>`` is a keyboard control and
    says "collapsed" / "expanded" to a screen reader by itself."""
    return rx.el.details(  # type: ignore[no-any-return]
        rx.el.summary(T["deal.details"], class_name="deal-summary"),
        rx.vstack(
            rx.cond(
                UI.deal_seed != "",
                rx.vstack(
                    _hex(T["deal.current"], UI.deal_commitment, "deal-commitment"),
                    _hex(T["deal.seed"], UI.deal_seed, "deal-seed"),
                    spacing="1",
                    width="100%",
                ),
            ),
            rx.cond(  # a decided match has no next round: the waiting deal is a REVANCHE's
                UI.deal_pending != "",
                _hex(
                    rx.cond(UI.match_decided, T["deal.pending_rematch"], T["deal.pending"]),
                    UI.deal_pending,
                    "deal-pending",
                ),
            ),
            spacing="1",
            width="100%",
            padding_top="0.3em",
        ),
        id="deal-details",
        style={"width": "100%", "font_size": "var(--font-size-2)"},
    )


def verify_button(round_number: Any, button_id: str | None = None, match_number: Any = 0) -> rx.Component:
    """VERIFICAR for round ``round_number`` (an int Var) of match ``match_number`` (0: the
    current one): opens :func:`verify_dialog` (on the table page once) on that round's checks;
    ``button_id`` where it is unique."""
    return round_button(
        T["btn.verify"],
        FairDealState.open_verify(round_number, match_number),  # type: ignore[operator]
        "verify-button",
        button_id,
    )


def deal_panel() -> rx.Component:
    """The verifiable deal: its title, the codes (:func:`_codes`, closed), VERIFICAR and REVER
    once a seed is revealed, the contribution's confirmation."""
    answered = UI.deal_answered | ((FairDealState.sent != "") & (FairDealState.sent == UI.deal_pending))
    return rx.cond(  # type: ignore[no-any-return]
        (UI.deal_pending != "") | (UI.deal_seed != ""),
        rx.vstack(
            rx.text(T["deal.title"], weight="bold", size="2"),
            _codes(),
            rx.cond(  # the record holds every hand: for the people of the table
                (UI.deal_seed != "") & UI.is_player,
                rx.hstack(
                    verify_button(UI.round_number, "verify-button"),
                    replay_button(UI.round_number, "replay-button"),
                    spacing="2",
                    wrap="wrap",
                ),
            ),
            rx.cond(
                UI.is_player & (UI.deal_pending != "") & answered,
                rx.text(T["deal.sent"], size="2", id="deal-sent", role="status"),
            ),
            _contribution_hook(),
            spacing="2",
            width="100%",
            id="deal-panel",
        ),
    )


def _check_row(row: ObjectVar[CheckUi]) -> rx.Component:
    """One check: ✓ / ✗, its words, and "confere" / "NÃO confere" (read by screen readers)."""
    label = rx.cond(row.n != "", fill_in(T[row.key], "{n}", row.n), T[row.key])
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(rx.cond(row.ok, "✓", "✗"), aria_hidden="true", color=rx.cond(row.ok, "#9fe29f", "#ffb4b4")),
        rx.text(label, " — ", rx.cond(row.ok, T["verify.ok"], T["verify.bad"]), size="2"),
        spacing="2",
        align="start",
        class_name="verify-check",
    )


def _contribution_row(c: ObjectVar[ContributionUi]) -> rx.Component:
    """One browser's contribution: the seat's name and its value."""
    return rx.box(  # type: ignore[no-any-return]
        rx.text(c.name, size="2", weight="bold"),
        rx.text(c.value, style=HEX_STYLE),
        class_name="verify-contribution",
        width="100%",
    )


def verify_dialog() -> rx.Component:
    """The Verificar view of ``FairDealState.verify_round``: what was revealed, each check, the
    overall verdict (announced), this browser's own contribution, and the record's download."""
    own_key = rx.match(
        FairDealState.own,
        ("same", "verify.own.same"),
        ("missing", "verify.own.missing"),
        "verify.own.unknown",
    ).to(str)
    body = rx.vstack(
        rx.dialog.description(T["verify.intro"], size="2"),
        _hex(T["deal.current"], FairDealState.commitment, "verify-commitment"),
        _hex(T["deal.seed"], FairDealState.seed, "verify-seed"),
        rx.text(T["verify.contributions"], size="2"),
        rx.cond(
            FairDealState.contributions.length() > 0,  # type: ignore[attr-defined]
            rx.vstack(rx.foreach(FairDealState.contributions, _contribution_row), spacing="1", width="100%"),
            rx.text(T["verify.none"], size="2"),
        ),
        rx.vstack(rx.foreach(FairDealState.checks, _check_row), spacing="1", id="verify-checks"),
        rx.text(
            rx.cond(FairDealState.all_ok, T["verify.all_ok"], T["verify.failed"]),
            weight="bold",
            id="verify-verdict",
            role="status",
            color=rx.cond(FairDealState.all_ok, "#9fe29f", "#ffb4b4"),
        ),
        rx.cond(FairDealState.own != "", rx.text(T[own_key], size="2", id="verify-own")),
        rx.button(
            T["verify.download"],
            on_click=FairDealState.download_record(FairDealState.verify_round, FairDealState.verify_match),  # type: ignore[operator]
            variant="outline",
            color_scheme="amber",
            id="verify-download",
        ),
        rx.text(T["verify.script"], size="1", style=HEX_STYLE),
        spacing="2",
        width="100%",
    )
    return rx.dialog.root(  # type: ignore[no-any-return]
        rx.dialog.content(
            rx.dialog.title(
                round_title(
                    "verify.title",
                    "verify.match_title",
                    FairDealState.verify_round,
                    FairDealState.verify_match,
                )
            ),
            rx.cond(
                FairDealState.verify_error != "",
                rx.callout(T[FairDealState.verify_error], color_scheme="red", id="verify-error"),
                rx.cond(FairDealState.checks.length() > 0, body, rx.text(T["verify.loading"])),  # type: ignore[attr-defined]
            ),
            rx.dialog.close(
                rx.button(T["verify.close"], variant="soft", id="verify-close", margin_top="1em")
            ),
            id="verify-dialog",
            style={"background": "var(--color-panel-solid)"},  # no table showing through
            max_width="36em",
        ),
        open=FairDealState.verify_open,
        on_open_change=FairDealState.set_verify_open,
    )
