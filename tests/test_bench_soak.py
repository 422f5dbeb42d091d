"""bench/bench_soak.py's check runs in the checkout's own interpreter: its spec (every move a
tab was told was made, over a full soak tens of thousands) goes on stdin, not as one argument."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_check_takes_a_spec_far_over_one_arguments_limit(tmp_path: Path) -> None:
    told = [["ZZZZZZ", f"p-{i:06d}", i] for i in range(20_000)]  # ~560 kB; one argv string: 128 kB
    spec = json.dumps({"tables": [], "told": told})
    assert len(spec) > 4 * 131_072
    env = dict(os.environ) | {"PIFECACHETA_DB_URL": f"sqlite:///{tmp_path / 'soak.db'}"}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_soak.py"), "--_verify", "-"],
        input=spec, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["tables"] == {} and got["told_missing"] == told  # no such table: none of them logged
