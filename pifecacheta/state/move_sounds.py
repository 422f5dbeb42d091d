"""The optional sounds of the moves (issue 11, item 2: "optional sounds, off until the player
turns them on"): this browser's choice, kept in its localStorage (``pc_move_sounds``, "1" when
on, shared by its tabs), so a reload keeps it. The page plays them
(``components/table/move_sound.py``); the server only keeps the switch's value."""

from __future__ import annotations

import reflex as rx


class MoveSoundState(rx.State):
    """Whether this browser plays a sound for each draw, take and discard at the table."""

    sounds: str = rx.LocalStorage("", name="pc_move_sounds", sync=True)

    @rx.var
    def sounds_on(self) -> bool:
        """True when the moves' sounds play (off by default)."""
        return self.sounds == "1"

    @rx.event
    def set_sounds(self, on: bool) -> None:
        """The switch: the moves' sounds on or off. Anything but a bool (a forged event)
        changes nothing."""
        if isinstance(on, bool):
            self.sounds = "1" if on else ""
