"""`desktop-rag ask` streaming: the terminal showed the model's raw citation markers ([7], 【1】, [^1]) and the
thinking a chat template opened, up to its `</think>`, which `--json` and the window leave out."""

from __future__ import annotations

import json
import os
import pty
import re
import sys
from pathlib import Path

import pytest

from tests.support import hash_cli
from tests.support.hash_cli import indexed_home, run_cli
from tests.support.interrupted import interrupted_on_a_terminal

THINKING = ["Okay, passage [1]", " says 80 degrees.\n", "</", "think>", "\n", "\n", "Green tea: 80 °C 【1", "】",
            " [", "7] and", " [^1]."]
ANSWER = "Green tea: 80 °C [1] and [1]."


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return indexed_home(tmp_path_factory.mktemp("stream"), {"tea.txt": "Green tea: water at 80 degrees.\n"})


@pytest.fixture
def server(cli_model):
    return cli_model


def on_a_terminal(home: Path, *args: str, stderr: bool = False) -> str:
    """What `desktop-rag ARGS` wrote to a real terminal (a pseudo-terminal), escape sequences and all (its stderr
    too when `stderr`)."""
    main, side = pty.openpty()
    try:
        run = run_cli(home, *args, stdout=side, **({"stderr": side} if stderr else {}))
    finally:
        os.close(side)
    written = b""
    while True:
        try:
            block = os.read(main, 65536)
        except OSError:  # the terminal's other side closed
            break
        if not block:
            break
        written += block
    os.close(main)
    assert run.returncode == 0, run.stderr
    return written.decode("utf-8").replace("\r\n", "\n")


def test_the_streamed_answer_reads_as_the_finished_one_in_a_pipe(home, server):
    server.tokens = THINKING
    assert json.loads(run_cli(home, "ask", "How hot for green tea?", "--json").stdout)["answer"] == ANSWER
    run = run_cli(home, "ask", "What temperature for green tea?")
    assert run.returncode == 0 and run.stdout.startswith(ANSWER + "\n\nSources:\n[1] ")


def test_thinking_written_to_a_terminal_is_erased_when_its_tag_arrives(home, server):
    server.tokens = THINKING
    shown = on_a_terminal(home, "ask", "How hot for green tea?")
    before, saved = shown.split("\0337", 1)
    thinking, answer = saved.split("\0338\033[J", 1)  # back to where the answer began, the screen cleared below
    assert thinking.startswith("Okay, passage [1] says 80 degrees.") and "Okay" not in before + answer
    assert answer.startswith(ANSWER + "\n\nSources:\n[1] ") and "</think>" not in before + answer


def test_citation_markers_split_across_pieces_stream_as_the_answer_shows_them(home, server):
    server.tokens = ["Brew at 80 °C [", "1", "]", " (see 【1】", " and [^", "1] but not [9", "])."]
    shown = on_a_terminal(home, "ask", "How hot for green tea?")
    assert "Brew at 80 °C [1] (see [1] and [1] but not)." in shown and "\0338" not in shown


def test_ctrl_c_while_a_thinking_model_thinks_leaves_no_thinking_on_the_terminal(home, server):
    """A model seen thinking, interrupted before its `</think>`: the terminal kept "Okay, passage [1] says…" as if
    it were the answer (a model not known to think keeps its partial answer: test_ask.py's Ctrl-C test)."""
    server.tokens = THINKING
    assert run_cli(home, "ask", "Green tea, how hot?").stdout.startswith(ANSWER)  # seen thinking (not replayed)
    server.tokens, server.token_delay = ["Okay, passage [1]", " says 80", " degrees", " and", " more", " to weigh",
                                         " still", " here", "\n", "</think>", "\n\nGreen tea: 80 °C [1]."], 0.3
    before, streamed, err, code = interrupted_on_a_terminal(
        [sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "ask", "Which heat for green tea?"],
        hash_cli.ENV, b"says 80", cwd=hash_cli.REPO)
    assert b"says 80" in before and code == 130 and err.decode("utf-8").endswith("interrupted\n"), err
    shown = streamed.decode("utf-8").replace("\r\n", "\n")
    assert "Okay" not in shown.rsplit("\0338\033[J", 1)[-1] and "Okay" in shown.split("\0337", 1)[-1], shown


def test_a_thinking_models_reply_cut_before_its_tag_is_erased_and_said_to_be_cut(home, server):
    server.tokens = THINKING
    assert run_cli(home, "ask", "Green tea: what heat?").stdout.startswith(ANSWER)  # seen thinking (not replayed)
    server.tokens, server.finish_reason = ["Okay, passage [1]", " says 80", " degrees", " and more"], "length"
    shown = on_a_terminal(home, "ask", "Green tea: what temperature?")
    assert "Okay" in shown and "Okay" not in shown.rsplit("\0338\033[J", 1)[-1], shown
    assert "for one reply reasoning and wrote no answer" in shown and "`max_reply_tokens`" in shown, shown
    answer = json.loads(run_cli(home, "ask", "Green tea: which temperature?", "--json").stdout)
    assert answer["answer"] == "" and "wrote no answer" in answer["notice"], answer


THOUGHT = ["<think>", *[f"Step {n} of the weighing. " for n in range(14)], "</think>", "\n\n", "Green tea: 80 °C ",
           "[1]."]
SAID_THINKING = r"\r\033\[KThe model is thinking… ([\d,]+) characters? so far"


def test_a_model_thinking_in_a_block_says_how_much_on_the_terminal_then_its_line_goes(home, server):
    """A slow local model thought for a minute with nothing on the terminal to tell that it worked."""
    server.tokens, server.token_delay = THOUGHT, 0.06
    shown = on_a_terminal(home, "ask", "Green tea, what temperature please?", stderr=True)
    counts = [int(n.replace(",", "")) for n in re.findall(SAID_THINKING, shown)]
    assert len(counts) >= 3 and counts == sorted(set(counts)), shown
    after = re.split(SAID_THINKING, shown)[-1]
    assert after.startswith("\r\033[K") and "Green tea: 80 °C [1]." in after, after  # the line cleared first
    piped = run_cli(home, "ask", "Green tea, what heat please?")
    assert "thinking" not in piped.stderr and piped.stdout.startswith("Green tea: 80 °C [1]."), piped


def test_ctrl_c_while_a_model_thinks_in_a_block_clears_its_line_before_saying_interrupted(home, server):
    """The last "The model is thinking… N characters so far" stayed on the terminal, "interrupted" after it."""
    server.tokens, server.token_delay = THOUGHT, 0.3
    _, streamed, _, code = interrupted_on_a_terminal(
        [sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "ask", "Green tea, how hot to brew?"],
        hash_cli.ENV, b"characters so far", cwd=hash_cli.REPO, stderr=True)
    shown = streamed.decode("utf-8").replace("\r\n", "\n")
    assert code == 130 and re.search(SAID_THINKING, shown), shown
    after = re.split(SAID_THINKING, shown)[-1]
    assert re.fullmatch(r"\r\033\[K(\^C)?\n?interrupted\n", after), repr(after)
