"""When neither the log folder nor the temp folder can hold the log file, the command still runs and says so in one
line of the locale's language, with the system's reason worded (it said "warning: no log file ([Errno 20] …)")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.logs import LOG_FILE_NAME
from tests.support.hash_cli import environment

# tempfile.tempdir set before the command runs: the fallback folder is under a file, so it cannot be made either
_RUN = "import sys, tempfile; tempfile.tempdir = sys.argv[1]; from desktop_rag.cli.main import main; " \
       "sys.exit(main(sys.argv[2:]))"


@pytest.mark.parametrize("lang, expected", [
    ("en_US.UTF-8", "warning: no log file could be opened in the log folder or the temp folder ("),
    ("zh_CN.UTF-8", "警告：日志文件夹和临时文件夹中都无法打开日志文件（"),
])
def test_a_run_without_any_log_folder_says_so_in_its_language(tmp_path: Path, lang: str, expected: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "logs" / LOG_FILE_NAME).mkdir(parents=True)  # a folder where the log file would be
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    env = environment(lang, DESKTOP_RAG_EMBEDDING_MODEL="hash:64")
    run = subprocess.run([sys.executable, "-c", _RUN, str(blocker / "tmp"), "--data-dir", str(home), "status"],
                         capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if expected in line]
    assert len(lines) == 1, run.stderr
    assert "Errno" not in lines[0]  # the reason is worded, not Python's
    if lang.startswith("zh"):
        assert "不是文件夹" in lines[0] or "不是目录" in lines[0], lines[0]
