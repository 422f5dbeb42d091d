"""The one application service this process uses.

Every change goes through ``pifecacheta.service.TableService`` (docs/SERVICE_API.md); the
Reflex layer never touches the database or the rules engine's hidden ``Match``.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_service: Any = None


def get_service() -> Any:
    """The process-wide ``TableService`` (created on first use from ``pifecacheta.db``).

    On creation, the snapshot cache (``state/snapshots.py``) subscribes to its ``on_change``.
    """
    global _service
    with _lock:
        if _service is None:
            from pifecacheta import service as service_module

            factory = getattr(service_module, "get_service", None)
            if factory is not None:
                _service = factory()
            else:
                from pifecacheta import db

                _service = service_module.TableService(db.init_db())
            from pifecacheta.state.snapshots import CACHE

            # cached snapshots of a table are outdated by every committed change (chat too)
            _service.on_change(CACHE.table_changed)
        return _service
