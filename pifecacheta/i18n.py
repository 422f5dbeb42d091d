"""Interface strings in Portuguese and Spanish, read from gettext ``.po`` catalogs with Babel.

The catalogs live in ``pifecacheta/locale/<lang>/LC_MESSAGES/messages.po``. Each ``msgid``
is a stable key (``"btn.draw"``), each ``msgstr`` the text shown (``"COMPRAR"`` / ``"ROBAR"``);
button names are the seeds' own words (seed 000 lines 44-75, seed 002 lines 44-75).
Both catalogs must hold the same keys (checked by ``tests/test_i18n.py``).

>>> text("es", "btn.draw")
'ROBAR'
>>> text("pt", "turn.other", name="Ana")
'Vez de Ana'
>>> pick_language("es-AR,es;q=0.9,en;q=0.8")
'es'
>>> card_label("7H", "pt"), card_label("QS'", "es")
('7 de copas', 'reina de picas')
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("pt", "es")
DEFAULT_LANGUAGE = "pt"
LOCALE_DIR = Path(__file__).parent / "locale"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` ("pt" or "es") as ``{key: text}``.

    Raises:
        ValueError: unknown language.
        FileNotFoundError: the ``.po`` file is missing.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {LANGUAGES}")
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        po = read_po(fh, locale=lang)
    return {str(m.id): str(m.string) for m in po if m.id}


def text(lang: str, key: str, **fields: object) -> str:
    """The text for ``key`` in ``lang`` with ``{name}``-style fields filled in.

    An unknown language falls back to Portuguese; an unknown key returns the key itself.
    """
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    template = catalog(lang).get(key, key)
    for name, value in fields.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def normalise_language(lang: str | None) -> str:
    """``lang`` if it is a supported language code, else the default ("pt")."""
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def pick_language(accept_language: str) -> str:
    """The first supported language in an HTTP ``Accept-Language`` header, else "pt".

    Quality values are honoured; ``es-AR`` counts as ``es``, ``pt-BR`` as ``pt``.
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        if tag:
            ranked.append((-q, i, tag.split("-")[0]))
    for _, _, base in sorted(ranked):
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def card_label(code: str, lang: str) -> str:
    """A card's name for screen readers, e.g. ``"7 de copas"`` / ``"7 de corazones"``.

    ``code`` is card notation ("7H", "10D", "QS'"); the deck mark is ignored.
    """
    c = code.strip().rstrip("'").upper()
    rank, suit = c[:-1], c[-1]
    return f"{text(lang, 'rank.' + rank)} {text(lang, 'card.of')} {text(lang, 'suit.' + suit)}"
