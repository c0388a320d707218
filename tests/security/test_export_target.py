"""Accident: `desktop-rag export` given the name of a file that is not an archive. The archive replaced whatever was
there: a document mistyped for the archive's name was lost, and a device or a pipe was replaced by a regular file
(`export /dev/full` run as root removed the device). Now only a new file or an archive made by `export` is written,
unless the user chose to replace the file (the app's save dialog asks first)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from desktop_rag.config import resolve_paths
from desktop_rag.engine import Engine, UsageError
from tests.support.hash_cli import indexed_home, run_cli


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return indexed_home(tmp_path_factory.mktemp("export-target"), {"tea.txt": "Green tea is brewed at 80 degrees.\n"})


def _export(home: Path, target: Path) -> subprocess.CompletedProcess:
    return run_cli(home, "export", str(target))


def test_a_file_that_is_not_an_archive_is_kept(home: Path, tmp_path: Path):
    report = tmp_path / "report.docx"
    report.write_bytes(b"PK\x03\x04 the user's report")
    run = _export(home, report)
    assert run.returncode == 1 and "already exists and is not a collection archive" in run.stderr, run.stderr
    assert report.read_bytes() == b"PK\x03\x04 the user's report" and list(tmp_path.iterdir()) == [report]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_pipe_is_not_replaced_by_a_file(home: Path, tmp_path: Path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    run = _export(home, pipe)
    assert run.returncode == 1 and "is not a regular file" in run.stderr, run.stderr
    assert pipe.is_fifo()


def test_an_archive_is_exported_again_over_itself(home: Path, tmp_path: Path):
    archive = tmp_path / "tea.zip"
    assert _export(home, archive).returncode == 0
    again = _export(home, archive)
    assert again.returncode == 0 and again.stdout.startswith("Exported “Default”: 1 file"), again.stderr


def test_a_file_the_user_chose_to_replace_is_replaced(home: Path, tmp_path: Path):
    chosen = tmp_path / "old.txt"
    chosen.write_text("replace me", encoding="utf-8")
    engine = Engine(resolve_paths(home))
    try:
        with pytest.raises(UsageError, match="already exists"):
            engine.export_collection(engine.collection_id("Default"), chosen)
        engine.export_collection(engine.collection_id("Default"), chosen, replace=True)  # the save dialog asked
    finally:
        engine.close()
    assert chosen.read_bytes().startswith(b"PK")
