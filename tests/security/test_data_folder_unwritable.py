"""Attack (or accident): the data folder cannot be written: a library on a read-only disk or in another user's
folder, or `--data-dir` naming a file. Every command ended with a traceback ("sqlite3.OperationalError: unable to
open database file", "OSError: [Errno 30] Read-only file system", "FileExistsError"), and the MCP server's tools
said the library was "not a Desktop RAG library". Now each says the folder cannot be written, and why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.support.hash_cli import run_cli
from tests.support.mcp_raw import RawClient
from tests.support.read_only import read_only_folder


@pytest.fixture
def read_only_library(tmp_path: Path) -> Iterator[Path]:
    """An indexed library whose folder this user cannot write: a read-only bind mount as root (who writes any
    folder whatever its mode), else the folder's mode."""
    home, docs = tmp_path / "home", tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text("Green tea is brewed at 80 degrees.\n", encoding="utf-8")
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64"))
    try:
        engine.index([docs])
    finally:
        engine.close()
    with read_only_folder(home) as folder:
        yield folder


@pytest.mark.parametrize("args", [("status",), ("search", "green tea"), ("index",), ("collections", "create", "X")])
def test_a_read_only_library_gets_a_clear_error_not_a_traceback(read_only_library: Path, args: tuple[str, ...]):
    run = run_cli(read_only_library, *args)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith(f"error: The data folder {read_only_library} cannot be written ("), run.stderr


def test_the_mcp_server_says_so_too(read_only_library: Path):
    raw = RawClient(read_only_library)
    raw.handshake()
    raw.request(1, "tools/call", {"name": "search", "arguments": {"query": "green tea"}})
    result = raw.answer()["result"]
    said = result["content"][0]["text"]
    assert result["isError"] and f"The data folder {read_only_library} cannot be written (" in said, said
    assert raw.close() == (0, "")


@pytest.mark.parametrize("where", ["file", "below a file"])
@pytest.mark.parametrize("args", [("status",), ()])  # () starts the window
def test_a_data_dir_that_is_a_file_gets_a_clear_error(tmp_path: Path, where: str, args: tuple[str, ...]):
    afile = tmp_path / "notes.txt"
    afile.write_text("not a folder", encoding="utf-8")
    home = afile if where == "file" else afile / "library"
    run = run_cli(home, *args)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith(f"error: The data folder {home} cannot be written ("), run.stderr
