"""Skipped files are reported (issue 37 item 4): a folder scan counts the files it skipped as not supported by
suffix; the index report and `status` carry the counts and say "3 skipped: 2 .key, 1 .pages, not supported" in
English and Chinese. The hashing embedder: these tests are about counting, not meaning."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.scanning import LINK_OUTSIDE, NO_SUFFIX, UNSUPPORTED, SkippedPath, skipped_types
from desktop_rag.engine.messages import skipped_links, skipped_summary

FAST = Settings(embedding_model="hash:64")


def test_counts_by_suffix_most_first_links_apart():
    skipped = [SkippedPath("/d/a.key", UNSUPPORTED), SkippedPath("/d/b.KEY", UNSUPPORTED),
               SkippedPath("/d/c.pages", UNSUPPORTED), SkippedPath("/d/README", UNSUPPORTED),
               SkippedPath("/d/out.pdf", LINK_OUTSIDE)]
    assert skipped_types(skipped) == {".key": 2, NO_SUFFIX: 1, ".pages": 1}


def test_the_summary_in_both_languages():
    counts = ((".key", 8), (".pages", 4))
    assert skipped_summary(counts) == "12 skipped: 8 .key, 4 .pages, not supported"
    assert skipped_summary(counts, "zh") == "跳过 12 个文件：8 个 .key、4 个 .pages，不支持这些类型"
    many = tuple((f".x{i}", 1) for i in range(7))
    assert skipped_summary(many).endswith(", 1 .x4, 2 other, not supported")
    assert skipped_summary(()) == ""


def test_index_report_and_status_carry_the_counts(tmp_path: Path):
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "notes.md").write_text("# Notes\n\nThe harbour opens in May.\n", "utf-8")
    for name in ("a.key", "sub/b.key", "c.pages"):
        (docs / name).write_bytes(b"PK\x03\x04")
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        report = engine.index([docs])
        assert report.added == 1 and report.skipped == ((".key", 2), (".pages", 1))
        assert report.to_json()["skipped"] == {".key": 2, ".pages": 1}
        status = engine.status()
        assert status.skipped == ((".key", 2), (".pages", 1)) and status.to_json()["skipped"] == {".key": 2, ".pages": 1}
        (docs / "c.pages").unlink()  # the next scan replaces the counts
        engine.index([docs])
        assert engine.status().skipped == ((".key", 2),)
    finally:
        engine.close()
    reader = Engine(resolve_paths(tmp_path / "home"), FAST, read_only=True)
    try:
        assert reader.status().skipped == ((".key", 2),)  # kept in the library, read by another process
    finally:
        reader.close()


def test_the_report_empties_when_every_unsupported_file_is_gone(tmp_path: Path):
    """The last scan found nothing to skip: `status` and the index report say nothing was skipped, not what an
    earlier scan skipped."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text("# Notes\n\nThe harbour opens in May.\n", "utf-8")
    for name in ("a.key", "b.pages"):
        (docs / name).write_bytes(b"PK\x03\x04")
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        assert engine.index([docs]).skipped == ((".key", 1), (".pages", 1))
        for name in ("a.key", "b.pages"):
            (docs / name).unlink()
        report = engine.index([docs])
        assert report.skipped == () and report.to_json()["skipped"] == {}
        assert engine.status().skipped == () and engine.status().to_json()["skipped"] == {}
    finally:
        engine.close()


def test_the_index_report_adds_up_the_skipped_files_of_every_source(tmp_path: Path):
    """Two folders, one unsupported file in each: the report counts both, and so does `status`."""
    folders = [tmp_path / "one", tmp_path / "two"]
    for folder in folders:
        folder.mkdir()
        (folder / "notes.md").write_text("# Notes\n\nThe harbour opens in May.\n", "utf-8")
        (folder / "slides.key").write_bytes(b"PK\x03\x04")
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        assert engine.index(folders).skipped == ((".key", 2),)
        assert engine.status().skipped == ((".key", 2),)
    finally:
        engine.close()


def test_the_index_report_lists_the_links_leading_outside_a_source(tmp_path: Path):
    """A link inside a source to a folder or file outside it is skipped and listed with its reason (the CLI says
    it); a link to something inside the source is passed over quietly, its target indexed under its own path."""
    docs, outside = tmp_path / "docs", tmp_path / "outside"
    docs.mkdir(), outside.mkdir()
    (docs / "notes.md").write_text("# Notes\n\nThe harbour opens in May.\n", "utf-8")
    (outside / "far.md").write_text("# Far\n\nThe lighthouse keeper retires.\n", "utf-8")
    (docs / "linked").symlink_to(outside, target_is_directory=True)
    (docs / "far.md").symlink_to(outside / "far.md")
    (docs / "again.md").symlink_to(docs / "notes.md")
    engine = Engine(resolve_paths(tmp_path / "home"), FAST)
    try:
        report = engine.index([docs])
        assert report.added == 1 and report.skipped == ()
        assert sorted(f.path for f in report.links) == [str(docs / "far.md"), str(docs / "linked")]
        assert report.to_json()["links"][0] == {"path": str(docs / "far.md"), "reason": str(LINK_OUTSIDE),
                                                "code": "link_outside"}
        assert skipped_links(len(report.links)) == (
            "2 links to outside the chosen folders skipped: links are not followed")
        assert skipped_links(1, "zh") == "跳过 1 个链接（指向所选文件夹之外）：链接不会被跟随"
        assert skipped_links(0) == "" and engine.index().links == report.links  # every run says it again
    finally:
        engine.close()
