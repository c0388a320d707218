"""Smoke run of every benchmark script in its tiny mode: each prints well-formed JSON figure lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support import REPO

DATA = REPO.parent / "shared" / "data"
SCRIPTS = ["bench.ingest", "bench.startup", "bench.query", "bench.quality", "bench.translation"]

pytestmark = pytest.mark.skipif(not (DATA / "scifact" / "corpus.jsonl").exists(),
                                reason="benchmark data (../shared/data) not present")


@pytest.mark.parametrize("module", SCRIPTS)
def test_bench_script_tiny_mode_prints_json_figures(module, tmp_path):
    env = dict(os.environ, DESKTOP_RAG_BENCH_CACHE=str(tmp_path), PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", module, "--tiny"], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert lines, out.stdout
    for row in lines:
        assert {"bench", "figure", "value", "unit", "target", "met"} <= set(row)
        assert row["value"] is None or isinstance(row["value"], (int, float, str))
    assert "machine" in lines[0]
