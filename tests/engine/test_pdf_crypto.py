"""Encrypted PDFs (issue 11): AES-128 (R4) and AES-256 (R5, R6) with an empty user password are indexed;
a PDF with a user password fails with a reason that says how, and opens with `--password` / Engine.set_password."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.loaders.pdf import needs_password
from tests.support.scans import encrypted_pdf, text_pdf_bytes

# These tests are about opening files, not semantics: the deterministic hash embedder keeps them fast.
HASH = Settings(embedding_model="hash:64")
SECRET = "Secret launch plan for the orbital greenhouse"
LOCKED = "Locked memo about the winter harvest of kohlrabi"
PASSWORD = "hunter2-密码"


@pytest.mark.parametrize("algorithm", ["AES-128", "AES-256-R5", "AES-256", "RC4-128"])
def test_empty_user_password_pdfs_are_indexed_and_searchable(tmp_path: Path, algorithm: str) -> None:
    (tmp_path / "docs").mkdir()
    pdf = encrypted_pdf(text_pdf_bytes([SECRET + "."]), tmp_path / "docs" / f"{algorithm}.pdf", algorithm)
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    try:
        report = engine.index([pdf])
        assert report.failed == () and report.added == 1, report.failed
        hits = engine.search("orbital greenhouse launch plan", 3)
        assert hits and hits[0].path == str(pdf) and hits[0].page == 1 and SECRET in hits[0].text
    finally:
        engine.close()


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, timeout=600)


def _locked_library(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    resolve_paths(home).ensure().settings_file.write_text(json.dumps({"embedding_model": "hash:64"}))
    docs = tmp_path / "docs"
    docs.mkdir()
    pdf = encrypted_pdf(text_pdf_bytes([LOCKED + "."]), docs / "locked memo.pdf", "AES-256", user_password=PASSWORD)
    return home, pdf


def test_cli_reason_says_how_and_password_opens_it(tmp_path: Path) -> None:
    home, pdf = _locked_library(tmp_path)
    first = _cli(home, "index", str(pdf.parent), "--json")
    assert first.returncode == 1, first.stderr
    (failure,) = json.loads(first.stdout)["failed"]
    assert failure["path"] == str(pdf) and failure["code"] == "pdf_password"
    assert "--password" in failure["error"] and "the app asks for the password" in failure["error"]

    wrong = _cli(home, "index", str(pdf.parent), "--password", "not-it", "--json")
    (failure,) = json.loads(wrong.stdout)["failed"]
    assert "not accepted" in failure["error"] and failure["code"] == "pdf_wrong_password"

    right = _cli(home, "index", str(pdf.parent), "--password", PASSWORD, "--json")
    assert right.returncode == 0, right.stdout + right.stderr
    assert json.loads(right.stdout)["updated"] == 1
    found = json.loads(_cli(home, "search", "winter harvest kohlrabi", "--json").stdout)["hits"]
    assert found and found[0]["path"] == str(pdf) and LOCKED in found[0]["text"]
    # the password is never stored: not in the library, the settings or the logs
    for path in home.rglob("*"):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes(), path


def test_engine_password_is_per_file_and_in_memory_only(tmp_path: Path) -> None:
    home, pdf = _locked_library(tmp_path)
    engine = Engine(resolve_paths(home), HASH)
    try:
        report = engine.index([pdf.parent])
        assert [needs_password(f.error) for f in report.failed] == [True]
        assert engine.locked_files() == [str(pdf)] and engine.locked_files([tmp_path / "elsewhere"]) == []
        engine.set_password(PASSWORD, pdf)
        again = engine.index(force=engine.locked_files())
        assert again.failed == () and again.updated == 1
        assert engine.search("kohlrabi", 1)[0].path == str(pdf)
    finally:
        engine.close()
    reopened = Engine(resolve_paths(home), HASH)
    try:
        assert reopened.runtime.parser().passwords == {} and reopened.runtime.parser().password == ""
    finally:
        reopened.close()
