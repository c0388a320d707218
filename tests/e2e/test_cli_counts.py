"""`desktop-rag index`, `collections`, `export` and `import` say "1 source, 1 file, 1 chunk, 1 vector", not "1 sources,
1 files, 1 chunks, 1 vectors"; `index` says what vector reuse saved and which links it skipped."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.support.hash_cli import ENV, run_cli
from tests.support.kept_vectors import CHANGED, NEW_TEXT, PARAGRAPHS, write


def _cli(home: Path, *args: str) -> str:
    """`run_cli`'s output, its exit status 0."""
    run = run_cli(home, *args)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def test_one_of_each_is_singular_and_more_is_plural(tmp_path: Path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "note.txt").write_text("A single short note about the harbour ferry.\n", encoding="utf-8")
    for name in ("a.txt", "b.txt"):
        (two / name).write_text(f"Note {name}: the mountain railway timetable.\n", encoding="utf-8")
    home = tmp_path / "home"
    indexed = _cli(home, "index", str(one))
    assert "0 failed; 1 new chunk, 1 embedded in " in indexed
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64"))
    try:
        engine.index([two], collection=engine.create_collection("Two"))
    finally:
        engine.close()

    listing = _cli(home, "collections").splitlines()
    assert listing == ["Default: 1 source, 1 file, 1 chunk", "Two: 1 source, 2 files, 2 chunks"]
    exported = _cli(home, "export", str(tmp_path / "default.zip"), "--collection", "Default")
    assert exported.startswith("Exported “Default”: 1 file, 1 chunk, 1 vector, 0 documents -> ")
    imported = _cli(tmp_path / "other", "import", str(tmp_path / "default.zip"), "--name", "Again")
    assert imported.startswith("Imported “Again”: 1 file, 1 chunk, 1 vector used as stored.")


def test_an_edited_file_says_how_many_passages_kept_their_vectors(tmp_path: Path, monkeypatch):
    """Only the edited paragraph is embedded again; the summary says how many passages kept their vectors (and
    `--json` as "kept"); a run that kept none does not mention it."""
    folder, home = tmp_path / "docs", tmp_path / "home"
    folder.mkdir()
    monkeypatch.setitem(ENV, "DESKTOP_RAG_CHUNK_SIZE", "400")  # a paragraph a chunk
    monkeypatch.setitem(ENV, "DESKTOP_RAG_CHUNK_OVERLAP", "0")
    edited = list(PARAGRAPHS)
    write(folder / "notes.md", edited)
    first = _cli(home, "index", str(folder))
    assert "0 failed; 12 new chunks, 12 embedded in " in first and "kept" not in first
    edited[CHANGED] = NEW_TEXT
    write(folder / "notes.md", edited)
    assert "; 12 new chunks, 1 embedded, 11 kept their vectors in " in _cli(home, "index")
    edited[0] = PARAGRAPHS[CHANGED]
    write(folder / "notes.md", edited)
    report = json.loads(_cli(home, "index", "--json"))
    assert (report["embedded"], report["kept"]) == (1, 11)


def test_a_link_leading_outside_is_named_cleanly(tmp_path: Path):
    """`index` says which links it skipped as leading outside the source, and why; a name's control characters
    are marked (clean_line), never written raw; `--json` lists them with the reason's code."""
    folder, outside, home = tmp_path / "docs", tmp_path / "outside", tmp_path / "home"
    folder.mkdir(), outside.mkdir()
    (folder / "note.txt").write_text("A single short note about the harbour ferry.\n", encoding="utf-8")
    (folder / "photos\x1b[2J").symlink_to(outside, target_is_directory=True)
    said = _cli(home, "index", str(folder))
    assert "\x1b" not in said
    assert said.splitlines()[1:] == ["1 link to outside the chosen folders skipped: links are not followed",
                                     f"  link: {folder}/photos\ufffd"]  # the sequence marked
    report = json.loads(_cli(home, "index", "--json"))
    assert report["links"] == [{"path": f"{folder}/photos\x1b[2J", "reason": report["links"][0]["reason"],
                                "code": "link_outside"}]
