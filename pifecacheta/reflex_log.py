"""What the ``reflex run`` command itself logs, tidied where Reflex repeats itself.

Standard-library only: ``rxconfig.py`` installs it while Reflex's command line loads the config,
before anything of the app (or of Reflex's components) is imported.

Checked against Reflex 0.10.1 (``tests/test_reflex_log.py`` fails when it stops matching):
``reflex.utils.exec.run_frontend`` asks ``js_runtimes.get_js_package_executor`` twice (to
validate, then to start the dev server), and each time ``is_outdated_nodejs_installed`` logs
"Your version (20.x) of Node.js is out of date ..." on the logger ``reflex.utils.js_runtimes``
when an older Node is on the PATH. That check is also what makes Reflex start the frontend
with ``bun --bun`` (bun's own runtime, not that Node), so the warning stays, once.

On a fresh checkout ``reflex run`` first initialises the web project (``reflex.reflex._init``)
and logs, on the logger ``reflex.reflex``, "Initialized pifecacheta. Run `uv run reflex run` to
start the app." while the app is already starting: the advice is dropped, the rest kept.
"""

from __future__ import annotations

import logging

NODE_LOGGER = "reflex.utils.js_runtimes"
NODE_WARNING = "of Node.js is out of date"  # a part of Reflex 0.10.1's message


INIT_LOGGER = "reflex.reflex"
INIT_ADVICE = " Run `uv run reflex run` to start the app."  # Reflex 0.10.1's next step after init


class _OnceFilter(logging.Filter):
    """Lets the first record holding ``part`` through and drops its repeats (other records
    pass untouched)."""

    def __init__(self, part: str) -> None:
        super().__init__()
        self.part = part
        self.seen = False

    def filter(self, record: logging.LogRecord) -> bool:
        if self.part not in record.getMessage():
            return True
        if self.seen:
            return False
        self.seen = True
        return True


def node_warning_once() -> None:
    """Say Reflex's outdated-Node warning once per process instead of at each of its checks
    (idempotent: a second call adds no second filter)."""
    target = logging.getLogger(NODE_LOGGER)
    if not any(isinstance(f, _OnceFilter) for f in target.filters):
        target.addFilter(_OnceFilter(NODE_WARNING))


class _DropFilter(logging.Filter):
    """Removes ``part`` from every record's message (the record itself passes)."""

    def __init__(self, part: str) -> None:
        super().__init__()
        self.part = part

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.part in message:
            record.msg, record.args = message.replace(self.part, ""), ()
        return True


def init_without_advice() -> None:
    """Drop Reflex's "Run `uv run reflex run` to start the app." from the line it logs after
    initialising the web project during ``reflex run`` (idempotent)."""
    target = logging.getLogger(INIT_LOGGER)
    if not any(isinstance(f, _DropFilter) for f in target.filters):
        target.addFilter(_DropFilter(INIT_ADVICE))
