"""A file name that is not valid UTF-8 (possible on Linux) fails alone with its own reason; the run goes on.

Through the real CLI in a child process. Bookkeeping, not semantics: the deterministic hashing embedder
(`hash:64`) keeps it fast.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from tests.support.hash_cli import run_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Windows names are UTF-16; no such bytes exist")


def test_undecodable_file_name_fails_alone_and_good_file_is_indexed(tmp_path):
    folder, home = tmp_path / "docs", tmp_path / "home"
    folder.mkdir()
    (folder / "good.txt").write_text("The quarterly zeppelin report is ready.", encoding="utf-8")
    raw = os.fsencode(folder)
    with open(raw + b"/bad\xff.txt", "wb") as f:  # invalid UTF-8 in the name
        f.write(b"Text behind a broken name.")
    os.mkdir(raw + b"/sub\xfe")  # a folder with a broken name: the file inside fails alone too
    with open(raw + b"/sub\xfe/inner.txt", "wb") as f:
        f.write(b"Text in a folder with a broken name.")

    out = run_cli(home, "index", str(folder), "--json")
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 1, "a run where a file failed returns 1"
    report = json.loads(out.stdout)
    assert report["added"] == 1
    failed = {f["path"]: f["error"] for f in report["failed"]}
    assert set(failed) == {f"{folder}/bad\\xff.txt", f"{folder}/sub\\xfe/inner.txt"}, failed
    for error in failed.values():
        assert "not valid text (UTF-8)" in error and "rename" in error

    status = json.loads(run_cli(home, "status", "--json").stdout)
    assert status["files"]["indexed"] == 1 and status["files"]["failed"] == 2
    hits = json.loads(run_cli(home, "search", "zeppelin", "--json").stdout)["hits"]
    assert hits and hits[0]["path"] == str(folder / "good.txt")

    again = run_cli(home, "index", "--json")  # a re-scan settles the failed names as unchanged, without a crash
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["unchanged"] == 3


def test_a_source_with_an_undecodable_name_is_refused_with_a_message(tmp_path):
    folder = os.fsencode(tmp_path) + b"/docs\xff"
    os.mkdir(folder)
    with open(folder + b"/a.txt", "wb") as f:
        f.write(b"Some text.")
    out = run_cli(tmp_path / "home", "index", folder)
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 1
    assert "not valid text (UTF-8)" in out.stderr and "rename" in out.stderr
