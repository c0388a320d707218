"""The CLI contract (docs/ARCHITECTURE.md section 10) with the real bundled embedding model (the big library on the
app's default fast runtime, its files built once per run: tests/support/fast_models.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.fast_models import fast_env, link_fast_models
from tests.support.probes import NO_TORCH_PROBE



def cli(*args: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, "-m", "desktop_rag", *args], capture_output=True, text=True, timeout=600,
                         env=env)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def cli_in_probe(*args: str, env: dict[str, str] | None = None) -> dict:
    """Run the CLI in a fresh interpreter and say whether torch or ONNX Runtime got imported."""
    out = subprocess.run([sys.executable, "-c", NO_TORCH_PROBE, *args], capture_output=True, text=True, timeout=600,
                         env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def big_library(tmp_path_factory, converted_home):
    """Two thousand small files indexed once with the real model (on the fast runtime: its commands run as the app's
    default ones, without importing torch)."""
    root = tmp_path_factory.mktemp("big")
    folder, home = root / "docs", link_fast_models(converted_home, root / "home")
    folder.mkdir()
    for i in range(2000):
        sub = folder / f"part{i // 500}"
        sub.mkdir(exist_ok=True)
        (sub / f"note{i:04d}.txt").write_text(f"Note {i}: the meeting about project {i} moved to room {i % 97}.",
                                              encoding="utf-8")
    report = json.loads(cli("--data-dir", str(home), "index", str(folder), "--json", env=fast_env()).stdout)
    assert report["added"] == 2000 and report["embedded"] == report["chunks"] >= 2000
    return folder, home


def test_rescan_of_thousands_of_unchanged_files_loads_no_model(big_library):
    folder, home = big_library
    probe = cli_in_probe("--data-dir", str(home), "index", "--json", env=fast_env())
    report = json.loads(probe["out"])
    assert probe["rc"] == 0
    assert (report["unchanged"], report["added"], report["updated"], report["embedded"]) == (2000, 0, 0, 0)
    assert probe["torch"] is False and probe["onnxruntime"] is False, \
        "an unchanged re-scan must not load the embedding model"

    target = folder / "part1" / "note0600.txt"
    target.write_text("Note 600: the budget review is about the zeppelin hangar.", encoding="utf-8")
    report = json.loads(cli("--data-dir", str(home), "index", "--json", env=fast_env()).stdout)
    assert (report["updated"], report["unchanged"], report["embedded"]) == (1, 1999, 1)

    hits = json.loads(cli("--data-dir", str(home), "search", "zeppelin hangar budget", "-k", "3", "--json",
                          env=fast_env()).stdout)
    assert hits["hits"][0]["path"] == str(target)
    assert set(hits["hits"][0]) >= {"rank", "chunk_id", "score", "path", "page", "heading", "text"}


def test_status_json_shape_and_search_batch(big_library, tmp_path):
    folder, home = big_library
    status = json.loads(cli("--data-dir", str(home), "status", "--json", env=fast_env()).stdout)
    assert status["files"] == {"total": 2000, "indexed": 2000, "failed": 0, "pending": 0, "attachments": 0}
    assert status["embedding_model"] == "bundled:all-MiniLM-L6-v2" and status["dimension"] == 384
    assert status["chunks_pending_embedding"] == 0 and status["failed_files"] == []

    queries = tmp_path / "q.jsonl"
    queries.write_text('{"_id": "a", "text": "project 17 meeting"}\n{"_id": "b", "text": "room 42"}\n',
                       encoding="utf-8")
    lines = [json.loads(x) for x in cli("--data-dir", str(home), "search", "--queries", str(queries), "-k", "5",
                                        env=fast_env()).stdout.splitlines()]
    assert [x["_id"] for x in lines] == ["a", "b"] and all(len(x["hits"]) == 5 for x in lines)
    assert lines[0]["hits"][0]["path"].endswith("note0017.txt")


def test_usage_errors_exit_2_and_failures_exit_1(tmp_path):
    assert cli("search", check=False).returncode == 2
    assert cli("frobnicate", check=False).returncode == 2
    out = cli("--data-dir", str(tmp_path / "h"), "index", str(tmp_path / "nope"), check=False)
    assert out.returncode == 1 and "No such file or folder" in out.stderr
    out = cli("--data-dir", str(tmp_path / "h"), "remove", str(tmp_path), check=False)
    assert out.returncode == 1 and "not a source" in out.stderr
    queries = tmp_path / "bad.jsonl"
    queries.write_text("not json\n", encoding="utf-8")
    out = cli("--data-dir", str(tmp_path / "h"), "search", "--queries", str(queries), check=False)
    assert out.returncode == 1 and "bad.jsonl, line 1: not JSON" in out.stderr


def test_a_number_of_results_out_of_range_is_a_usage_error(tmp_path):
    """-k -5 returned all but the last five passages, -k 0 the default, a 24-digit -k an OverflowError traceback."""
    for k in ("0", "-5", "10001", "99999999999999999999999"):
        out = cli("--data-dir", str(tmp_path / "h"), "search", "otters", "-k", k, check=False)
        assert out.returncode == 2 and "argument -k" in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_a_queries_line_too_long_is_refused_before_it_is_read_whole(tmp_path):
    """`search --queries` and `context --queries` read a line at a time, at most 100,000 characters of it."""
    queries = tmp_path / "long.jsonl"
    queries.write_text('{"_id": "1", "text": "otters"}\n{"_id": "2", "text": "' + "x" * 300_000 + '"}\n',
                       encoding="utf-8")
    for command in ("search", "context"):
        out = cli("--data-dir", str(tmp_path / "h"), command, "--queries", str(queries), check=False)
        assert out.returncode == 1 and "long.jsonl, line 2: line too long" in out.stderr, out.stderr


def test_data_dir_from_environment(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("# Title\n\nSome words about otters.\n", encoding="utf-8")
    # the folder is what this is about, not the model: the hashing one (no model to load)
    env = dict(os.environ, DESKTOP_RAG_HOME=str(tmp_path / "家"), DESKTOP_RAG_EMBEDDING_MODEL="hash:64")
    out = subprocess.run([sys.executable, "-m", "desktop_rag", "index", str(doc), "--json"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "家" / "library.sqlite3").exists()


def test_index_and_status_say_how_many_e_mail_attachments_became_documents(tmp_path, monkeypatch, fast_models_home):
    """`index` and `status` (text and --json) count the attachments read as documents of their own; `search`
    cites one by its path below the message, with its PDF page."""
    from tests.support.doc_files import write_eml

    docs = tmp_path / "docs"
    docs.mkdir()
    mail = write_eml(docs / "sample.eml")
    monkeypatch.setenv("DESKTOP_RAG_HOME", str(fast_models_home))
    out = cli("index", str(docs))
    assert "1 added" in out.stdout and "2 e-mail attachments read as documents of their own" in out.stdout
    status = json.loads(cli("status", "--json").stdout)
    assert status["files"] == {"total": 3, "indexed": 3, "failed": 0, "pending": 0, "attachments": 2}
    assert "Files: 3 total (2 of them e-mail attachments)" in cli("status").stdout
    hits = json.loads(cli("search", "Which gate does the hotel shuttle leave from?", "--json").stdout)
    top = hits["hits"][0]
    assert top["path"] == os.path.join(str(mail), "2", "shuttle.pdf") and top["page"] == 2


def test_a_first_index_prints_no_model_export_chatter(tmp_path, monkeypatch):
    """The first run exports the bundled model for the fast runtime: transformers' progress bar, its load report in
    terminal colour codes and torch's tracer warnings are not a person's business (nor raw escapes on a terminal)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    monkeypatch.setenv("DESKTOP_RAG_EMBED_RUNTIME", "auto")  # the app's own default: the fast runtime
    out = cli("--data-dir", str(tmp_path / "home"), "index", str(docs))
    assert (tmp_path / "home" / "models" / ".onnx").is_dir(), "the model was not exported in this run"
    assert "1 added" in out.stdout
    assert "\x1b" not in out.stderr and "Warning" not in out.stderr and "Loading weights" not in out.stderr, out.stderr
