"""The moves' sounds switch (pifecacheta/state/move_sounds.py): off by default, on and off by
the switch, a forged value changes nothing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pifecacheta.state.move_sounds import MoveSoundState


def test_off_by_default():
    assert MoveSoundState.get_fields()["sounds"].default == ""


def test_the_switch_turns_them_on_and_off():
    tab = SimpleNamespace(sounds="")
    MoveSoundState.set_sounds.fn(tab, True)
    assert tab.sounds == "1"
    MoveSoundState.set_sounds.fn(tab, False)
    assert tab.sounds == ""


@pytest.mark.parametrize("forged", ["1", 1, None, [True]])
def test_a_forged_value_changes_nothing(forged):
    tab = SimpleNamespace(sounds="1")
    MoveSoundState.set_sounds.fn(tab, forged)
    assert tab.sounds == "1"
