"""The settings the service and the database read from the environment (the background driver
gets them through the service).

* ``PIFECACHETA_DB_URL``: the database URL; else ``REFLEX_DB_URL``; else the SQLite file
  ``.data/pifecacheta.db`` (the same rule as rxconfig.py).
* ``PIFECACHETA_BOT_DELAY``: seconds a bot waits before it acts (default 1.2).
* ``PIFECACHETA_ROUND_OVER_DELAY``: seconds before FIM DA RODADA closes by itself when only
  bots still play (default 4; 0 when the bot delay is 0).
* ``PIFECACHETA_FIXED_SEED``: an integer; every new match is dealt with this seed (tests
  only; players cannot reach it).
* ``PIFECACHETA_PAST_ROUNDS``: how many rounds of a table's earlier matches (before its last
  REVANCHE) the server keeps in memory and every tab receives (default 12, at least 1); the
  older ones are read when a viewer asks for them (``HistoryBook.older_rounds``).

A number that does not parse falls back to its default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_DB_URL = "sqlite:///.data/pifecacheta.db"  # hidden folder: see rxconfig.py
DEFAULT_BOT_DELAY = 1.2
DEFAULT_ROUND_OVER_DELAY = 4.0
DEFAULT_PAST_ROUNDS = 12


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    try:
        return float(env.get(name, default))
    except ValueError:
        return default


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    """The whole number in ``env[name]``, at least 1; ``default`` when it does not parse.

    >>> _count({"N": "3"}, "N", 12), _count({"N": "nan"}, "N", 12), _count({"N": "0"}, "N", 12)
    (3, 12, 1)
    """
    try:
        return max(int(env.get(name, default)), 1)
    except ValueError:
        return default


def fixed_seed_from_env(env: Mapping[str, str] | None = None) -> int | None:
    """The integer in ``PIFECACHETA_FIXED_SEED``, or None when it is unset or empty.

    The service reads it at every deal (not once at start), so a test may change it between
    matches.

    >>> fixed_seed_from_env({"PIFECACHETA_FIXED_SEED": "7"}), fixed_seed_from_env({})
    (7, None)
    """
    text = (os.environ if env is None else env).get("PIFECACHETA_FIXED_SEED")
    return int(text) if text else None


@dataclass(frozen=True)
class Settings:
    """The environment's settings (see the module docstring for the variables).

    Attributes:
        db_url: SQLAlchemy database URL.
        bot_delay: seconds a bot waits, counted from the table's last move.
        round_over_delay: seconds before a bots-only FIM DA RODADA closes by itself
            (seed 000 line 68), counted from the table's last move.
        fixed_seed: the seed of every new match, or None for a random one per match.
        past_rounds: the rounds of a table's earlier matches kept in memory (the newest ones).
    """

    db_url: str = DEFAULT_DB_URL
    bot_delay: float = DEFAULT_BOT_DELAY
    round_over_delay: float = DEFAULT_ROUND_OVER_DELAY
    fixed_seed: int | None = None
    past_rounds: int = DEFAULT_PAST_ROUNDS

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, bot_delay: float | None = None) -> Settings:
        """Read the settings from ``env`` (default ``os.environ``).

        ``bot_delay``, when given, replaces ``PIFECACHETA_BOT_DELAY``; the round-over delay's
        default (4 s, or 0 when the bot delay is 0) follows the effective bot delay.

        >>> s = Settings.from_env({"REFLEX_DB_URL": "sqlite://", "PIFECACHETA_BOT_DELAY": "0"})
        >>> s.db_url, s.bot_delay, s.round_over_delay, s.fixed_seed, s.past_rounds
        ('sqlite://', 0.0, 0.0, None, 12)
        >>> Settings.from_env({}).round_over_delay, Settings.from_env({}, bot_delay=0).round_over_delay
        (4.0, 0.0)
        """
        env = os.environ if env is None else env
        bot = _float(env, "PIFECACHETA_BOT_DELAY", DEFAULT_BOT_DELAY) if bot_delay is None else bot_delay
        round_over_default = DEFAULT_ROUND_OVER_DELAY if bot > 0 else 0.0
        return cls(
            db_url=env.get("PIFECACHETA_DB_URL") or env.get("REFLEX_DB_URL") or DEFAULT_DB_URL,
            bot_delay=bot,
            round_over_delay=_float(env, "PIFECACHETA_ROUND_OVER_DELAY", round_over_default),
            fixed_seed=fixed_seed_from_env(env),
            past_rounds=_count(env, "PIFECACHETA_PAST_ROUNDS", DEFAULT_PAST_ROUNDS),
        )
