"""A model's side requests (a follow-up's rewrite: 120 tokens, the question's translation: 200) from a model known to
think (answer/thinking_models.py) were cut inside its thinking and silently dropped: cross-lingual search quietly
lost its translation. They now get room for the thinking (the reply limit, at most 4,096) and lose it from their
reply; one still dropped says why in the log. Through the real local model server."""

from __future__ import annotations

import logging

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.answering import Answerer
from desktop_rag.engine.answer.events import SourcesEvent
from desktop_rag.engine.answer.llm import LLMClient
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.answer.thinking_models import ThinkingModel, models_file
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.values import ChatTurn
from tests.engine.test_answering import HITS, FakeSearch
from tests.engine.test_translation import ENGLISH_MODEL, ORACLE
from tests.support.openai_server import run_openai_server

THINKING = "Okay, the user wants this in another language; let me weigh each word of it carefully first.\n"
NEEDS = 600  # the tokens the model's thinking takes: under a lower max_tokens its reply ends inside it


def thinking_model(server, answer: str, side) -> None:
    """A model whose chat template opens its thinking (a lone `</think>` ends it): a request that does not stream
    is a side one, answered by `side(body)` once its thinking fits the max_tokens sent, else cut inside it."""
    def reply(body: dict) -> str:
        if body.get("stream"):
            return THINKING + "</think>\n\n" + answer
        return THINKING + ("</think>\n\n" + side(body) if body["max_tokens"] >= NEEDS else "")
    server.reply_for = reply
    server.finish_for = lambda body: "stop" if body.get("stream") or body["max_tokens"] >= NEEDS else "length"


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def side_requests(server) -> list:
    return [r for r in server.chat_requests() if not r.body.get("stream")]


def test_a_thinking_models_translation_gets_room_to_think_and_is_used(server, tmp_path, caplog):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    (docs / "tea.txt").write_text("Green tea is brewed with water at eighty degrees.", encoding="utf-8")
    thinking_model(server, "Half price [1].", lambda body: ORACLE.get(body["messages"][-1]["content"], ""))
    settings = Settings(llm_base_url=server.base_url, llm_model="fake-model", answer_cache=False, **ENGLISH_MODEL)
    engine = Engine(resolve_paths(tmp_path / "home"), settings)
    try:
        engine.index([docs])
        with caplog.at_level(logging.WARNING):
            first = list(engine.ask("How is green tea brewed?"))  # not known to think yet: cut inside it, said
        assert side_requests(server)[-1].body["max_tokens"] == 200
        assert next(e for e in first if isinstance(e, SourcesEvent)).translations == ()
        said = "The question's translation is not used (length): The model stopped at its limit of 200 tokens"
        assert said in caplog.text
        assert first[-1].answer == "Half price [1]."  # the answer showed the model thinks: it is noted

        events = list(engine.ask("Which ticket discount do students get?"))
    finally:
        engine.close()
    sources = next(e for e in events if isinstance(e, SourcesEvent))
    assert sources.translations == (("zh", "学生购买火车票有什么优惠？"),), sources.translations
    assert sources.hits[0].path.endswith("火车票.txt")
    assert side_requests(server)[-1].body["max_tokens"] == 200 + 2048


def answerer(server, tmp_path, thinks: bool | None, max_reply_tokens: int = 2048) -> Answerer:
    config = LLMConfig(server.base_url, "fake-model", max_tokens=max_reply_tokens)
    thinking = ThinkingModel(models_file(resolve_paths(tmp_path / "home").ensure()), config.shown_url, config.model)
    if thinks:
        thinking.learn(THINKING + "</think>\nAn answer.", True)  # as an answer of it teaches
    assert thinking.thinks() is thinks
    return Answerer(Settings(), FakeSearch(HITS), LLMClient(config), thinking=thinking)


HISTORY = [ChatTurn("user", "How much annual leave do I get?"), ChatTurn("assistant", "25 days [1].")]


def test_a_thinking_models_rewrite_gets_room_to_think_bounded_and_is_used(server, tmp_path, caplog):
    thinking_model(server, "Part-timers get pro-rata leave [1].", lambda body: "annual leave for part-time staff")
    search = FakeSearch(HITS)
    asking = answerer(server, tmp_path, thinks=True)
    asking.search = search
    done = list(asking.answer("And part-timers?", HISTORY))[-1]
    assert search.queries[0][0] == "annual leave for part-time staff"
    assert side_requests(server)[-1].body["max_tokens"] == 120 + 2048
    assert done.answer == "Part-timers get pro-rata leave [1]."
    # a raised reply limit gives the thinking more room, up to 4,096 tokens (its wait stays bounded)
    list(answerer(server, tmp_path, thinks=True, max_reply_tokens=100_000).answer("And part-timers?", HISTORY))
    assert side_requests(server)[-1].body["max_tokens"] == 120 + 4096

    search = FakeSearch(HITS)
    unknown = answerer(server, tmp_path / "other", thinks=None)
    unknown.search = search
    with caplog.at_level(logging.WARNING):
        list(unknown.answer("And part-timers?", HISTORY))
    assert side_requests(server)[-1].body["max_tokens"] == 120  # not known to think: its own tokens
    assert search.queries[0][0] != "annual leave for part-time staff"  # the rule's rewrite
    assert "The question's rewrite is not used (length): The model stopped at its limit of 120 tokens" in caplog.text


@pytest.mark.parametrize("rewrite, says", [
    ("", "The question's rewrite is not used: the model's reply held no text beyond its thinking"),
    ("annual leave " * 30, "The question's rewrite is not used: its first line is longer than 300 characters"),
])
def test_a_rewrite_not_used_says_why_in_the_log(server, tmp_path, caplog, rewrite, says):
    thinking_model(server, "Part-timers get pro-rata leave [1].", lambda body: rewrite)
    search = FakeSearch(HITS)
    asking = answerer(server, tmp_path, thinks=True)
    asking.search = search
    with caplog.at_level(logging.WARNING):
        list(asking.answer("And part-timers?", HISTORY))
    assert search.queries[0][0] == "annual leave get And part-timers?"  # the rule's rewrite
    assert says in caplog.text, caplog.text


@pytest.mark.parametrize("thought", ["<think>" + THINKING, ""])  # a <think> block; reasoning the server hides
def test_a_side_reply_cut_before_a_word_of_it_is_asked_once_more_with_room(server, tmp_path, thought):
    """A model the record does not know to think (it learns only thinking a chat template opened) was cut inside
    its `<think>` block, or spent the tokens on reasoning its server does not send: the rewrite was lost."""
    def reply(body: dict) -> str:
        if body.get("stream"):
            return "Part-timers get pro-rata leave [1]."
        answered = ("</think>\n\n" if thought else "") + "annual leave for part-time staff"
        return thought + (answered if body["max_tokens"] >= NEEDS else "")
    server.reply_for = reply
    server.finish_for = lambda body: "stop" if body.get("stream") or body["max_tokens"] >= NEEDS else "length"
    search = FakeSearch(HITS)
    asking = answerer(server, tmp_path, thinks=None)
    asking.search = search
    list(asking.answer("And part-timers?", HISTORY))
    assert search.queries[0][0] == "annual leave for part-time staff"
    assert [r.body["max_tokens"] for r in side_requests(server)] == [120, 120 + 2048]


def test_a_think_block_models_answer_teaches_its_side_requests_room_from_the_start(server, tmp_path):
    """The record learned only a lone `</think>`: a model writing a `<think>` block had each question's rewrite cut
    inside it and asked once more. Its answer now notes that it thinks first (yet not as a template's thinking: the
    window streams its answers at once)."""
    def reply(body: dict) -> str:
        if body.get("stream"):
            return "<think>" + THINKING + "</think>\n\nPart-timers get pro-rata leave [1]."
        return "<think>" + THINKING + ("</think>\n\nannual leave for part-time staff"
                                       if body["max_tokens"] >= NEEDS else "")
    server.reply_for = reply
    server.finish_for = lambda body: "stop" if body.get("stream") or body["max_tokens"] >= NEEDS else "length"
    asking = answerer(server, tmp_path, thinks=None)
    assert list(asking.answer("And part-timers?", HISTORY))[-1].answer == "Part-timers get pro-rata leave [1]."
    assert [r.body["max_tokens"] for r in side_requests(server)] == [120, 120 + 2048]
    assert (asking.thinking.thinks(), asking.thinking.thinks_first()) == (False, True)

    search = FakeSearch(HITS)
    again = answerer(server, tmp_path, thinks=False)  # the same record, read anew
    again.search = search
    list(again.answer("And part-timers?", HISTORY))
    assert search.queries[0][0] == "annual leave for part-time staff"
    assert [r.body["max_tokens"] for r in side_requests(server)][2:] == [120 + 2048]
