"""The rules engine of Pife and Cacheta: pure Python, immutable values, no I/O.

A library a stranger could use to referee a kitchen-table game (docs/ENGINE_API.md):
cards and notation (:mod:`.cards`), the rules configuration (:mod:`.config`), errors
(:mod:`.errors`), melds and the go-out solver (:mod:`.melds`, :mod:`.solver`, slow reference
in :mod:`.brute`), actions (:mod:`.actions`), the turn flow (:mod:`.match`) and what each seat
may see (:mod:`.views`).

>>> from pifecacheta.rules import CACHETA_7, Draw, apply, new_match, player_view
>>> m = apply(new_match(CACHETA_7, 2, seed=3), 1, Draw())
>>> len(player_view(m, 1).hand), player_view(m, 0).hand_counts
(10, (9, 10))
"""

from .actions import (
    Action,
    AnnounceOneAway,
    ClaimAbsence,
    Discard,
    Draw,
    Expire,
    GoOut,
    LeaveTable,
    NextRound,
    Resign,
    TakeDiscard,
    action_from_dict,
)
from .brute import brute_best_go_out, brute_completing_faces
from .cards import (
    ACE,
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
from .match import (
    HAND_SIZE,
    Match,
    Outcome,
    Phase,
    Round,
    RoundResult,
    Termination,
    active_seats,
    apply,
    legal_actions,
    new_match,
    wilds_of,
)
from .melds import Meld, MeldKind, meld_of, wild_faces
from .solver import GoOutPlan, best_go_out, completing_faces, go_out_with_discard, is_one_away
from .views import PlayerView, player_view, spectator_view

__all__ = [
    # cards
    "ACE",
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
    # melds, solver, brute
    "Meld",
    "MeldKind",
    "meld_of",
    "wild_faces",
    "GoOutPlan",
    "best_go_out",
    "completing_faces",
    "go_out_with_discard",
    "is_one_away",
    "brute_best_go_out",
    "brute_completing_faces",
    # actions
    "Action",
    "AnnounceOneAway",
    "ClaimAbsence",
    "Discard",
    "Draw",
    "Expire",
    "GoOut",
    "LeaveTable",
    "NextRound",
    "Resign",
    "TakeDiscard",
    "action_from_dict",
    # match
    "HAND_SIZE",
    "Match",
    "Outcome",
    "Phase",
    "Round",
    "RoundResult",
    "Termination",
    "active_seats",
    "apply",
    "legal_actions",
    "new_match",
    "wilds_of",
    # views
    "PlayerView",
    "player_view",
    "spectator_view",
]
