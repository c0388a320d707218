"""Two processes starting the local server at once on a new computer, as root: both made its system user with
useradd, and the later run rewrote the entry with the next free uid (the first server's folders then belonged to
no user). Real processes, real useradd, throwaway user names removed afterwards; root only."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.model_folders import REPO

pytestmark = pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0 or not shutil.which("useradd"),
                                reason="making a system user needs root and useradd")

# Imports first, says it is ready, waits for the start file, makes the user, prints the uid it then has.
_CHILD = """
import pwd, sys, time
from pathlib import Path
from desktop_rag.engine.store.postgres.service_user import service_user
name, ready, go = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
ready.touch()
while not go.exists():
    time.sleep(0.0005)
assert service_user(name) == name
print(pwd.getpwnam(name).pw_uid)
"""


def _at_once(name: str, folder: Path) -> list[int]:
    """The uids two processes saw right after making `name` at the same moment."""
    go = folder / f"{name}.go"
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, name, str(folder / f"{name}.{i}"), str(go)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                                 env={**os.environ, "PYTHONPATH": str(REPO)}) for i in range(2)]
    deadline = time.monotonic() + 60
    while not all((folder / f"{name}.{i}").exists() for i in range(2)) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    uids = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err[-2000:]
        uids.append(int(out))
    return uids


def test_two_processes_making_the_server_user_at_once_make_it_once(tmp_path: Path):
    names = [f"drag-test{os.getpid() % 100000}-{n}" for n in range(4)]
    try:
        for name in names:  # without the lock, each of 5 tries in a shell rewrote the uid
            uids = _at_once(name, tmp_path)
            assert uids == [pwd.getpwnam(name).pw_uid] * 2, name
    finally:
        for name in names:
            subprocess.run(["userdel", name], capture_output=True)
