"""`python -m desktop_rag --self-test` in a child process: index the bundled samples, search, answer, OCR; exit 0."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.slow
def test_self_test_passes(tmp_path):
    env = {**os.environ, "DESKTOP_RAG_HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    run = subprocess.run([sys.executable, "-m", "desktop_rag", "--self-test"], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=600)
    output = run.stdout[-3000:] + run.stderr[-3000:]
    assert run.returncode == 0, output
    assert "Self-test passed." in run.stdout and "SELF-TEST FAILED" not in run.stdout, output
    assert "Scanned page: scanned-library-notice.png read by OCR" in run.stdout, output  # the OCR check ran
