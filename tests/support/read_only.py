"""A folder this user cannot write (a USB stick or disc mounted read-only, another user's folder), for tests."""

from __future__ import annotations

import os
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
