"""One rule for "is this path inside that folder": whole components, either separator on Windows paths; the
SQL range form (subtree_range) answers the same."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from desktop_rag.engine.paths import is_inside, subtree_range


@pytest.mark.parametrize(("path", "folder"), [
    ("/a/b/c.txt", "/a/b"),
    ("/a/b/deep/er/c.txt", "/a/b"),
    ("/a/b", "/a/b"),  # a folder is inside itself (a source that is the folder)
    ("/a/b/", "/a/b"),  # trailing separators do not matter, on either side
    ("/a/b", "/a/b/"),
    ("/a/b/c", "/a/b//"),
    ("/a/b/c", "/"),
    ("/文档/报告.pdf", "/文档"),
    ("C:\\Users\\Me\\Docs\\a.txt", "C:\\Users\\Me\\Docs"),
    ("c:\\users\\me\\docs\\a.txt", "C:\\Users\\Me\\Docs"),  # Windows paths ignore case
    ("C:/Users/Me/Docs/a.txt", "C:\\Users\\Me\\Docs\\"),  # ... and take either separator
    ("C:\\x", "C:\\"),
    ("\\\\server\\share\\x.txt", "\\\\server\\share"),
])
def test_inside(path, folder):
    assert is_inside(path, folder)


@pytest.mark.parametrize(("path", "folder"), [
    ("/a/bc", "/a/b"),  # a sibling sharing a prefix is not inside
    ("/a/bc/d.txt", "/a/b"),
    ("/a/b", "/a/b/c"),  # the parent is not inside its child
    ("/a", "/a/b"),
    ("/a/b/../c/x.txt", "/a/b"),  # `..` leads out
    ("/A/b/x.txt", "/a/b"),  # POSIX paths keep their case
    ("C:\\a\\bc", "C:\\a\\b"),
    ("D:\\a\\b\\x", "C:\\a\\b"),
    ("", "/a"),
    ("/a", ""),
])
def test_not_inside(path, folder):
    assert not is_inside(path, folder)


def test_path_objects(tmp_path: Path):
    assert is_inside(tmp_path / "x" / "y.txt", tmp_path)
    assert not is_inside(tmp_path.parent / (tmp_path.name + "x"), tmp_path)


# ---- the SQL form: subtree_range agrees with is_inside -------------------------------------------------

NAMES = ["a", "b", "bc", "b0", "b-x", "b.txt", "b%", "%", "b_", "_", "a b", "文档", "报告.pdf", "é", "Ωmega",
         "😀", "b[", "b]", "x.md", "[", "0", "-", "~"]


def _components(rng: random.Random, base: list[str]) -> list[str]:
    """A path near `base`: a prefix of it, its last name changed by a suffix (a sibling sharing the prefix),
    and/or more names below."""
    comps = base[:rng.randint(0, len(base))] if rng.random() < 0.4 else list(base)
    if comps and rng.random() < 0.3:
        comps[-1] += rng.choice(["c", "0", ".txt", "-x", "%", "_", "文", " ", "[", "]", "~"])
    return comps + [rng.choice(NAMES) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))]


def _flavours(rng: random.Random):
    """(root of a stored path, separator, how a folder may be written) for POSIX and Windows paths."""
    posix = ("/", "/", ["", "/", "//"], "/")
    drive = (rng.choice(["C:", "D:"]) + "\\", "\\", ["", "\\", "/", "\\\\"], "\\/")
    unc = ("\\\\server\\share\\", "\\", ["", "\\"], "\\/")
    return rng.choice([posix, posix, drive, unc])


def _written(rng: random.Random, root: str, comps: list[str], trailers: list[str], separators: str) -> str:
    """A folder as a user or a caller may write it: either separator on Windows, trailing or doubled ones."""
    sep = rng.choice(separators)
    text = root.replace("\\", sep) if separators != "/" and not root.startswith("\\\\") else root
    text += sep.join(comps)
    if comps and rng.random() < 0.2:
        text = text.replace(sep + comps[-1], sep * 2 + comps[-1])  # a doubled separator inside
    return text + rng.choice(trailers)


def test_the_sql_range_and_is_inside_agree_on_generated_paths(tmp_path):
    """Many folders against many stored paths (POSIX and Windows forms, prefixes shared with siblings such as
    /a/bc against /a/b, trailing separators, % and _, non-ASCII names), through the Restriction's own SQL in a
    real SQLite table: the rows the range finds are exactly those is_inside accepts."""
    from desktop_rag.engine.store.scope import Restriction

    rng = random.Random(20261203)
    db = sqlite3.connect(str(tmp_path / "paths.sqlite3"))
    db.execute("CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)")
    checked = matched = 0
    for _ in range(200):
        root, sep, trailers, separators = _flavours(rng)
        base = [rng.choice(NAMES) for _ in range(rng.randint(0, 3))]
        stored = {root}
        for _ in range(120):
            path = root + sep.join(_components(rng, base))
            stored.add(path + (sep if rng.random() < 0.05 and not path.endswith(sep) else ""))
        db.execute("DELETE FROM files")
        db.executemany("INSERT INTO files (path) VALUES (?)", [(p,) for p in stored])
        for _ in range(8):
            folder = _written(rng, root, _components(rng, base), trailers, separators)
            where, args = Restriction(folders=(folder,)).files_sql("f")
            found = {r[0] for r in db.execute(f"SELECT f.path FROM files f WHERE {where}", args)}
            expected = {p for p in stored if is_inside(p, folder)}
            assert found == expected, f"folder {folder!r}: SQL only {found - expected}, is_inside only {expected - found}"
            checked += len(stored)
            matched += len(found)
    db.close()
    assert checked > 100_000 and 0.05 < matched / checked < 0.95  # both answers were exercised, many times


@pytest.mark.parametrize(("folder", "exact", "low", "high"), [
    ("/a/b", "/a/b", "/a/b/", "/a/b0"),
    ("/a/b//", "/a/b", "/a/b/", "/a/b0"),
    ("/", "/", "/", "0"),
    ("//", "/", "/", "0"),
    ("C:/Users/Me/", "C:\\Users\\Me", "C:\\Users\\Me\\", "C:\\Users\\Me]"),  # Windows: either separator
    ("C:\\", "C:\\", "C:\\", "C:]"),
])
def test_subtree_range_examples(folder, exact, low, high):
    assert subtree_range(folder) == (exact, low, high)


def test_letter_case_on_windows_paths_is_the_one_documented_difference():
    """is_inside ignores case on Windows paths; the range compares the stored spelling (the file system's,
    which normalise_path also gives a folder), so the same spelling is needed for the SQL form."""
    exact, low, high = subtree_range("C:\\Users\\Me")
    assert is_inside("c:\\users\\me\\a.txt", "C:\\Users\\Me")
    assert not ("c:\\users\\me\\a.txt" == exact or low <= "c:\\users\\me\\a.txt" < high)
    assert low <= "C:\\Users\\Me\\a.txt" < high
