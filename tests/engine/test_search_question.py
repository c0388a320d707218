"""One search works out its question once (search/question.py): the language of the question is detected once,
however many stages read it (translation, calibration, retrieval, fusion)."""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.text import language
from tests.support.openai_server import run_openai_server

QUESTION = "Which ticket discount do students get?"
ORACLE = {QUESTION: "学生购买火车票有什么优惠？"}


@pytest.fixture
def engine(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "火车票.txt").write_text("学生购买火车票可以享受半价优惠，需要出示学生证。", encoding="utf-8")
    (docs / "tea.txt").write_text("Green tea is brewed with water at about eighty degrees.", encoding="utf-8")
    with run_openai_server() as server:
        server.reply_for = lambda body: ORACLE.get(body["messages"][-1]["content"]) if not body.get("stream") else None
        engine = Engine(resolve_paths(tmp_path / "home"),
                        Settings(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model"))
        engine.index([docs])
        yield engine, server
        engine.close()


def detections(monkeypatch) -> Counter:
    """Every call of the language detection anywhere in the package, by the text it was asked about."""
    real, seen = language.text_languages, Counter()

    def counting(text, *args, **kwargs):
        seen[text] += 1
        return real(text, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("desktop_rag") and getattr(module, "text_languages", None) is real:
            monkeypatch.setattr(module, "text_languages", counting)
    return seen


def test_the_questions_language_is_decided_once_per_search(engine, monkeypatch):
    engine, server = engine
    seen = detections(monkeypatch)
    hits = engine.search(QUESTION, 3)
    assert hits.translations == (("zh", ORACLE[QUESTION]),), "the question was translated and searched in both languages"
    assert [r for r in server.chat_requests() if not r.body.get("stream")], "the translator was asked"
    assert seen[QUESTION] == 1, f"the question's language was worked out {seen[QUESTION]} times"
    assert seen[ORACLE[QUESTION]] == 2  # the translation's: checked when it arrives, then once as searched
    engine.runtime.results.clear()
    seen.clear()
    engine.search(QUESTION, 3)  # the cached translation: still once
    assert seen[QUESTION] == 1
