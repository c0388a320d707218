"""A reasoning model's think block kept out of the answer (answer/reasoning.py), piece by piece and whole."""

from __future__ import annotations

import pytest

from desktop_rag.engine.answer.reasoning import ThinkFilter, without_thinking


def filtered(pieces: list[str]) -> str:
    think = ThinkFilter()
    return "".join(think.feed(p) for p in pieces) + think.finish()


@pytest.mark.parametrize("pieces, shown", [
    (["<", "think>", "a</", "think", ">", "\n", "\nAnswer [1]."], "Answer [1]."),
    (["  <think>x</think>y"], "y"),
    (["<think>a </thinking> b</think>c"], "c"),  # a look-alike inside the thinking does not end it
    (["<think>", "still thinking"], ""),  # never ended (its token limit came first): no answer, not the thought
    (["<b>bold</b>"], "<b>bold</b>"),
    (["<"], "<"),
    (["Quote: ", "<think>", "x"], "Quote: <think>x"),  # only a block that opens the reply is thinking
])
def test_a_leading_think_block_is_dropped_as_it_streams(pieces, shown):
    assert filtered(pieces) == shown


@pytest.mark.parametrize("reply, answer", [
    ("<think>x</think>\n\nAnswer", "Answer"),
    ("reasoning the template opened</think>\nAnswer", "Answer"),
    ("<think>unfinished", ""),
    ("Plain answer with </b> tags", "Plain answer with </b> tags"),
])
def test_a_whole_reply_loses_its_thinking(reply, answer):
    assert without_thinking(reply) == answer
