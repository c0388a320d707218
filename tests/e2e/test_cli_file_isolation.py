"""Issue 49 item 1: `desktop-rag index` goes on past a file whose storing raises: the others are indexed and reported,
the failed one is listed with its reason, the exit code is 1 and no traceback reaches the terminal.

The command runs in a child interpreter (the real `cli.main.main`) with the store's write for one path made to
raise, as `UnicodeEncodeError: surrogates not allowed` did for Tika's RTF files before the text boundary.
Bookkeeping, not semantics: the hashing embedder (DESKTOP_RAG_EMBEDDING_MODEL) keeps it fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.support.hash_cli import environment

CHILD = textwrap.dedent("""
    import sys
    from desktop_rag.cli.main import main
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store

    real = Store.replace_file_chunks

    def replace(self, source_id, path, *args, **kwargs):
        if path.endswith("poison.txt"):
            "\\ud800".encode("utf-8")  # raises UnicodeEncodeError, as SQLite's binding did
        return real(self, source_id, path, *args, **kwargs)

    Store.replace_file_chunks = replace
    sys.exit(main(sys.argv[1:]))
""")


def _index(home: Path, docs: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, "--data-dir", str(home), "index", str(docs), *extra],
                          capture_output=True, text=True, timeout=300,
                          env=environment("C.UTF-8", DESKTOP_RAG_EMBEDDING_MODEL="hash:64"))


def test_index_goes_on_past_a_file_whose_storing_raises(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("alpha", "poison", "zulu"):  # the bad file sits between good ones
        (docs / f"{name}.txt").write_text(f"The {name} note about the {name} project.", encoding="utf-8")
    out = _index(tmp_path / "home", docs, "--json")
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    report = json.loads(out.stdout)
    assert report["added"] == 2 and report["embedded"] == 2
    assert [f["path"] for f in report["failed"]] == [str(docs / "poison.txt")]
    assert report["failed"][0]["error"].startswith("This file's passages could not be stored in the library "
                                                   "(UnicodeEncodeError: 'utf-8' codec can't encode")

    human = _index(tmp_path / "home2", docs)
    assert human.returncode == 1 and "Traceback" not in human.stderr
    assert "2 added" in human.stdout and "1 failed" in human.stdout
    assert f"failed: {docs / 'poison.txt'}: This file's passages could not be stored" in human.stdout
