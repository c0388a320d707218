"""One rule for "is this path inside that folder": whole components, either separator on Windows paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.engine.paths import is_inside


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
