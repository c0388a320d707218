"""A folder this user cannot write (a USB stick or disc mounted read-only, another user's folder), for tests: one
beside it to read, or the folder itself made unwritable (where the app must write it, as its settings folder)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """`folder` as a place that cannot be written: its mode for a user; as root (who writes any folder whatever its
    mode) a read-only bind mount of it beside it, yielded instead. Skips where neither can be made."""
    if os.name != "posix":
        pytest.skip("POSIX folder modes and mounts")
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield folder
        finally:
            folder.chmod(0o700)
        return
    mounted = folder.with_name(f"{folder.name} (read-only)")
    mounted.mkdir()
    if subprocess.run(["mount", "--bind", str(folder), str(mounted)], capture_output=True).returncode != 0:
        pytest.skip("no bind mount here")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(mounted)], capture_output=True).returncode != 0:
            pytest.skip("no read-only remount here")
        yield mounted
    finally:
        subprocess.run(["umount", str(mounted)], check=True)


@contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """The folder refuses new files: a mode without write permission, or (for root, who ignores modes) the
    immutable attribute."""
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(stat.S_IMODE(mode))
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("running as root on a file system without chattr +i: no way to make a folder unwritable")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)
