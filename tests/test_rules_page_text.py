"""The rules page's text (pifecacheta/pages/rules.py): every part has its title and body in pt
and es, each example has a caption and real cards, and no catalogue text names a card (the
whole catalogue reaches every browser; tests/browser/test_frames_secrecy.py would take a
card's name in it for a leaked card)."""

from __future__ import annotations

import re

from pifecacheta import i18n
from pifecacheta.pages.rules import PARTS, example_cards

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])(10|[2-9AJQK])([CDHS])'?(?![A-Za-z0-9_\-])")


def test_every_part_and_caption_is_in_both_languages():
    for lang in i18n.LANGUAGES:
        cat = i18n.catalog(lang)
        for part, examples in PARTS:
            assert cat[f"rules.{part}.title"] and cat[f"rules.{part}.body"]
            for caption, notation, _wild in examples:
                assert cat[caption] and len(example_cards(notation)) >= 2
        assert {"rules.title", "rules.intro", "rules.closing", "rules.back"} <= cat.keys()


def test_the_examples_show_a_set_a_run_both_aces_and_a_wild():
    examples = {caption: (notation, wild) for _part, ex in PARTS for caption, notation, wild in ex}
    assert examples["rules.ex.a23"][0] == "AH 2H 3H" and examples["rules.ex.qka"][0] == "QS KS AS"
    assert any(c.wild for c in example_cards(*examples["rules.ex.wild_meld"]))


def test_no_catalogue_text_names_a_card():
    names = {i18n.card_label(r + s, lang).lower() for r in RANKS for s in "CDHS" for lang in i18n.LANGUAGES}
    for lang in i18n.LANGUAGES:
        for key, text in i18n.catalog(lang).items():
            low = text.lower()
            assert not [n for n in names if n in low], (lang, key)
            assert not TOKEN.search(text), (lang, key)


def test_the_house_words_the_table_says_are_on_the_rules_page():
    """The banners and history name Pife's go-out out of turn "bater com a louca" / "cerrar con
    la louca" and Cacheta's announcement NA BOA / ME FALTA UNA (seed 000 lines 23 and 29, seed
    002 lines 23 and 29): a player who reads such a word at the table finds it on the rules page,
    in the same language."""
    for lang, words in (("pt", ("louca", "NA BOA")), ("es", ("louca", "ME FALTA UNA"))):
        cat = i18n.catalog(lang)
        rules = " ".join(cat[f"rules.{part}.{k}"] for part, _ in PARTS for k in ("title", "body"))
        said = " ".join(v for k, v in cat.items() if k.startswith(("banner.", "hist.", "round.")))
        for word in words:
            assert word in said, (lang, word)
            assert word in rules, (lang, word)
