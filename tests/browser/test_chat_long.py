"""A chat line as long as the chat allows (200 letters, no space to break at) on a phone: the
newest line is seen whole, its time and its author included, in the chat's box."""

from __future__ import annotations

from _flows import start_two
from _replay import hand
from playwright.sync_api import expect

LONG = "palabrasinespacios" * 11 + "fi"  # 200 letters: the input's maxlength


def test_the_longest_line_is_seen_whole_on_a_phone(app_harness, new_page, shot) -> None:
    assert len(LONG) == 200
    a, b = start_two(new_page, app_harness, "cacheta7", 4242, b_size=(390, 844), b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(b)).to_have_count(9)
    b.locator("#chat-input").fill(LONG)
    b.locator("#chat-input").press("Enter")
    line = b.locator("#chat-log .chat-line").last
    expect(line).to_have_text(f"Bruno: {LONG}")
    line.scroll_into_view_if_needed()
    box = b.locator("#chat-log").bounding_box()
    time_box = b.locator("#chat-log .chat-time").last.bounding_box()
    text_box = line.bounding_box()
    assert box is not None and time_box is not None and text_box is not None
    # its first line (the time and "Bruno:") and its last line are inside the box's view
    assert time_box["y"] >= box["y"] - 0.5, (time_box, box)
    assert text_box["y"] >= box["y"] - 0.5, (text_box, box)
    assert text_box["y"] + text_box["height"] <= box["y"] + box["height"] + 0.5, (text_box, box)
    shot(b, "chat_longest_390_es")
