"""The fixed parameters of a match: game mode, lives and house variants.

The defaults are the site's rules (seed 000, section "No Selminha.com", lines 46-75;
seed 002 says the same in Spanish). Each variant is off by default and comes from the
general sections of the seeds, as cited on its field.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import RulesError


class Mode(enum.Enum):
    """Which game: Pife (no wild, first to go out wins) or Cacheta (vira, wild, lives)."""

    PIFE = "pife"
    CACHETA = "cacheta"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Frozen rules configuration of one match.

    Attributes:
        mode: Pife or Cacheta (seed 000 line 48).
        lives: starting lives in Cacheta, 7 or 10 (seed 000 line 66); ignored in Pife.
        set_may_repeat_suit: variant, a set may hold two cards of one suit, since there are
            two decks (seed 000 line 35; seed 003 line 19). Sets then have 3 to 8 cards, at
            least three different suits among them: a suit repeats only from the fourth card.
        wild_same_colour: variant, the card after the vira in *both* suits of its colour is
            wild, four wilds (seed 000 lines 26 and 36; seed 003 line 9).
        discard_only_to_go_out: variant, the top discard may be taken only to go out with it
            (seed 000 line 38).
        rebuild_without_shuffle: variant, the discard pile becomes the stock again without
            shuffling (seed 000 line 33).
        no_wild_in_sets: variant, a wild may not stand in for a card of a set; it may still
            count as itself (seed 003 line 33).

    Raises:
        RulesError: lives not 7 or 10 in Cacheta.
    """

    mode: Mode = Mode.CACHETA
    lives: int = 7
    set_may_repeat_suit: bool = False
    wild_same_colour: bool = False
    discard_only_to_go_out: bool = False
    rebuild_without_shuffle: bool = False
    no_wild_in_sets: bool = False

    def __post_init__(self) -> None:
        if self.mode is Mode.CACHETA and self.lives not in (7, 10):
            raise RulesError(f"Cacheta is played with 7 or 10 lives, not {self.lives}")

    @property
    def has_wild(self) -> bool:
        """True in Cacheta: Pife has no wild (seed 000 line 60)."""
        return self.mode is Mode.CACHETA


PIFE = Rules(mode=Mode.PIFE)
CACHETA_7 = Rules(mode=Mode.CACHETA, lives=7)
CACHETA_10 = Rules(mode=Mode.CACHETA, lives=10)
