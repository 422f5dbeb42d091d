"""The table cookie the app sets when a table opens (``browser_scripts.table_cookie``): the
same ``pc_table`` the cluster's nginx sets on a page load of ``/mesa/<code>``
(``pifecacheta/proxy_conf.py``), and nothing for a path that is not a code."""

from __future__ import annotations

import json
import secrets

from pifecacheta.state.browser_scripts import load_page, table_cookie


def test_a_code_gives_the_cookie_nginx_would_set() -> None:
    code = secrets.token_urlsafe(12)  # as service/lobby.py makes them
    assert table_cookie(code) == "document.cookie = " + json.dumps(f"pc_table={code}; path=/; samesite=lax")


def test_anything_else_gives_no_script() -> None:
    for path in ('a"b', "a;b", "", "a b", "x" * 65, "</script>", "a\nb"):
        assert table_cookie(path) is None, path


def test_the_page_load_a_cluster_creator_gets() -> None:
    """CRIAR MESA in a cluster loads the table page anew (``state/lobby.py``), the path quoted."""
    assert load_page("/mesa/Ab3_x-9Z") == 'window.location.assign("/mesa/Ab3_x-9Z")'
    assert load_page('/mesa/a"b') == 'window.location.assign("/mesa/a\\"b")'
