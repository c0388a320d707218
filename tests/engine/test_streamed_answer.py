"""The answer as it streams reads as the finished one (answer/streamed_answer.py, answer/citations.py): whatever
pieces the server cut it into, what was shown (less what was taken back as thinking) is the DoneEvent's text."""

from __future__ import annotations

import random

import pytest

from desktop_rag.engine.answer.citations import clean_citations
from desktop_rag.engine.answer.reasoning import MAX_THINKING_CHARS, without_thinking
from desktop_rag.engine.answer.streamed_answer import StreamedAnswer


def streamed(reply: str, seed: int, thinking: int = MAX_THINKING_CHARS) -> str:
    pick, answer, shown, at = random.Random(seed), StreamedAnswer(3, thinking), "", 0
    while at < len(reply):
        size = pick.randint(1, 5)
        text, taken_back = answer.feed(reply[at:at + size])
        shown, at = ("" if taken_back else shown) + text, at + size
    text, taken_back = answer.finish()
    return ("" if taken_back else shown) + text


@pytest.mark.parametrize("reply", [
    "Okay, [1] says hot [7].\n</think>\n\nTea 【1】 is hot [9] ok [^2].",
    "Plain [1] answer [5] with `</think>` quoted, a link [2](http://x), a year [2023] and [1-3].",
    "thinking only\n</think>",
    "</think>\n\n\n  A [2]",
    "Code [1]:\n```\n</think>\n```\n",
    "中文【1、2】。无效【9】。 x [",
    "  Indented [1] answer",
])
def test_what_streams_is_the_finished_answer_however_the_pieces_fall(reply):
    finished = clean_citations(without_thinking(reply), 3)[0]
    for seed in range(200):
        assert streamed(reply, seed) == finished


def test_an_answer_no_model_wrote_keeps_a_quoted_closing_tag():
    assert streamed("A quoted log line\n</think>\nnext [1]", 0, thinking=0) == "A quoted log line\n</think>\nnext [1]"


def test_thinking_is_taken_back_as_soon_as_its_closing_tag_ends_its_line():
    answer = StreamedAnswer(3)  # a model's answer by default
    assert answer.feed("Okay, thinking") == ("Okay, thinking", False)
    assert answer.feed("\n</think>\n") == ("", True) and not answer.undecided
    assert answer.feed("\nAnswer") == ("Answer", False)


def test_a_reply_found_unfinished_thinking_is_taken_back_whole():
    """The engine found the reply stopped before a thinking model's `</think>`: what streamed was thinking."""
    streamed = StreamedAnswer(2)
    for piece in ("Let me think ", "about [1] first"):
        streamed.feed(piece)
    assert streamed.finish(thinking=True) == ("", True)
    assert not streamed.undecided


def test_an_answer_already_decided_is_kept_at_a_finish_told_of_thinking():
    """Told of thinking once the answer was known not to be (its thinking taken back, or none possible), the
    answer shown stays."""
    streamed = StreamedAnswer(2, thinking=0)
    shown = streamed.feed("The answer [1].")[0]
    rest, taken_back = streamed.finish(thinking=True)
    assert not taken_back
    assert shown + rest == "The answer [1]."


def test_a_long_reply_without_a_closing_tag_is_shown_once_past_the_bound():
    """A model known to think writing a long answer without thinking: its text was held until the reply ended (a
    `</think>` could still come); past MAX_THINKING_CHARS none would end thinking, so what came is shown then."""
    answer, shown = StreamedAnswer(2), ""
    while answer.undecided and len(shown) < 2 * MAX_THINKING_CHARS:
        shown += answer.feed("An answer [1]. ")[0]
    assert not answer.undecided and shown.startswith("An answer [1]. An answer")
    assert MAX_THINKING_CHARS <= len(shown) < MAX_THINKING_CHARS + 40


def test_an_answer_no_model_wrote_is_never_undecided():
    """Without thinking to look for (`thinking=0`), even a short start is decided: a finish told of thinking keeps it."""
    streamed = StreamedAnswer(2, thinking=0)
    assert not streamed.undecided
    assert streamed.feed("Yes") == ("Yes", False) and not streamed.undecided
    assert streamed.finish(thinking=True) == ("", False)


@pytest.mark.parametrize(("before", "taken_back"), [(19, True), (20, False)])
def test_a_closing_tag_ends_thinking_only_within_the_replys_bound(before, taken_back):
    """A lone `</think>` starting within the first `thinking` characters ends thinking; one a character later is
    text (decided as the pieces come, not at the finish)."""
    streamed, reply = StreamedAnswer(2, thinking=20), "t" * (before - 1) + "\n</think>\nAnswer"
    text, taken = streamed.feed(reply)
    assert (text, taken) == (("Answer", True) if taken_back else (reply, False))


def test_a_bound_past_the_default_still_holds_at_the_finish():
    """A model allowed to think longer than MAX_THINKING_CHARS (`LLMConfig.thinking_chars`): its reply ending on a
    lone `</think>` past the default is taken back whole at the finish."""
    streamed = StreamedAnswer(2, thinking=2 * MAX_THINKING_CHARS)
    streamed.feed("t" * (MAX_THINKING_CHARS + 10) + "\n</think>")
    assert streamed.undecided
    assert streamed.finish() == ("", True)
