"""The parts of the table page (``/mesa/<code>``), one module per area of the screen.

``shared`` holds what several parts read (the viewer's ``TableUi``, the catalog, the
browser-side selection, the common styles); ``messages`` the refusal callouts; ``seats``,
``centre``, ``hand``, ``actions``, ``dialogs``, ``chat``, ``round_over`` and ``waiting_room``
one area each. ``pifecacheta/pages/table.py`` assembles them.

Typing: Reflex 0.10.1 exports its components (``rx.vstack``, ``rx.text``, ...) untyped and
types ``@rx.event`` handlers as ``EventNamespace``; hence the ``# type: ignore[no-any-return]``
on functions returning a component and ``# type: ignore[operator]`` on handler calls and on
comparisons of a number with a ``TableUi`` field.
"""
