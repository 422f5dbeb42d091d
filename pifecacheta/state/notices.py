"""Your turn, noticed: the tab title and favicon, an optional chime and a browser notification.

The table page holds one invisible box per reason to act (``turn``, ``next`` for PRÓXIMA
RODADA, ``absence`` for ENCERRAR POR AUSÊNCIA, or "" for none), only the current one shown:
when the reason changes, its box mounts and its ``on_mount`` calls :meth:`NoticeState.signal`, which
answers with the one snippet that sets the title and icon and, on a new reason, plays the chime
(when ``sound`` is on) and shows a notification while the tab is hidden (when the player allowed
it). The reason is computed in the browser from the viewer's own ``TableUi``: it names no card.

The home page's tab says it too (:func:`lobby_script`): "● Sua vez (2) · Pife ou Cacheta" and
the your-turn icon while MINHAS MESAS lists tables where the player may act (SUA VEZ, AUSÊNCIA),
so a home tab left open over days shows it; no chime nor notification there (a table's own tab
gives them, and two tabs would ring twice).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta import i18n
from pifecacheta.state.browser_scripts import NOTIFICATION_PERMISSION, REQUEST_NOTIFICATIONS, turn_signal
from pifecacheta.state.viewer import ViewerState

REASONS: tuple[str, ...] = ("turn", "next", "absence")
ICON = "/favicon.svg"
TURN_ICON = "/icon-turn.svg"
CHIME = "/turn.wav"


NAMES_MAX = 80  # characters of the seats' names in a tab's title


def table_names(names: str) -> str:
    """The seats' names for a tab's title: ``names`` as the page joins them (", "), without
    the empty seats of a waiting room, cut at :data:`NAMES_MAX` characters.

    >>> table_names("Ana, , Bruno, "), len(table_names("x" * 200))
    ('Ana, Bruno', 80)
    """
    kept = ", ".join(n for n in (p.strip() for p in str(names).split(",")) if n)
    return kept if len(kept) <= NAMES_MAX else kept[: NAMES_MAX - 1] + "…"


def signal_script(reason: str, lang: str, *, mode: str, sound: bool, notify: bool, names: str = "") -> str:
    """The :func:`~pifecacheta.state.browser_scripts.turn_signal` snippet for ``reason``.

    ``reason``: one of :data:`REASONS`, anything else clears the signal (the title back to
    the table's game and names, "Cacheta · Ana, Bruno", the plain icon). ``mode``: "pife" or
    "cacheta", or "missing" for a page with no such table (the not-found title); ``names``:
    the seats' names (:func:`table_names`): both in the title, so that two tables' tabs read
    apart, e.g. "● Sua vez · Cacheta · Ana, Bruno". ``sound`` / ``notify``: the player's
    choices.
    """
    t = i18n.catalog(i18n.normalise_language(lang))
    if mode == "missing":
        return turn_signal(on=False, title=t["doc.title.not_found"], icon=ICON)
    game = t["mode.pife"] if mode == "pife" else t["mode.cacheta"]
    who = table_names(names)
    if reason not in REASONS:
        idle = t["notice.title_idle"].replace("{game}", game).replace("{names}", who)
        return turn_signal(on=False, title=idle.rstrip(" ·"), icon=ICON)
    title = t[f"notice.title_{reason}"].replace("{game}", game).replace("{names}", who).rstrip(" ·")
    return turn_signal(
        on=True,
        title=title,
        icon=TURN_ICON,
        notify_title=title.lstrip("● ") if notify else "",
        notify_body=t[f"notice.body_{reason}"].replace("{game}", game) if notify else "",
        sound=CHIME if sound else "",
    )


def lobby_script(count: int, lang: str) -> str:
    """The :func:`~pifecacheta.state.browser_scripts.turn_signal` snippet of the home page:
    with ``count`` > 0 tables where the player may act, the title "● Sua vez (2) · Pife ou
    Cacheta" and the your-turn icon; with 0, the home page's own title and the plain icon.
    Silent either way (no sound, no notification)."""
    t = i18n.catalog(i18n.normalise_language(lang))
    if count <= 0:
        return turn_signal(on=False, title=t["doc.title.lobby"], icon=ICON)
    return turn_signal(on=True, title=t["notice.title_lobby"].replace("{n}", str(count)), icon=TURN_ICON)


class NoticeState(rx.State):
    """This browser's choices about being told it is its turn (both in localStorage)."""

    sound: str = rx.LocalStorage("", name="pc_sound", sync=True)  # "1": play the chime
    notify: str = rx.LocalStorage("", name="pc_notify", sync=True)  # "1": notify when hidden
    permission: str = ""  # the browser's answer: granted, denied, default, unsupported
    _last: str = ""  # the reason this tab last signalled (a remount of the same one stays silent)

    @rx.var
    def sound_on(self) -> bool:
        """True when the chime plays on a new turn."""
        return self.sound == "1"

    @rx.var
    def notify_on(self) -> bool:
        """True when a hidden tab shows a notification on a new turn (permission granted)."""
        return self.notify == "1" and self.permission != "denied"

    @rx.event
    def set_sound(self, on: bool) -> None:
        """The sound switch: the chime on or off (off by default)."""
        self.sound = "1" if on else ""

    @rx.event
    def check_permission(self) -> Any:
        """On mount of the controls: read the browser's current permission."""
        return rx.call_script(NOTIFICATION_PERMISSION, callback=NoticeState.permission_is)

    @rx.event
    def set_notify(self, on: bool) -> Any:
        """The notification switch: off, or on after asking the browser for permission."""
        if not on:
            self.notify = ""
            return None
        return rx.call_script(REQUEST_NOTIFICATIONS, callback=NoticeState.permission_answer)

    @rx.event
    def permission_answer(self, result: Any) -> None:
        """The browser's answer to the request: notifications on only when granted."""
        self.permission = str(result or "")
        self.notify = "1" if self.permission == "granted" else ""

    @rx.event
    def permission_is(self, result: Any) -> None:
        """The browser's current permission; a permission withdrawn turns notifications off."""
        self.permission = str(result or "")
        if self.permission != "granted":
            self.notify = ""

    @rx.event
    async def lobby_signal(self, count: int) -> Any:
        """MINHAS MESAS now lists ``count`` tables where the player may act: the home tab's
        title and icon (:func:`lobby_script`)."""
        viewer = await self.get_state(ViewerState)
        try:
            n = int(count)
        except (TypeError, ValueError):  # a forged event: the plain title
            n = 0
        return rx.call_script(lobby_script(n, viewer.language))

    @rx.event
    async def signal(self, reason: str, mode: str, names: str = "") -> Any:
        """The viewer's reason to act changed (the keyed box mounted): title, icon, chime,
        notice. ``names``: the seats' names, joined by ", " (the tab's title names them)."""
        if not mode:  # the page is loading: its route's title stays
            return None
        viewer = await self.get_state(ViewerState)
        reason = str(reason)
        fresh, self._last = reason != self._last, reason
        return rx.call_script(
            signal_script(
                reason,
                viewer.language,
                mode=str(mode),
                sound=fresh and self.sound == "1",
                notify=fresh and self.notify == "1",
                names=str(names),
            )
        )
