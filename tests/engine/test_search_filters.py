"""Search within a folder or a file type: keyword and dense (exact and IVF) both respect the restriction, it
combines with collections, and a folder or type the library lacks is a clear UsageError.

The hashing embedder (hash:64) is used: these tests are about which passages a search may return, not about
meaning; shared words make every document a dense and keyword candidate for every query.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.answer.events import SourcesEvent
from desktop_rag.engine.store.sqlite import filters as rs
from desktop_rag.engine.store.sqlite.keyword_index import search as keyword_search

FAST = Settings(embedding_model="hash:64")
QUERIES = ["solar energy storage", "battery chemistry", "energy", "plants store energy in roots"]
TEXT = "Solar energy storage {n}: batteries, plants and roots store energy; chemistry of storage number {n}."

LAYOUT = {  # folder names chosen to trap a naive prefix or LIKE match: alpha vs alpha-x / alpha_x, 50%_off
    "alpha/a1.txt", "alpha/a2.md", "alpha/deep/a3.txt", "alpha-x/x1.txt", "alpha_x/x2.md",
    "beta/b1.txt", "beta/b2.md", "50%_off/c1.txt",
}


def _library(root: Path, count: int = 1) -> Path:
    for n, name in enumerate(sorted(LAYOUT)):
        for copy in range(count):
            path = root / (name if copy == 0 else name.replace(".", f"{copy}."))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"Title {n}\n\n" + TEXT.format(n=n * 1000 + copy), "utf-8")
    return root


@pytest.fixture()
def lib(tmp_path: Path):
    root = _library(tmp_path / "docs")
    engine = Engine(resolve_paths(tmp_path / "data"), FAST)
    engine.index([root])
    yield engine, root
    engine.close()


def _folders_of(hits, root: Path) -> set[str]:
    return {Path(h.path).parent.relative_to(root).as_posix() for h in hits}


def test_folder_filter_returns_only_that_folders_files_keyword_dense_and_hybrid(lib):
    engine, root = lib
    alpha = str(root / "alpha")
    for q in QUERIES:
        everywhere = _folders_of(engine.search(q, 20), root)
        assert {"alpha", "alpha-x", "alpha_x", "beta"} <= everywhere  # unrestricted: all answer
        assert _folders_of(engine.search(q, 20, folders=[alpha]), root) <= {"alpha", "alpha/deep"}
        assert {"alpha", "alpha/deep"} <= _folders_of(engine.search(q, 20, folders=[alpha]), root)
    within = engine.restriction(folders=[alpha])
    keyword = keyword_search(engine.store.db, "energy storage", 50, within)
    assert len(keyword) == 3 and _folders_of(engine.store.hits_for(keyword), root) == {"alpha", "alpha/deep"}
    embedder, vectors = engine.runtime.dense_pair()
    count, selector = rs.member_filter(engine.store, within)
    dense = vectors.search(embedder.embed_queries(["energy storage"])[0], 50, selector)
    assert count == 3 and len(dense) == 3
    assert _folders_of(engine.store.hits_for(dense), root) == {"alpha", "alpha/deep"}


def test_type_filter_and_its_combination_with_folders(lib):
    engine, root = lib
    md = engine.search("solar energy storage", 20, types=["md"])
    assert md and {Path(h.path).suffix for h in md} == {".md"}
    assert len(md) == 3
    txt_in_beta = engine.search("solar energy storage", 20, folders=[str(root / "beta")], types=["TXT"])
    assert [Path(h.path).name for h in txt_in_beta] == ["b1.txt"]
    several = engine.search("energy", 20, folders=[str(root / "beta"), str(root / "50%_off")], types=["txt"])
    assert sorted(Path(h.path).name for h in several) == ["b1.txt", "c1.txt"]
    assert engine.search("energy", 20, types=["pdf"]) == []  # a known type with no files: simply nothing


def test_folder_names_are_plain_text_not_patterns(lib):
    engine, root = lib
    percent = engine.search("energy", 20, folders=[str(root / "50%_off")])
    assert [Path(h.path).name for h in percent] == ["c1.txt"]
    assert _folders_of(engine.search("energy", 20, folders=[str(root / "alpha-x")]), root) == {"alpha-x"}
    with pytest.raises(UsageError, match="Nothing in the library is in the folder"):
        engine.search("energy", 5, folders=[str(root / "alph")])  # a name prefix is not a folder


def test_unknown_folder_or_type_is_a_clear_usage_error(lib, tmp_path):
    engine, root = lib
    with pytest.raises(UsageError, match=r"Nothing in the library is in the folder .*library's folders are: “.*docs”"):
        engine.search("energy", 5, folders=[str(tmp_path / "elsewhere")])
    with pytest.raises(UsageError, match="Unknown file type “exe”: choose one of pdf, docx, pptx, xlsx, csv, html, epub, email, odt, rtf, doc, ppt, xls, md, txt, image"):
        engine.search("energy", 5, types=["exe"])
    with pytest.raises(UsageError, match="empty folder"):
        engine.search("energy", 5, folders=[" "])
    with pytest.raises(UsageError, match="Nothing in the library"):
        list(engine.ask("energy?", folders=[str(tmp_path / "elsewhere")]))  # before any event
    events = list(engine.ask("Where is solar energy stored?", folders=[str(root / "beta")]))
    hits = next(e for e in events if isinstance(e, SourcesEvent)).hits
    assert hits and _folders_of(hits, root) == {"beta"}


def test_restriction_combines_with_a_collection(tmp_path):
    root = _library(tmp_path / "docs")
    other = tmp_path / "other"
    (other / "alpha").mkdir(parents=True)
    (other / "alpha" / "o.md").write_text("Other\n\n" + TEXT.format(n=99), "utf-8")
    engine = Engine(resolve_paths(tmp_path / "data"), FAST)
    try:
        first = engine.collection_id("Default")
        second = engine.create_collection("Other")
        engine.index([root], collection=first)
        engine.index([other], collection=second)
        md_everywhere = {Path(h.path).name for h in engine.search("energy", 20, types=["md"])}
        assert "o.md" in md_everywhere and "a2.md" in md_everywhere
        md_in_first = {Path(h.path).name for h in engine.search("energy", 20, first, types=["md"])}
        assert md_in_first == {"a2.md", "x2.md", "b2.md"}
        assert {Path(h.path).name for h in engine.search("energy", 20, second, types=["md"])} == {"o.md"}
        assert engine.search("energy", 20, second, folders=[str(root / "beta")]) == []  # beta is in the other one
    finally:
        engine.close()


def test_a_moved_file_follows_its_new_folder_in_the_filter(lib):
    engine, root = lib
    beta = str(root / "beta")
    assert len(engine.search("energy", 20, folders=[beta])) == 2  # caches beta's selector
    (root / "alpha" / "a1.txt").rename(root / "beta" / "a1.txt")  # same content: moved, not re-embedded
    report = engine.index()
    assert report.embedded == 0
    names = sorted(Path(h.path).name for h in engine.search("energy", 20, folders=[beta]))
    assert names == ["a1.txt", "b1.txt", "b2.md"]
    within = engine.restriction(folders=[beta])
    assert rs.member_filter(engine.store, within)[0] == 3  # the dense side too, not only the keyword join
    embedder, vectors = engine.runtime.dense_pair()
    dense = vectors.search(embedder.embed_queries(["energy"])[0], 20, rs.member_filter(engine.store, within)[1])
    assert sorted(Path(h.path).name for h in engine.store.hits_for(dense)) == names


def test_filters_hold_with_the_approximate_ivf_index(tmp_path, monkeypatch):
    import desktop_rag.engine.store.sqlite.vector_index as vi

    root = _library(tmp_path / "docs", count=40)  # 320 files, one chunk each
    data = tmp_path / "data"
    engine = Engine(resolve_paths(data), FAST)
    engine.index([root])
    engine.close()
    (data / "vectors.faiss").unlink()
    monkeypatch.setattr(vi, "APPROX_THRESHOLD", 200)  # rebuilt from the store as an IVF index
    engine = Engine(resolve_paths(data), FAST)
    try:
        assert engine.runtime.vectors().approximate
        beta, md = str(root / "beta"), ["md"]
        embedder, vectors = engine.runtime.dense_pair()
        for q in QUERIES:
            query = embedder.embed_queries([q])[0]
            _, in_beta = rs.member_filter(engine.store, engine.restriction(folders=[beta]))
            found = engine.store.hits_for(vectors.search(query, 100, in_beta))
            assert found and _folders_of(found, root) == {"beta"}
            _, of_md = rs.member_filter(engine.store, engine.restriction(types=md))
            found = engine.store.hits_for(vectors.search(query, 100, of_md))
            assert found and {Path(h.path).suffix for h in found} == {".md"}
            hits = engine.search(q, 30, folders=[beta], types=md)
            assert hits and {(Path(h.path).parent.name, Path(h.path).suffix) for h in hits} == {("beta", ".md")}
    finally:
        engine.close()


def test_type_names_cover_every_supported_suffix():
    from desktop_rag.engine.file_types import SUPPORTED_SUFFIXES, TYPE_NAMES, suffixes_of

    covered = [s for name in TYPE_NAMES for s in suffixes_of(name)]
    assert all(suffixes_of(name) for name in TYPE_NAMES)
    assert sorted(covered) == sorted(SUPPORTED_SUFFIXES)


def test_hostile_folder_arguments_fail_cleanly(lib):
    engine, root = lib
    with pytest.raises(UsageError, match="not a usable folder path"):
        engine.search("energy", 5, folders=[str(root) + "/a\x00b"])
    with pytest.raises(UsageError, match="at most 32 folders"):
        engine.search("energy", 5, folders=[str(root / "alpha")] * 33)
    with pytest.raises(UsageError) as caught:
        engine.search("energy", 5, folders=[str(root / "x\x1b[2J\u202e")])
    assert "\x1b" not in str(caught.value) and "\u202e" not in str(caught.value)
