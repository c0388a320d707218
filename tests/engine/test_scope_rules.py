"""Where a search looks (store/scope.py, store/restriction.py): one document inside a collection (the window's "Ask
this document" in a collection's conversation), each part of a scope as SQL, the checks a scope's folders, files
and types pass, and the cached FAISS selector of a scope.

The hashing embedder (hash:64): these tests are about which passages a scope lets through, not about meaning;
shared words make every document a keyword and dense candidate for every question."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.file_types import TYPE_NAMES
from desktop_rag.engine.store import restriction as rs
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.sqlite import filters
from tests.support.scope_docs import scope_docs

QUESTION = "Where is solar energy stored?"


@pytest.fixture()
def lib(tmp_path: Path):
    """Collection "Work" holds work/ (report.txt, notes.md, sub/data.txt); "Home" holds home/ (diary.txt)."""
    work = scope_docs(tmp_path / "work", ["report.txt", "notes.md", "sub/data.txt"])
    home = scope_docs(tmp_path / "home", ["diary.txt"], 5)
    engine = Engine(resolve_paths(tmp_path / "data"), Settings(embedding_model="hash:64", chunk_size=120,
                                                                chunk_overlap=0, translate_queries=False))
    first = engine.collection_id("Default")
    engine.rename_collection(first, "Work")
    second = engine.create_collection("Home")
    engine.index([work], collection=first)
    engine.index([home], collection=second)
    yield engine, work, first, second
    engine.close()


def _names(hits) -> set[str]:
    return {Path(h.path).name for h in hits}


def _chunk_ids(engine: Engine, path: Path) -> list[int]:
    file_id = engine.store.file_by_path(str(path)).id
    return sorted(r[0] for r in engine.store.db.execute("SELECT id FROM chunks WHERE file_id = ?", (file_id,)))


# ---- one document inside a collection ----

def test_one_document_inside_a_collection_returns_only_that_document(lib):
    engine, work, first, _ = lib
    report = work / "report.txt"
    assert _names(engine.search("solar energy storage", 50, first)) == {"report.txt", "notes.md", "data.txt"}
    assert _names(engine.search("solar energy storage", 50, first, files=[str(report)])) == {"report.txt"}
    within = engine.restriction(first, files=[str(report)])
    assert within == Restriction(first, files=(str(report),))
    assert filters.vector_ids(engine.store, within).tolist() == _chunk_ids(engine, report)  # the dense side too
    count, selector = filters.member_filter(engine.store, within)
    assert count == len(_chunk_ids(engine, report)) and selector is not None


def test_asking_one_document_in_a_collections_conversation_cites_only_it(lib):
    engine, work, first, _ = lib
    report = str(work / "sub" / "data.txt")
    conversation = engine.new_conversation("Work questions", collection=first)
    events = list(engine.ask(QUESTION, conversation_id=conversation, files=[report]))
    sent = next(e for e in events if isinstance(e, SourcesEvent)).hits
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.mode == "extractive"
    assert sent and {h.path for h in sent} == {report}
    assert done.cited and {h.path for h in done.cited} == {report}
    context = engine.context(QUESTION, first, files=[report])
    assert context["passages"] and {p["path"] for p in context["passages"]} == {report}


def test_a_document_of_another_collection_finds_nothing_there(lib):
    engine, work, first, second = lib
    diary = str(work.parent / "home" / "diary.txt")
    assert engine.search("energy", 50, first, files=[diary]) == []
    assert _names(engine.search("energy", 50, second, files=[diary])) == {"diary.txt"}
    assert filters.member_filter(engine.store, engine.restriction(first, files=[diary])) == (0, None)


def test_a_collections_own_ids_serve_a_collection_alone(lib):
    engine, work, first, second = lib
    ids = filters.vector_ids(engine.store, Restriction(second))
    assert ids.tolist() == _chunk_ids(engine, work.parent / "home" / "diary.txt")
    everything = filters.vector_ids(engine.store, Restriction())
    assert len(everything) == len(filters.vector_ids(engine.store, Restriction(first))) + len(ids)
    assert list(everything) == sorted(everything)


# ---- each part as SQL ----

def _selected(engine: Engine, within: Restriction) -> set[str]:
    where, args = within.files_sql("f")
    return {Path(r[0]).name for r in engine.store.db.execute(f"SELECT f.path FROM files f WHERE {where}", args)}


def test_each_part_of_a_scope_selects_its_files_and_the_parts_combine(lib):
    engine, work, first, second = lib
    assert Restriction().everything and Restriction().files_sql() == ("1 = 1", [])
    for part in (Restriction(first), Restriction(folders=("x",)), Restriction(types=("md",)),
                 Restriction(files=("x",))):
        assert not part.everything
    assert _selected(engine, Restriction()) == {"report.txt", "notes.md", "data.txt", "diary.txt"}
    assert _selected(engine, Restriction(second)) == {"diary.txt"}
    assert _selected(engine, Restriction(folders=(str(work / "sub"),))) == {"data.txt"}
    assert _selected(engine, Restriction(folders=(str(work / "sub"), str(work.parent / "home")))) == {
        "data.txt", "diary.txt"}
    assert _selected(engine, Restriction(folders=(str(work / "sub" / "data.txt"),))) == {"data.txt"}  # the path itself
    assert _selected(engine, Restriction(types=("md",))) == {"notes.md"}
    assert _selected(engine, Restriction(types=("md", "txt"))) == {"report.txt", "notes.md", "data.txt", "diary.txt"}
    assert _selected(engine, Restriction(types=("bogus",))) == set()  # a name without suffixes selects nothing
    assert _selected(engine, Restriction(files=(str(work / "notes.md"), str(work / "report.txt")))) == {
        "notes.md", "report.txt"}
    assert _selected(engine, Restriction(first, (str(work),), ("txt",), (str(work / "report.txt"),))) == {"report.txt"}
    assert _selected(engine, Restriction(second, types=("md",))) == set()  # the parts are AND-ed


def test_the_sql_names_the_alias_it_is_given():
    where, args = Restriction(3, ("/d",), ("md",), ("/d/a.md",)).files_sql("x")
    assert "f." not in where and where.count("x.") >= 5
    assert args[0] == 3 and args[-2:] == ["%.md", "%.markdown"] and "/d/a.md" in args


def test_a_type_matches_its_suffix_in_any_case(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "LOUD.TXT").write_text("Solar energy storage in capital letters.\n", "utf-8")
    (docs / "quiet.md").write_text("Solar energy storage in small letters.\n", "utf-8")
    engine = Engine(resolve_paths(tmp_path / "data"), Settings(embedding_model="hash:64"))
    try:
        engine.index([docs])
        assert _selected(engine, Restriction(types=("txt",))) == {"LOUD.TXT"}
        assert _names(engine.search("solar energy", 10, types=[" .TXT "])) == {"LOUD.TXT"}
    finally:
        engine.close()


# ---- the checks ----

def _code(call) -> tuple[str, str]:
    with pytest.raises(UsageError) as raised:
        call()
    return raised.value.code, str(raised.value)


def test_types_are_normalised_deduplicated_and_checked(lib):
    engine, *_ = lib
    assert rs.build(engine.store, types=[" .MD", "md", "Txt"]).types == ("md", "txt")
    code, text = _code(lambda: rs.build(engine.store, types=["pdf", "key"]))
    assert code == "unknown_type" and "“key”" in text and ", ".join(TYPE_NAMES) in text


def test_folders_are_normalised_deduplicated_and_must_be_known(lib, tmp_path):
    engine, work, first, _ = lib
    sub = str(work / "sub")
    assert rs.build(engine.store, first, [sub, sub + "/", str(work / "sub" / ".." / "sub")]).folders == (sub,)
    assert rs.build(engine.store, folders=[str(tmp_path)]).folders == (str(tmp_path),)  # holds the sources
    empty = work / "empty"
    empty.mkdir()
    assert rs.build(engine.store, folders=[str(empty)]).folders == (str(empty),)  # a source's folder, still empty
    code, text = _code(lambda: rs.build(engine.store, folders=[str(work / "missing")]))
    assert code == "unknown_folder" and f"“{work}”" in text and f"“{work.parent / 'home'}”" in text
    outside = tmp_path / "outside"
    outside.mkdir()
    assert _code(lambda: rs.build(engine.store, folders=[str(outside)]))[0] == "unknown_folder"
    assert _code(lambda: rs.build(engine.store, folders=["  "]))[0] == "empty_folder_name"
    assert _code(lambda: rs.build(engine.store, folders=[str(work) + "/a\x00b"]))[0] == "bad_folder_path"
    assert len(rs.build(engine.store, folders=[sub] * rs.MAX_FOLDERS).folders) == 1
    assert _code(lambda: rs.build(engine.store, folders=[sub] * (rs.MAX_FOLDERS + 1)))[0] == "too_many_folders"


def test_an_unknown_folder_in_a_library_without_folders_says_so(tmp_path):
    file = tmp_path / "one.txt"
    file.write_text("Solar energy storage.\n", "utf-8")
    engine = Engine(resolve_paths(tmp_path / "data"), Settings(embedding_model="hash:64"))
    try:
        assert _code(lambda: rs.build(engine.store, folders=[str(tmp_path / "x")]))[0] == "unknown_folder_none"
        engine.index([file])  # a single file is a source, not a folder
        code, text = _code(lambda: rs.build(engine.store, folders=[str(tmp_path / "x")]))
        assert code == "unknown_folder_none"
        assert rs.build(engine.store, folders=[str(tmp_path)]).folders == (str(tmp_path),)  # holds the file
    finally:
        engine.close()


def test_many_source_folders_are_listed_up_to_ten(tmp_path):
    engine = Engine(resolve_paths(tmp_path / "data"), Settings(embedding_model="hash:64"))
    try:
        folders = []
        for n in range(12):
            folder = tmp_path / f"src{n:02d}"
            folder.mkdir()
            folders.append(folder)
        engine.add_sources(folders)
        code, text = _code(lambda: rs.build(engine.store, folders=[str(tmp_path / "nowhere")]))
        assert code == "unknown_folder" and text.count("“") == 11 and "src09" in text and "src10" not in text
        assert text.rstrip(".").endswith("…")
    finally:
        engine.close()


def test_files_are_normalised_deduplicated_and_must_be_library_files(lib):
    engine, work, *_ = lib
    report = str(work / "report.txt")
    assert rs.build(engine.store, files=[report, str(work / "sub" / ".." / "report.txt")]).files == (report,)
    assert _code(lambda: rs.build(engine.store, files=[str(work / "sub")]))[0] == "not_a_library_file"
    assert _code(lambda: rs.build(engine.store, files=[""]))[0] == "empty_file_name"
    assert _code(lambda: rs.build(engine.store, files=[report + "\x00"]))[0] == "bad_file_path"
    assert len(rs.build(engine.store, files=[report] * rs.MAX_FILES).files) == 1
    assert _code(lambda: rs.build(engine.store, files=[report] * (rs.MAX_FILES + 1)))[0] == "too_many_files_scope"


def test_names_in_messages_are_printable_and_bounded(lib):
    engine, *_ = lib
    code, text = _code(lambda: rs.build(engine.store, types=["x\x1b[2J" + "y" * 1000]))
    assert "\x1b" not in text and "x?[2j" in text and "y" * 295 in text and "y" * 296 not in text


# ---- the cached selector ----

def test_the_selector_is_cached_until_the_library_changes(lib):
    engine, work, first, _ = lib
    within = Restriction(folders=(str(work),))
    count, selector = filters.member_filter(engine.store, within)
    assert count == sum(len(_chunk_ids(engine, p)) for p in (work / "report.txt", work / "notes.md",
                                                              work / "sub" / "data.txt"))
    assert filters.member_filter(engine.store, within) == (count, selector)  # the same object: cached
    scope_docs(work, ["more.txt"], 7)
    engine.index()
    again, other = filters.member_filter(engine.store, within)
    assert again == count + len(_chunk_ids(engine, work / "more.txt")) and other is not selector


def test_the_cache_keeps_the_last_sixteen_scopes(lib):
    engine, work, *_ = lib
    filters._selectors.clear()
    scopes = [Restriction(folders=(str(work),), types=(f"t{n}",)) for n in range(filters._CACHE_SIZE + 1)]
    for scope in scopes:
        assert filters.member_filter(engine.store, scope) == (0, None)
    assert len(filters._selectors) == filters._CACHE_SIZE
    assert (str(engine.store.path), scopes[0]) not in filters._selectors
    assert (str(engine.store.path), scopes[-1]) in filters._selectors
    filters.member_filter(engine.store, scopes[1])  # used again: the newest
    assert list(filters._selectors)[-1] == (str(engine.store.path), scopes[1])
