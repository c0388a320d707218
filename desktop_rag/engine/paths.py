"""Path questions answered in one place: whether a path is a folder or lies inside it."""

from __future__ import annotations

import ntpath
import os
import posixpath
import re

_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")  # C:\... or C:/... or \\server\share


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
    windows = os.name == "nt" or bool(_WINDOWS_ABSOLUTE.match(folder))
    flavour = ntpath if windows else posixpath
    path, folder = flavour.normpath(path), flavour.normpath(folder)
    if windows:
        path, folder = ntpath.normcase(path), ntpath.normcase(folder)
    if path == folder:
        return True
    return path.startswith(folder.rstrip(flavour.sep) + flavour.sep)
