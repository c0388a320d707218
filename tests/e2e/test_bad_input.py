"""Every kind of bad file fails alone with its own readable reason; the good files of the same run are indexed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.parsing import SafeParser
from tests.support import DATA


# file name -> words its error must contain (each reason is specific to its failure)
EXPECTED = {
    "binary.txt": "binary data",
    "broken.pdf": "damaged",
    "corrupt.docx": "damaged",
    "empty.txt": "empty",
    "encrypted.pdf": "password-protected",
    "garbage.pdf": "not a PDF",
    "old_word.docx": "old .doc",
    "scanned.pdf": "no text layer",
    "truncated.pdf": "incomplete",
    "whitespace.txt": "no text",
    "zip_bomb.docx": "zip bomb",
    "huge.txt": "larger than the limit",
}


def cli(home: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, timeout=600, env=env)


def test_bad_files_fail_alone_with_clear_reasons(tmp_path):
    folder, home = tmp_path / "mixed", tmp_path / "home"
    shutil.copytree(DATA / "bad", folder)
    for good in (DATA / "good").iterdir():
        shutil.copy(good, folder / good.name)
    (folder / "huge.txt").write_text("big text. " * 12000, encoding="utf-8")  # 120 kB, over the 0.1 MB limit
    config = resolve_paths(home).ensure()
    config.settings_file.write_text(json.dumps({"max_file_mb": 0.1}), encoding="utf-8")

    out = cli(home, "index", str(folder), "--json")
    assert out.returncode == 1, "a run where any file failed returns 1"
    report = json.loads(out.stdout)
    assert report["added"] == len(list((DATA / "good").iterdir()))

    status = json.loads(cli(home, "status", "--json").stdout)
    reasons = {Path(f["path"]).name: f["error"] for f in status["failed_files"]}
    assert set(reasons) == set(EXPECTED)
    for name, words in EXPECTED.items():
        assert words.lower() in reasons[name].lower(), (name, reasons[name])
    assert len(set(reasons.values())) >= len(EXPECTED) - 2, "reasons should be specific, not one generic text"
    assert status["files"]["indexed"] == report["added"] and status["chunks_pending_embedding"] == 0

    search = json.loads(cli(home, "search", "中文", "-k", "3", "--json").stdout)
    assert any(Path(h["path"]).name == "chinese_gbk.txt" for h in search["hits"])


def test_file_changed_while_read_is_marked_and_retried(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    doc = folder / "moving.txt"
    doc.write_text("first version of the text", encoding="utf-8")
    real_parse = SafeParser.parse

    def parse_while_someone_saves(self, path, **kwargs):
        parsed = real_parse(self, path, **kwargs)
        Path(path).write_text("second version, saved during the read", encoding="utf-8")
        os.utime(path, ns=(10**18, 10**18))
        return parsed

    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    monkeypatch.setattr(SafeParser, "parse", parse_while_someone_saves)
    report = engine.index([folder])
    assert [str(f.error) for f in report.failed] == [
        "The file changed while it was being read; it will be read again on the next scan"]
    monkeypatch.setattr(SafeParser, "parse", real_parse)
    report = engine.index()
    assert report.updated == 1 and not report.failed
    assert "second version" in engine.search("second version", 1)[0].text
    engine.close()


@pytest.mark.parametrize("name", ["report.pdf", "manual.docx"])
def test_parser_time_budget_applies_to_the_run(tmp_path, name):
    """A parse that exceeds the budget fails that file only (the child is killed and replaced)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(DATA / "good" / name, folder / name)
    (folder / "ok.txt").write_text("plain text that parses at once", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", parse_timeout_s=0.001))
    report = engine.index([folder])
    failed = {Path(f.path).name: str(f.error) for f in report.failed}
    assert set(failed) == {name} and "longer than" in failed[name]
    assert report.added == 1 and engine.status().files_indexed == 1  # ok.txt: the budget failed only the slow one
    engine.close()
