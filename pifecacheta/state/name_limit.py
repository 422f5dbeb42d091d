"""The display name's length limit as the page's name boxes apply it (``components/lobby_name.py``).

The service keeps a name to ``NAME_MAX`` (24) characters (``service/identity.py``); the boxes
stop typing there (``maxlength``). A longer value can only come from a forged event: the
setters refuse it with ``err.name_too_long`` and keep the name typed so far.

>>> fits("Ana"), fits("x" * 24), fits("x" * 25)
(True, True, False)
"""

from __future__ import annotations

from pifecacheta.service import NAME_MAX

__all__ = ["NAME_MAX", "TOO_LONG", "fits"]

TOO_LONG = "err.name_too_long"  # the catalog key of the refusal


def fits(name: object) -> bool:
    """True when ``name`` is a string of at most ``NAME_MAX`` characters (code points, as the
    service counts them; the browser's ``maxlength`` counts UTF-16 units, never fewer)."""
    return isinstance(name, str) and len(name) <= NAME_MAX
