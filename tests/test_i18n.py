"""The Portuguese and Spanish catalogs: same keys, the seeds' button names verbatim."""

import pytest

from pifecacheta import i18n

# Seed 000 lines 53-68 (pt) and seed 002 lines 53-72 (es): the buttons named in capitals.
SEED_BUTTONS = {
    "btn.draw": ("COMPRAR", "ROBAR"),
    "btn.take": ("PEGAR DO LIXO", "TOMAR DEL POZO"),
    "btn.go_out": ("BATER", "CERRAR"),
    "btn.announce": ("NA BOA", "ME FALTA UNA"),
    "btn.next_round": ("PRÓXIMA RODADA", "SIGUIENTE RONDA"),
    "round.title": ("FIM DA RODADA", "FIN DE LA RONDA"),
    "btn.claim_absence": ("ENCERRAR POR AUSÊNCIA", "TERMINAR POR AUSENCIA"),
    "btn.resign": ("DESISTIR", "ABANDONAR"),
    "btn.leave_game": ("SAIR DO JOGO", "SALIR DEL JUEGO"),
    "btn.leave_table": ("SAIR DA MESA", "SALIR DE LA MESA"),
    "badge.out": ("FORA", "FUERA"),
}


def test_same_keys_in_both_catalogs():
    pt, es = i18n.catalog("pt"), i18n.catalog("es")
    assert len(pt) > 100
    assert set(pt) == set(es), set(pt) ^ set(es)


def test_no_empty_translation():
    for lang in i18n.LANGUAGES:
        empty = [k for k, v in i18n.catalog(lang).items() if not v.strip()]
        assert not empty, (lang, empty)


@pytest.mark.parametrize("key", sorted(SEED_BUTTONS))
def test_seed_button_names_verbatim(key):
    pt, es = SEED_BUTTONS[key]
    assert i18n.text("pt", key) == pt
    assert i18n.text("es", key) == es


def test_placeholders_match_between_languages():
    import re

    for key, pt in i18n.catalog("pt").items():
        es = i18n.catalog("es")[key]
        assert set(re.findall(r"\{\w+\}", pt)) == set(re.findall(r"\{\w+\}", es)), key


def test_taken_card_message_from_the_brief_names_the_twin_too():
    """The brief's sentence, and the twin of the other deck (seed 000 line 54, 002 line 54)."""
    assert i18n.text("pt", "err.taken_card") == (
        "A carta que veio do lixo não pode ser descartada nesta vez, nem a igual do outro baralho."
    )
    assert "la igual de la otra baraja" in i18n.text("es", "err.taken_card")


def test_every_engine_error_code_has_a_message():
    codes = (
        "match_over not_a_player player_out not_your_turn wrong_phase discard_empty card_not_in_hand "
        "taken_card cannot_go_out not_one_away already_announced no_announce_in_pife "
        "discard_only_to_go_out round_not_over round_over not_absent bad_action stale_version"
    ).split()
    for code in codes:
        for lang in i18n.LANGUAGES:
            assert "err." + code in i18n.catalog(lang), (lang, code)


def test_card_labels_and_language_choice():
    assert i18n.card_label("7H", "pt") == "7 de copas"
    assert i18n.card_label("7H", "es") == "7 de corazones"
    assert i18n.card_label("AC'", "pt") == "ás de paus"
    assert i18n.pick_language("") == "pt"
    assert i18n.pick_language("en-US,en;q=0.9") == "pt"
    assert i18n.pick_language("en;q=0.9,es;q=0.8,pt;q=0.5") == "es"
    assert i18n.pick_language("pt-BR") == "pt"
    assert i18n.text("xx", "btn.draw") == "COMPRAR"


@pytest.mark.parametrize("lang, said", [("pt", "bateu com a louca"), ("es", "cerró con la louca")])
def test_pife_louca_reads_the_same_in_the_panel_and_the_history(lang, said):
    """A Pife go-out on another seat's discard: FIM DA RODADA's line, its banner and the
    history all use the glossary's words (docs/GLOSSARY.md, "bater com a louca")."""
    for key in ("round.louca_from", "banner.louca", "hist.louca", "hist.louca_ten"):
        assert f"{{name}} {said}" in i18n.catalog(lang)[key], (lang, key)


def test_the_touch_screen_hints_to_discard_offer_the_drag_and_name_no_mouse() -> None:
    """A finger drags a card to the lixo too (components/table/hand.py's touch drag), so the
    touch screen's words (``turn.discard*``, shown when the pointer is not a fine one) offer the
    drag themselves instead of an aside for a mouse the screen does not have."""
    from pifecacheta import i18n

    for lang, mouse, drag in (("pt", "mouse", "arraste-a até o lixo"), ("es", "ratón", "arrástrala al pozo")):
        for key in ("turn.discard", "turn.discard_or_go_out"):
            words = i18n.text(lang, key)
            assert mouse not in words and drag in words, (lang, key, words)
