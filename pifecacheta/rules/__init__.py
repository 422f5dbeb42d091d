"""The rules engine of Pife and Cacheta: pure Python, immutable values, no I/O.

A library a stranger could use to referee a kitchen-table game (docs/ENGINE_API.md):
cards and notation (:mod:`.cards`), the rules configuration (:mod:`.config`), errors
(:mod:`.errors`), melds and the go-out solver (:mod:`.melds`, the candidate melds of a hand in
:mod:`.candidates`, the best go-out in :mod:`.solver`, the completing cards in
:mod:`.one_away`, slow reference in :mod:`.brute`), actions (:mod:`.actions`), the match as
values (:mod:`.values`), the turn flow (:mod:`.match`, with one handler per action in
:mod:`.turns`) and what each seat may see (:mod:`.views`).

>>> from pifecacheta.rules import CACHETA_7, Draw, apply, new_match, player_view
>>> m = apply(new_match(CACHETA_7, 2, seed=3), 1, Draw())
>>> len(player_view(m, 1).hand), player_view(m, 0).hand_counts
(10, (9, 10))
"""

from . import actions, brute, match, melds, one_away, solver, views
from .actions import *  # noqa: F403
from .brute import *  # noqa: F403
from .cards import (
    ACE,
    ALL_FACES,
    JACK,
    KING,
    QUEEN,
    RANKS,
    SUITS,
    Card,
    Face,
    Suit,
    format_hand,
    full_deck,
    parse_hand,
    rank_text,
    sort_by_rank,
    sort_by_suit,
)
from .config import CACHETA_7, CACHETA_10, PIFE, Mode, Rules
from .errors import IllegalActionError, NotationError, NotYourTurnError, RulesError, WrongPhaseError
from .match import *  # noqa: F403
from .melds import *  # noqa: F403
from .one_away import completing_faces, is_one_away  # noqa: F401 (listed by one_away.__all__)
from .shuffle import RoundKey
from .solver import *  # noqa: F403
from .views import *  # noqa: F403

__all__ = [
    # cards
    "ACE",
    "ALL_FACES",
    "JACK",
    "QUEEN",
    "KING",
    "RANKS",
    "SUITS",
    "Card",
    "Face",
    "Suit",
    "format_hand",
    "full_deck",
    "parse_hand",
    "rank_text",
    "sort_by_rank",
    "sort_by_suit",
    # config
    "CACHETA_7",
    "CACHETA_10",
    "PIFE",
    "Mode",
    "Rules",
    # errors
    "IllegalActionError",
    "NotationError",
    "NotYourTurnError",
    "RulesError",
    "WrongPhaseError",
    # shuffle
    "RoundKey",
]
# every public name of the other modules, as each declares it in its own __all__
__all__ += melds.__all__
__all__ += solver.__all__
__all__ += one_away.__all__
__all__ += brute.__all__
__all__ += actions.__all__
__all__ += match.__all__
__all__ += views.__all__
