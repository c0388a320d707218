"""The local server's system user, made as root. Two processes starting the server at once on a new computer: both
made it with useradd, and the later run rewrote the entry with the next free uid (the first server's folders then
belonged to no user). Real processes, real useradd, throwaway user names removed afterwards. A useradd that fails
(a real program on PATH that refuses, or none) or no folder for the lock: said in words in English and Chinese, not
as a raw CalledProcessError. Root only."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_rag.engine import UsageError, error_text
from desktop_rag.engine.store.postgres import service_user as users
from tests.support import REPO

pytestmark = pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0, reason="making a system user needs root")

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


@pytest.mark.skipif(not shutil.which("useradd"), reason="needs useradd")
def test_two_processes_making_the_server_user_at_once_make_it_once(tmp_path: Path):
    names = [f"drag-test{os.getpid() % 100000}-{n}" for n in range(4)]
    try:
        for name in names:  # without the lock, each of 5 tries in a shell rewrote the uid
            uids = _at_once(name, tmp_path)
            assert uids == [pwd.getpwnam(name).pw_uid] * 2, name
    finally:
        for name in names:
            subprocess.run(["userdel", name], capture_output=True)


def _name(tag: str) -> str:
    return f"drag-test{os.getpid() % 100000}-{tag}"


def _refused(name: str) -> tuple[str, str]:
    """What making `name` says, in English and Chinese (it must fail)."""
    with pytest.raises(UsageError) as caught:
        users.service_user(name)
    assert not users._exists(name)
    return error_text(caught.value, "en"), error_text(caught.value, "zh")


def _on_path(monkeypatch, folder: Path, script: str | None) -> None:
    """PATH holding only `folder`, with `script` as its `useradd` (none: no useradd at all)."""
    folder.mkdir()
    if script is not None:
        program = folder / "useradd"
        program.write_text("#!/bin/sh\n" + script)
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))


def test_a_useradd_that_refuses_is_said_with_its_own_last_line(tmp_path: Path, monkeypatch):
    name = _name("refused")
    _on_path(monkeypatch, tmp_path / "bin", "echo 'useradd: reading /etc/login.defs' >&2\n"
             "echo 'useradd: cannot lock /etc/passwd; try again later.' >&2\necho >&2\nexit 1\n")
    english, chinese = _refused(name)
    assert english.startswith(f"Started as root, the local server runs PostgreSQL as the system user “{name}”, "
                              "which useradd could not make (useradd: cannot lock /etc/passwd; try again later).")
    assert f"`useradd --system --user-group --no-create-home --shell /usr/sbin/nologin {name}`" in english
    assert "ordinary user" in english
    assert f"“{name}”运行 PostgreSQL，但 useradd 无法创建该用户（系统报告的错误：useradd: cannot lock /etc/passwd; try " \
        "again later）" in chinese and "普通用户" in chinese
    assert "\n" not in english + chinese and "reading /etc/login.defs" not in english + chinese


def test_a_useradd_saying_too_much_is_cut_to_one_plain_line(tmp_path: Path, monkeypatch):
    _on_path(monkeypatch, tmp_path / "bin", f"printf 'useradd: \\033[31mbad\\007 {'x' * 5000}\\n' >&2\nexit 9\n")
    english, chinese = _refused(_name("loud"))
    detail = english[english.index("(useradd:") + 1:english.index(")")]
    assert detail.startswith("useradd: [31mbad x") and len(detail) == 300  # the escape and the bell dropped
    assert "\x1b" not in english + chinese and "\x07" not in english + chinese


def test_no_useradd_at_all_is_said_in_the_systems_words(tmp_path: Path, monkeypatch):
    _on_path(monkeypatch, tmp_path / "empty", None)
    english, chinese = _refused(_name("none"))
    assert "which useradd could not make (No such file or directory)" in english
    assert "useradd 无法创建该用户（文件或文件夹不存在）" in chinese


def test_the_lock_is_made_in_var_run_without_run_and_said_without_either(tmp_path: Path, monkeypatch):
    """/run first, /var/run where a system has none; a folder others can write to, or a file, never."""
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o1777)
    (tmp_path / "file").write_text("")
    real = Path("/var/run") if Path("/var/run").is_dir() else Path("/run")
    assert users.lock_folder((tmp_path / "no-run", shared, tmp_path / "file", real)) == real
    assert users.lock_folder((tmp_path / "no-run", shared)) is None
    monkeypatch.setattr(users, "LOCK_FOLDERS", (tmp_path / "no-run", tmp_path / "no-var-run"))
    name = _name("nolock")
    english, chinese = _refused(name)
    folders = f"{tmp_path / 'no-run'}, {tmp_path / 'no-var-run'}"
    assert english.startswith(f"Started as root, the local server makes the system user “{name}” under a lock in one "
                              f"of {folders}, but none of them is a folder of root's own")
    assert f"在 {folders} 之一中加锁后创建系统用户“{name}”" in chinese and "普通用户" in chinese
