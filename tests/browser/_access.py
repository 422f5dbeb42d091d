"""Helpers of the Meu acesso and notice browser tests: labelled frame recording, the stored
identity, and an init script that records Notifications and can hide the tab."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Page

# Wraps window.Notification (records every notification the page creates) and lets the test
# say the tab is hidden (window.__hidden = true): Chromium's headless tabs are always visible.
NOTIFICATION_SPY = """
(() => {
  window.__notes = [];
  window.__hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; } });
  Object.defineProperty(Document.prototype, 'hidden', {
    configurable: true, get() { return !!window.__hidden; } });
  const Real = window.Notification;
  if (!Real) return;
  function Spy(title, options) {
    window.__notes.push({title: title, body: (options || {}).body || '', tag: (options || {}).tag || ''});
    try { return new Real(title, options); } catch (e) { return {close() {}}; }
  }
  Object.defineProperty(Spy, 'permission', {get() { return Real.permission; }});
  Spy.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Spy;
})();
"""


def stored_identity(page: Page) -> tuple[str, str]:
    """``(player_id, secret)`` as this browser keeps them (localStorage, JSON or raw)."""
    raw = page.evaluate("() => [localStorage.getItem('pc_player'), localStorage.getItem('pc_secret')]")
    pid, secret = (json.loads(x) if x and x.startswith('"') else (x or "") for x in raw)
    return pid, secret


class LabelledFrames:
    """Every websocket text frame ``page`` receives, with the label of the step it came in.

    The test sets :attr:`label` before each step and calls :meth:`settle` before changing it,
    so a frame is never put under the next step's label. Request URLs are kept too.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.label = "start"
        self.frames: list[tuple[str, str]] = []
        self.urls: list[str] = []
        page.on("websocket", self._socket)
        page.on("request", lambda req: self.urls.append(req.url))
        page.on("framenavigated", lambda fr: self.urls.append(fr.url) if fr == page.main_frame else None)

    def _socket(self, ws) -> None:
        self.urls.append(ws.url)
        ws.on("framereceived", lambda p: self.frames.append((self.label, p if isinstance(p, str) else "")))

    def settle(self, quiet_ms: int = 600, limit_s: float = 15.0) -> None:
        """Wait until no frame came for ``quiet_ms`` (at most ``limit_s`` seconds)."""
        deadline = time.monotonic() + limit_s
        count = -1
        while len(self.frames) != count and time.monotonic() < deadline:
            count = len(self.frames)
            self.page.wait_for_timeout(quiet_ms)

    def step(self, label: str) -> None:
        """Settle, then file the next frames under ``label``."""
        self.settle()
        self.label = label

    def labels_with(self, text: str) -> set[str]:
        """The labels of the frames that contain ``text``."""
        return {label for label, frame in self.frames if text in frame}
