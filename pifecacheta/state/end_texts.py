"""Which headline FIM DA RODADA and the end of the match show: catalog keys chosen from the
fields of a :class:`~pifecacheta.state.ui_values.TableUi` (or of a past round's ``RoundUi``:
both are a :class:`~pifecacheta.state.ui_values.ResultUi`) already set. The pages translate
the keys (pt and es catalogs). Pure functions.
"""

from __future__ import annotations

from pifecacheta.state.ui_values import ResultUi, TableUi


def choose_end_texts(ui: TableUi) -> None:
    """Set ``ui``'s end-screen keys (``round_title_key`` ... ``has_rematch_votes``) from the
    fields already set: which headline FIM DA RODADA and the end of the match show.

    >>> ui = TableUi(mode="pife", match_over=True, has_result=True, result_out_of_turn=True)
    >>> choose_end_texts(ui)
    >>> ui.round_title_key, ui.result_banner_key, ui.result_headline_key
    ('match.title', 'banner.louca', 'round.went_out')
    """
    ui.round_title_key = "match.title" if ui.match_over and not ui.round_over else "round.title"
    choose_result_texts(ui)
    if ui.has_outcome:
        if not ui.outcome_winner and ui.match_over:
            ui.no_winner_key = "match.expired" if ui.outcome_kind == "expired" else "match.no_winner"
        if ui.outcome_kind in ("resigned", "absence"):
            ui.end_reason_key = "match." + ui.outcome_kind
        reason = ui.outcome_kind if ui.outcome_kind in ("resigned", "absence", "expired") else "left"
        ui.no_rematch_key = "rematch.none." + reason
    ui.has_rematch_votes = any(seat.rematch for seat in ui.seats)


def choose_result_texts(ui: ResultUi) -> None:
    """Set the keys of a go-out's lines (banner, headline, card taken) from ``ui``'s result
    (a ``TableUi`` or a past round's ``RoundUi``).

    >>> ui = TableUi(mode="cacheta", has_result=True, result_out_of_turn=True, result_with_ten=True)
    >>> choose_result_texts(ui)
    >>> ui.result_banner_key, ui.result_headline_key
    ('banner.jump', 'round.with_ten')
    """
    if ui.has_result:
        if ui.result_out_of_turn:
            ui.result_banner_key = "banner.louca" if ui.mode == "pife" else "banner.jump"
        ten = ui.result_with_ten and ui.mode == "cacheta"  # "bater com 10" is Cacheta's (seed 000 line 21)
        ui.result_headline_key = "round.with_ten" if ten else "round.went_out"
        if ui.result_has_taken:
            ui.result_taken_key = "round.took_card_from" if ui.result_discarder else "round.took_card"
