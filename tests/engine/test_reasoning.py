"""A reasoning model's think block kept out of the answer (answer/reasoning.py), piece by piece and whole."""

from __future__ import annotations

import pytest

from desktop_rag.engine.answer.reasoning import (MAX_THINKING_CHARS, ThinkFilter, answer_start, thought,
                                                 unfinished_thinking)
from desktop_rag.engine.answer.reasoning import without_thinking


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
    (["Answer", " in", " pieces"], "Answer in pieces"),  # once answering, a piece's leading space is the answer's
    (["<think>x</think>", "A", " b"], "A b"),
    (["<think>a</think>b</think>c"], "b</think>c"),  # the first closing tag ends the thinking
    (["<think>x<", "/think>y"], "y"),  # a closing tag cut after its "<"
    (["<think>", "still thinking</thi"], ""),  # what was held of a tag that never came is thinking too
    ([" " * 63 + "<", "think>x</think>y"], "y"),  # 64 characters that may still become the tag are held
    ([" " * 64 + "<", "think>x</think>y"], " " * 64 + "<think>x</think>y"),  # past that, the answer
])
def test_a_leading_think_block_is_dropped_as_it_streams(pieces, shown):
    assert filtered(pieces) == shown


@pytest.mark.parametrize("reply, answer", [
    ("<think>x</think>\n\nAnswer", "Answer"),
    ("reasoning the template opened</think>\nAnswer", "Answer"),
    ("<think>unfinished", ""),
    ("Plain answer with </b> tags", "Plain answer with </b> tags"),
    # a lone closing tag ends the thinking the chat template opened
    ("Okay, passage [1] says 80 degrees.\n</think>\n\nGreen tea: 80 °C [1].", "Green tea: 80 °C [1]."),
    ("好的，用户问的是水温。</think>\n\n80 度 [1]。", "80 度 [1]。"),
    ("</think>\n\nAnswer", "Answer"),
    ("reasoning, no answer yet\n</think>", ""),
    ("\n<think>x</think>\n\nAnswer", "Answer"),
    ("<think>a</think>b</think>c", "b</think>c"),
    ("thinking\n</think>\nAnswer quoting </think> here", "Answer quoting </think> here"),  # the first tag decides
    ("thinking\n</think>\nAnswer: <think> is the opening tag", "Answer: <think> is the opening tag"),
    ("</think>\n\nAnswer: <think> opens", "Answer: <think> opens"),
    ("reasoning\n</think>\n\nLine one.\nLine two.", "Line one.\nLine two."),
    ("```\nx = 1\n```\nso the code works\n</think>\nAnswer", "Answer"),  # a closed fence in the thinking
])
def test_a_whole_reply_loses_its_thinking(reply, answer):
    assert without_thinking(reply) == answer


@pytest.mark.parametrize("reply", [
    "In a code answer the tag is quoted: `</think>` closes the block [1].",
    "Models wrap thoughts in tags [1]; the closing </think> tag ends them [2].",
    "An example [1]:\n```\nreasoning\n</think>\nanswer\n```\nThat is all.",
    "Thinking is written <think>like this</think>\nand then the answer [1].",
    "```\nreasoning\n</think>\n```\nA fence opening the reply [1].",
    "A reply ending on a quoted `</think>",
    "Use </think> x",  # one character after the tag: a sentence that goes on
    "  An indented answer [1].",
])
def test_an_answer_that_mentions_the_closing_tag_keeps_every_word(reply):
    assert without_thinking(reply) == reply


@pytest.mark.parametrize("begun, start", [
    ("Okay, thinking", None),  # no tag yet: maybe thinking
    ("Okay\n</think>", None),  # the tag's line may go on
    ("Okay\n</think>\n", 13),
    ("Okay </think> is a tag", 0),
    ("Quote <think>", 0),  # an opening tag: the reply is not template-opened thinking
    ("<think>x\n</think>\n", 0),
    ("The tag is `</think>", 0),  # quoted as code: decided at once
])
def test_a_streaming_reply_is_decided_once_its_first_closing_tag_ends_its_line(begun, start):
    assert answer_start(begun, ended=False) == start


def test_a_reply_that_never_closes_a_tag_starts_at_its_beginning():
    assert answer_start("Plain answer") == 0


def test_what_cannot_become_the_tag_is_shown_at_once():
    think = ThinkFilter()
    assert think.feed("Hello") == "Hello" and think.feed(" <think>") == " <think>"


def test_only_a_lone_closing_tag_within_the_bound_ends_thinking():
    """A lone `</think>` starting past MAX_THINKING_CHARS is an answer's text (one quoting the tag on a line of its
    own late in a long answer lost everything before it); one starting just within still ends thinking."""
    within = "t" * (MAX_THINKING_CHARS - 1) + "</think>\nAnswer"
    assert without_thinking(within) == "Answer"
    late = "An answer [1] quoting a log line late:\n" + "x" * MAX_THINKING_CHARS + "\n</think>\nand going on."
    assert without_thinking(late) == late
    assert without_thinking("t" * MAX_THINKING_CHARS + "</think>\nAnswer").startswith("ttt")


def test_a_streaming_reply_past_the_bound_is_decided_at_once():
    """While it streams, a reply without a closing tag is undecided only while one could still start within the
    bound: past it, it is the answer (held no longer)."""
    edge = MAX_THINKING_CHARS + len("</think>") - 2  # the tag could still start at MAX_THINKING_CHARS - 1
    assert answer_start("y" * edge, ended=False) is None
    assert answer_start("y" * (edge + 1), ended=False) == 0


@pytest.mark.parametrize("pieces, held", [
    (["<think>", "weighing"], True),  # an unclosed block opening the reply
    (["<think>x</think>", "\n"], True),  # a closed one, nothing after
    (["weighing", "\n</think>\n"], True),  # thinking the template opened, up to a lone closing tag
    (["  "], False),  # nothing at all
    (["Answer: <think> is a tag"], False),
])
def test_a_reply_is_known_to_have_held_thinking(pieces, held):
    """`thought`: whether a reply without a word of answer was thinking only (its notice says the model only
    thought), read through the filter that took a leading block out."""
    reading = ThinkFilter()
    reply = "".join(reading.feed(p) for p in pieces) + reading.finish()
    assert reading.opened is pieces[0].startswith("<think>")
    assert thought(reply, reading) is held


def test_a_retry_reads_its_reply_afresh():
    reading = ThinkFilter()
    reading.feed("<think>x")
    reading.restart()
    assert reading.feed("Answer") == "Answer" and reading.opened is False and not thought("Answer", reading)


@pytest.mark.parametrize("pieces, counted", [
    (["<think>abc", "de</th", "ink>Answer"], [3, 5, 5]),  # a closing tag split across pieces is not counted
    (["<think>abc", "de</think>Answer"], [3, 5]),  # thinking and its closing tag in one piece
    (["  <think>", "x</", "/y", "</think>\n", "more"], [0, 1, 5, 5, 5]),  # "</" held, then thinking after all
    (["No block ", "<think>here"], [0, 0]),  # a tag later in an answer is not thinking
])
def test_the_thinking_fed_is_counted_without_its_tags(pieces, counted):
    """`thought_chars`: how much a model has thought so far (a `ThinkingEvent` says it); a retry counts afresh."""
    reading = ThinkFilter()
    seen = []
    for piece in pieces:
        reading.feed(piece)
        seen.append(reading.thought_chars)
    assert seen == counted
    reading.restart()
    assert reading.thought_chars == 0


def test_a_replys_own_bound_says_whether_it_held_thinking():
    """`thought` and `unfinished_thinking` read a reply with its model's bound (`LLMConfig.thinking_chars`): a lone
    `</think>` past it is the answer's text, one within it ended thinking."""
    reply = "t" * 30 + "\n</think>\nAnswer"
    assert not thought(reply, ThinkFilter(), bound=20) and thought(reply, ThinkFilter(), bound=40)
    assert unfinished_thinking(reply, True, bound=20) and not unfinished_thinking(reply, True, bound=40)
