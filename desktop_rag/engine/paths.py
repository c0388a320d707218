"""Path questions answered in one place: whether a path is a folder or lies inside it (in Python, and as a
range on the path for SQL), the stored form of a path, and names the OS gives us as storable text."""

from __future__ import annotations

import fnmatch
import ntpath
import os
import posixpath
import re
from pathlib import Path

_TEMP_PATTERNS = ("~$*", ".~lock.*#", "*.tmp", "*.temp", "*~", "*.swp", "*.swo", "*.swx", "#*#", "*.part", "*.crdownload")
_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")  # C:\... or C:/... or \\server\share
_UNSAFE_IN_NAME = re.compile(r'[\x00-\x1f\x7f<>:"|?*/\\]')  # in a file name on any system (a slash: no folder)


def is_inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """True when `path` is `folder` itself or lies below it, compared whole component by component.

    `/a/bc` is not inside `/a/b`; trailing separators and `.`/`..` are resolved as written (no file system
    access, links are not followed: pass resolved paths where that matters). Windows paths (on Windows, or a
    folder written with a drive letter or as `\\\\server\\share` anywhere) take either separator and compare
    without regard to case.
    """
    path, folder = os.fspath(path), os.fspath(folder)
    if not path or not folder:
        return False
    flavour = _flavour(folder)
    path, folder = flavour.normpath(path), flavour.normpath(folder)
    if flavour is ntpath:
        path, folder = ntpath.normcase(path), ntpath.normcase(folder)
    if path == folder:
        return True
    return path.startswith(folder.rstrip(flavour.sep) + flavour.sep)


def subtree_range(folder: str | os.PathLike) -> tuple[str, str, str]:
    """`is_inside` as a range on the path, for SQL: (exact, low, high) such that

        path = exact OR (path >= low AND path < high)      -- SQLite's default BINARY collation

    holds exactly when `is_inside(path, folder)`, for every `path` in the form the store keeps (absolute and
    normalised: no `.`, `..` or doubled separators; a Windows path with backslashes), with or without a
    trailing separator. `low` is the folder and a separator; `high` the folder and the character after the
    separator, so `/a/bc` (c > 0) and `/a/b.txt` (. < /) fall outside `/a/b`, and `%` or `_` in names are
    plain characters (no LIKE). UTF-8 byte order is code point order, so non-ASCII names compare alike.

    The one difference: on Windows paths `is_inside` ignores letter case and the range compares the spelling
    as stored. The store keeps the file system's own spelling and `scanning.normalise_path` resolves a
    folder to it, so both sides agree for paths that exist (tests/engine/test_paths.py).
    """
    folder = os.fspath(folder)
    flavour = _flavour(folder)
    exact = flavour.normpath(folder)
    if not exact.strip("/\\"):  # a root however spelt ("/", "//"): the root itself
        exact = flavour.sep
    low = exact.rstrip(flavour.sep) + flavour.sep
    return exact, low, low[:-1] + chr(ord(flavour.sep) + 1)


def _flavour(folder: str):
    """Windows rules on Windows, and for a folder written with a drive letter or as a UNC share anywhere."""
    return ntpath if os.name == "nt" or _WINDOWS_ABSOLUTE.match(folder) else posixpath


def is_valid_text(name: str) -> bool:
    """Whether a name from the OS is real text (not undecodable bytes smuggled in as surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def display_text(name: str) -> str:
    """A name that can be stored and shown: undecodable bytes become visible escapes (b'\\xff' -> '\\xff')."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # lone surrogates from a Windows name
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def is_ignored_name(name: str) -> bool:
    """Hidden files, editor/office temp and swap files."""
    return name.startswith(".") or any(fnmatch.fnmatch(name, p) for p in _TEMP_PATTERNS)


def normalise_path(path: str | Path) -> str:
    """The absolute, symlink-free form under which a path is stored. A symlink loop stays as it is (then it names
    nothing: `Path.resolve` raised RuntimeError("Symlink loop"), a traceback wherever a person gave such a path)."""
    return os.path.realpath(os.path.expanduser(path))


def attachment_path(carrier: str, part: str) -> str:
    """The library path of a document carried inside a file (an e-mail's attachment), below the carrier's path:
    ("/mail/m.eml", "2/report.pdf") -> "/mail/m.eml/2/report.pdf" (no file on disk can have it)."""
    return os.path.join(carrier, *part.split("/"))


def attachment_part(carrier: str, path: str) -> str:
    """The inverse of attachment_path: where below `carrier` the attachment at `path` sits ("2/report.pdf")."""
    return path[len(carrier):].lstrip("/\\").replace(os.sep, "/")


def safe_file_name(name: str) -> str:
    """`name` as one file name on any system: characters Windows refuses, control characters and slashes become
    "_", trailing dots and spaces go ("_" when nothing is left). "2024/25 budget" -> "2024_25 budget"."""
    cleaned = _UNSAFE_IN_NAME.sub("_", name).strip().rstrip(".")
    return cleaned if cleaned not in ("", ".", "..") else "_"
