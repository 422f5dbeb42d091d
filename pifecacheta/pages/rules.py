"""``/regras`` (and ``/reglas``): the site's rules in our own words, in the viewer's language.

The text follows seed 000 lines 45-75 ("No Selminha.com") and seed 002 lines 45-75 ("En
Selminha.com"), rewritten; every paragraph is a catalogue entry (``rules.<part>.title`` /
``rules.<part>.body``), so the page reads the same in pt and es. Small card pictures
(``components/cards.py``) show a set, a run, A-2-3 and Q-K-A, and a wild. Opened from a table
(``/regras?mesa=<code>``), the page first says which house rules that table plays
(``state/rules_page.py``).
"""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.cards import card_face
from pifecacheta.components.common import page_shell
from pifecacheta.components.focus import page_title
from pifecacheta.components.house_rules import table_house_rules
from pifecacheta.components.my_tables import FOCUS_RING
from pifecacheta.rules.cards import Card
from pifecacheta.state.rules_page import RulesPageState
from pifecacheta.state.ui_values import CardUi, card_ui
from pifecacheta.state.viewer import ViewerState

# (part, examples): each example is (caption key, cards in notation, wild faces of the example)
PARTS: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("site", ()),
    ("games", ()),
    ("deal", ()),
    (
        "melds",
        (
            ("rules.ex.set", "7C 7H 7S", ""),
            ("rules.ex.run", "4D 5D 6D 7D", ""),
            ("rules.ex.a23", "AH 2H 3H", ""),
            ("rules.ex.qka", "QS KS AS", ""),
        ),
    ),
    ("turn", ()),
    ("out", ()),
    ("stock", ()),
    ("pife", ()),
    (
        "wild",
        (
            ("rules.ex.vira", "6H 7H", "7H"),
            ("rules.ex.wild_meld", "4C 5C 7H", "7H"),
        ),
    ),
    ("naboa", ()),
    ("lives", ()),
    ("round_end", ()),
    ("bots", ()),
    ("time", ()),
    ("chat", ()),
)


def example_cards(notation: str, wild: str = "") -> list[CardUi]:
    """The cards of one example, drawn like the table's (``wild``: faces marked as wilds).

    >>> [c.code for c in example_cards("QS KS AS")]
    ['QS', 'KS', 'AS']
    >>> [c.wild for c in example_cards("6H 7H", "7H")]
    [False, True]
    """
    wilds = [Card.parse(w).face for w in wild.split()]
    return [card_ui(Card.parse(c), wilds=wilds) for c in notation.split()]


def _example(caption_key: str, notation: str, wild: str) -> rx.Component:
    """A row of small cards with its caption; the group is named by the caption."""
    t = ViewerState.t
    return rx.vstack(  # type: ignore[no-any-return]
        rx.hstack(
            *(card_face(c, size="sm") for c in example_cards(notation, wild)),
            spacing="1",
            role="group",
            aria_label=t[caption_key],
        ),
        rx.text(t[caption_key], size="1", style={"opacity": "0.9", "max_width": "14em"}),
        spacing="1",
        class_name="rules-example",
    )


def _part(part: str, examples: tuple[tuple[str, str, str], ...]) -> rx.Component:
    t = ViewerState.t
    return rx.vstack(  # type: ignore[no-any-return]
        rx.heading(t[f"rules.{part}.title"], size="4", as_="h2"),
        rx.text(t[f"rules.{part}.body"], size="3", style={"line_height": "1.5"}),
        *(
            [rx.flex(*(_example(*e) for e in examples), wrap="wrap", gap="1em", padding_top="0.3em")]
            if examples
            else []
        ),
        spacing="2",
        id=f"rules-{part}",
        width="100%",
    )


def _this_table() -> rx.Component:
    """The house rules of the table the page was opened from, and whether it has Dicas."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(ViewerState.t["rules.table_intro"], size="2", style={"opacity": "0.9"}),
        table_house_rules(RulesPageState),
        spacing="2",
        id="rules-this-table",
        width="100%",
        style={"background": "rgba(0,0,0,0.25)", "border_radius": "0.6em", "padding": "0.8em"},
    )


def rules_page() -> rx.Component:
    """The rules page: the title, a short introduction, one section per rule, the closing note
    and the way back to the lobby."""
    t = ViewerState.t
    return page_shell(
        rx.vstack(
            rx.heading(t["rules.title"], size="7", as_="h1", id="rules-title", **page_title()),
            rx.text(t["rules.intro"], size="3", style={"opacity": "0.9"}),
            rx.cond(RulesPageState.from_table, _this_table()),
            *(_part(p, ex) for p, ex in PARTS),
            rx.text(t["rules.closing"], size="2", style={"opacity": "0.85", "font_style": "italic"}),
            rx.link(
                t["rules.back"],
                href="/",
                color_scheme="amber",
                id="rules-back",
                style={"font_weight": "bold", **FOCUS_RING},
            ),
            spacing="5",
            style={
                "max_width": "46em",
                "margin": "1.5em auto",
                "padding": "1.4em",
                "border_radius": "1em",
                "background": "rgba(0,0,0,0.3)",
            },
        ),
    )
