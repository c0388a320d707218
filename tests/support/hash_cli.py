"""The command line as a child process over a small library embedded with the hashing model: for tests of what a
command says and writes, not of meaning."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.support import REPO
from tests.support.openai_server import FakeOpenAIServer, run_openai_server

CLI_KEY = "sk-test-SECRET1234567890abcdefXYZ"  # the key `serve_the_cli` fixtures give the commands


def own_environment() -> dict[str, str]:
    """This process's environment without the developer's model and library settings (OPENAI_*, DESKTOP_RAG_* but
    the tests' own DESKTOP_RAG_TEST_* and the embedding runtime tests/conftest.py chooses): taken at import, before
    conftest clears them per test, so a shell's key or library would otherwise reach every child (an answer test
    calling api.openai.com)."""
    return {name: value for name, value in os.environ.items()
            if not name.startswith(("OPENAI_", "DESKTOP_RAG_")) or name.startswith(_KEPT)}


_KEPT = ("DESKTOP_RAG_TEST_", "DESKTOP_RAG_EMBED_RUNTIME")  # the test run's own choices


def environment(lang: str | None = None, base: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """`base` (this process's environment now unless given) without the locale (LANG, LC_*: the developer's shell
    would otherwise choose a child's language and encoding), then LANG=`lang` if given, then `extra`."""
    kept = {name: value for name, value in (os.environ if base is None else base).items()
            if name != "LANG" and not name.startswith("LC_")}
    return kept | ({"LANG": lang} if lang else {}) | extra


def use_locale(monkeypatch, lang: str, env: MutableMapping[str, str] = os.environ) -> None:
    """`env` (this process's environment unless given: `ENV` for `run_cli`) in the locale `lang` for the test's
    length: LANG=`lang`, no LC_* to win over it."""
    for name in [name for name in env if name.startswith("LC_")]:
        monkeypatch.delitem(env, name)
    monkeypatch.setitem(env, "LANG", lang)


ENV = {**own_environment(), "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64", "PYTHONPATH": str(REPO)}


def indexed_home(root: Path, documents: dict[str, str], home: str = "home") -> Path:
    """`root / home`: a library of `documents` (file name -> text, written to `root / "docs"`), indexed."""
    (root / "docs").mkdir()
    for name, text in documents.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(root / home), Settings(embedding_model="hash:64"))
    try:
        engine.index([root / "docs"])
    finally:
        engine.close()
    return root / home


def run_cli(home: Path, *args: str | bytes, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            prefix: Sequence[str] = (), check: bool = False) -> subprocess.CompletedProcess:
    """`desktop-rag --data-dir HOME ARGS...`, its stderr and stdout (unless given elsewhere) as text;
    `prefix`: a command it runs under (setpriv); `check`: a non-zero exit status raises."""
    return subprocess.run([*prefix, sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args], cwd=REPO,
                          env=ENV, stdout=stdout, stderr=stderr, text=True, timeout=300, check=check)


def use_model(monkeypatch, base_url: str, key: str) -> None:
    """The commands run by `run_cli` (for the test's length) call the model server at `base_url` with `key`."""
    for name, value in (("OPENAI_API_KEY", key), ("OPENAI_BASE_URL", base_url), ("OPENAI_MODEL", "fake-model")):
        monkeypatch.setitem(ENV, name, value)


def serve_the_cli(monkeypatch, key: str) -> Iterator[FakeOpenAIServer]:
    """A fixture's body: a local model server the commands run by `run_cli` call with `key` (stopped afterwards)."""
    with run_openai_server() as server:
        use_model(monkeypatch, server.base_url, key)
        yield server
