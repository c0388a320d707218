"""Cross-lingual query translation through a real local chat-completions server (an oracle translator)."""

from __future__ import annotations

import logging

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.runtime import Runtime
from desktop_rag.engine.search.translation import target_languages
from tests.support.openai_server import run_openai_server

# The English-only bundled model: whatever crosses languages here is the translation's work.
ENGLISH_MODEL = dict(embedding_model="bundled:all-MiniLM-L6-v2")
ORACLE = {"Which ticket discount do students get?": "学生购买火车票有什么优惠？",
          "学生购买火车票有什么优惠？": "Which ticket discount do students get?"}


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply_for = lambda body: ORACLE.get(body["messages"][-1]["content"]) if not body.get("stream") else None
        yield srv


@pytest.fixture
def library(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    (docs / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees.", encoding="utf-8")
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    return docs


def engine_for(tmp_path, server, library, **changes) -> Engine:
    settings = Settings(llm_base_url=server.base_url, llm_model="fake-model", **ENGLISH_MODEL, **changes)
    engine = Engine(resolve_paths(tmp_path / "home"), settings)
    engine.index([library])
    return engine


def translation_requests(server) -> list:
    return [r for r in server.chat_requests() if not r.body.get("stream")]


def test_an_english_question_finds_the_chinese_passage_through_one_cached_translation(tmp_path, server, library):
    engine = engine_for(tmp_path, server, library)
    assert target_languages("Which ticket discount do students get?", engine.store) == ["zh"]
    hits = engine.search("Which ticket discount do students get?", 3)
    assert hits[0].path.endswith("火车票.txt")
    sent = translation_requests(server)
    assert len(sent) == 1 and "Simplified Chinese" in sent[0].body["messages"][0]["content"]
    assert sent[0].body["max_tokens"] <= 200
    engine.search("Which ticket discount do students get?", 3)
    assert len(translation_requests(server)) == 1, "a repeated question is answered from the cache"
    engine.close()


def test_a_chinese_question_is_translated_to_english(tmp_path, server, library):
    engine = engine_for(tmp_path, server, library)
    server.reply_for = lambda body: "Green tea water temperature" if not body.get("stream") else None
    hits = engine.search("绿茶的水温", 3)
    assert hits[0].path.endswith("tea.txt")
    assert "English" in translation_requests(server)[0].body["messages"][0]["content"]
    engine.close()


def test_without_translation_only_the_word_list_finds_the_chinese_passage(tmp_path, server, library, monkeypatch):
    engine = engine_for(tmp_path, server, library, translate_queries=False)
    assert engine.search("Which ticket discount do students get?", 3)[0].path.endswith("火车票.txt")  # the gloss
    monkeypatch.setattr(Runtime, "lexicon", lambda self: None)
    engine.runtime.results.clear()
    engine.runtime.topics.clear()  # the question's topic terms were read with the word list too
    hits = engine.search("Which ticket discount do students get?", 3)
    assert not hits or not hits[0].path.endswith("火车票.txt")  # the English-only model alone misses it
    assert translation_requests(server) == []
    engine.close()


def test_a_failing_or_wrong_language_translation_never_fails_the_search(tmp_path, server, library, caplog):
    engine = engine_for(tmp_path, server, library)
    server.fail_next(500, times=5)
    with caplog.at_level(logging.WARNING):
        assert engine.search("City buses every ten minutes?", 3)[0].path.endswith("bus.txt")
        server.reply_for = lambda body: "Sorry, I cannot help." if not body.get("stream") else None
        assert engine.search("Green tea water?", 3)[0].path.endswith("tea.txt")
    # neither is dropped silently: the log says why
    assert "The question's translation is not used (server)" in caplog.text, caplog.text
    assert "The question's translation is not used: the model's reply is not in Simplified Chinese" in caplog.text
    assert engine.store.db.execute("SELECT count(*) FROM query_translations").fetchone()[0] == 0
    engine.close()


def test_a_silent_server_is_waited_for_once_by_the_translation(tmp_path, server, library):
    """The translation (an extra the search goes on without) waited out a silent server's read timeout on every
    retry, before the answer's own request waited for it again."""
    from desktop_rag.engine.answer.llm import LLMClient
    from desktop_rag.engine.answer.llm_config import LLMConfig
    from desktop_rag.engine.answer.side_requests import SideRequests
    from desktop_rag.engine.search.translation import translate

    engine = engine_for(tmp_path, server, library)
    server.hang_if = lambda body: True
    client = SideRequests(LLMClient(LLMConfig(server.base_url, "fake-model", timeout_s=0.5, max_retries=2,
                                              retry_base_delay_s=0.01)))
    assert translate("Which ticket discount do students get?", "zh", engine.store, client) is None
    assert len(translation_requests(server)) == 1
    engine.close()
