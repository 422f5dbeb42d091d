"""The table's own rules (the game, the starting lives, its house rules and Dicas) and the link
to the rules page, for the waiting room and the pause menu (seed 000 line 48: the creator picks
Pife, or Cacheta with 7 or 10 lives; "Variações" and lines 33-38: the house rules)."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.house_rules import table_house_rules
from pifecacheta.components.my_tables import FOCUS_RING
from pifecacheta.components.table.shared import UI, T


def rules_page_link(new_tab: bool = True) -> rx.Component:
    """REGRAS DO JOGO: ``/regras?mesa=<code>``, which also lists this table's house rules
    (``state/rules_page.py``); from a table it opens in a new tab (the table stays)."""
    return rx.link(  # type: ignore[no-any-return]
        rx.cond(new_tab, T["rules.link_new_tab"], T["rules.link"]),
        href="/regras?mesa=" + UI.code,  # type: ignore[operator]
        is_external=new_tab,
        color_scheme="amber",
        class_name="rules-link",
        style={"font_weight": "bold", **FOCUS_RING},
    )


def table_rules() -> rx.Component:
    """ "Pife: sem coringa; a primeira batida vence a partida." or "Cacheta, 7 vidas: ...",
    "Regras desta mesa" (each house rule with its effect, Dicas), and the link to the rules
    page."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(
            rx.cond(
                UI.mode == "pife",
                T["rules.this_pife"],
                T["rules.this_cacheta"].split("{lives}").join(UI.lives_start.to_string()),
            ),
            size="2",
            id="table-rules",
        ),
        table_house_rules(UI),
        rules_page_link(),
        spacing="1",
        width="100%",
    )
