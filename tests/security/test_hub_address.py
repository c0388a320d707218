"""Hostile `--hub` addresses for `desktop-rag download-model`: one with a "[" in its host (an escape sequence's
"\\x1b[", a cut IPv6 address) ended with "ValueError: Invalid IPv6 URL" and a traceback; now it is refused as any
address that is not an http(s) URL, before anything is fetched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO


@pytest.mark.parametrize("hub", ["http://\x1b[31mred", "http://[::1", "file:///etc/passwd"])
def test_a_malformed_hub_address_is_refused_with_a_message(tmp_path: Path, hub: str):
    run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home"), "download-model",
                          "acme/model", "--hub", hub], cwd=REPO, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO)})
    assert run.returncode == 1 and "Traceback" not in run.stderr and "\x1b" not in run.stderr, run.stderr
    assert run.stderr.startswith("error: The hub address “") and "is not an http(s) URL" in run.stderr, run.stderr
