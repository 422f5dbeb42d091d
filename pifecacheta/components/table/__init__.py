"""The parts of the table page (``/mesa/<code>``), one module per area of the screen.

``shared`` holds what several parts read (the viewer's ``TableUi``, the catalog, the
browser-side selection, the common styles); ``messages`` the refusal callouts; ``seats``,
``centre``, ``hand``, ``actions``, ``dialogs``, ``chat``, ``round_over`` and ``waiting_room``
one area each. ``pifecacheta/pages/table.py`` assembles them.

Typing: Reflex 0.10.1 exports its components (``rx.vstack``, ``rx.text``, ...) untyped and
types ``@rx.event`` handlers as ``EventNamespace`` and a field of an object Var as
``ObjectItemOperation`` without arithmetic; hence the ``# type: ignore[no-any-return]`` on
functions returning a component and ``# type: ignore[operator]`` on handler calls and on
``+`` / ``<`` between a field Var and a plain number or string. Row functions take the Var
of one item (``ObjectVar[SeatUi]``, ``ObjectVar[CardUi]``, ...).
"""
