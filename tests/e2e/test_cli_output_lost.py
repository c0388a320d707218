"""Standard output that goes away while a command prints: its reader closes it (`desktop-rag search x | head -1`),
or it is a file on a full disk (`> out.json`). Both ended with a traceback (BrokenPipeError at a print, or
"OSError: [Errno 28] No space left on device"); now a closed pipe ends quietly, as a tool ended by SIGPIPE (141),
and a full disk is said on one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.hash_cli import indexed_home, run_cli
from tests.support.system_limits import full_disk


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    documents = {f"tea{n}.txt": f"Green tea number {n} is brewed at 80 degrees.\n" for n in range(30)}
    return indexed_home(tmp_path_factory.mktemp("output-lost"), documents)


@pytest.mark.parametrize("args", [("search", "green tea", "-k", "30"), ("status", "--json"), ("ask", "green tea?")])
def test_a_reader_that_closes_the_pipe_ends_the_command_quietly(home: Path, args: tuple[str, ...]):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    try:
        run = run_cli(home, *args, stdout=write)
    finally:
        os.close(write)
    assert (run.returncode, run.stderr) == (141, "")


@full_disk
def test_output_on_a_full_disk_is_said_in_one_line(home: Path):
    with open("/dev/full", "w") as full:
        run = run_cli(home, "search", "green tea", "--json", stdout=full)
    assert run.returncode == 1
    assert run.stderr.splitlines() == ["error: the output could not be written (No space left on device)"]
