"""Summary questions (issue 40): a question asking for the gist of a document named in it, or in scope, is answered
by that document's summary, in English and Chinese; questions that only look alike (the cases that fooled the first
rule: no such file, a part of a document, "what does X say about Y", two files of that name) stay questions."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.summary_intent import summary_target
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.messages import message
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent
from tests.support import REPO
from tests.support.openai_server import run_openai_server

SAMPLES = REPO / "resources" / "samples"
NAMES = ["/d/onboarding-guide.md", "/d/办公室搬迁通知.txt", "/d/绿茶冲泡指南.md", "/d/coffee-brewing-guide.txt",
         "/d/getting-started.md", "/d/meeting-2024.md", "/d/meeting-notes.md", "/d/Annual Report 2023.pdf"]
REPORT = "/d/Annual Report 2023.pdf"

CASES = [  # (question, the file in scope, the file summarised or None: an ordinary question)
    ("Summarise the onboarding guide", None, "/d/onboarding-guide.md"),
    ("summarize onboarding-guide.md", None, "/d/onboarding-guide.md"),
    ("What is the coffee brewing guide about?", None, "/d/coffee-brewing-guide.txt"),
    ("What does the coffee guide say?", None, "/d/coffee-brewing-guide.txt"),
    ("What's getting started about?", None, "/d/getting-started.md"),
    ("Give me an overview of the 2023 annual report", None, REPORT),
    ("summarise the annual report", None, REPORT),
    ("Summarise this document", REPORT, REPORT),
    ("summarise", REPORT, REPORT),
    ("总结一下办公室搬迁通知", None, "/d/办公室搬迁通知.txt"),
    ("绿茶冲泡指南讲了什么？", None, "/d/绿茶冲泡指南.md"),
    ("搬迁通知的主要内容", None, "/d/办公室搬迁通知.txt"),
    ("这份报告讲了什么？", REPORT, REPORT),
    ("请帮我概括一下这个文档", REPORT, REPORT),
    # the cases that fooled the first rule
    ("What is photosynthesis about?", None, None),  # no such file
    ("Summarise what the report says about costs", None, None),  # a part of a document
    ("what does the guide say about grinding?", None, None),
    ("总结一下报告中的预算部分", REPORT, None),
    ("summarise the meeting", None, None),  # two files are named "meeting"
    ("这份报告讲了什么？", None, None),  # "this report" with no document in scope
    # ordinary questions
    ("How do I brew green tea?", None, None),
    ("What is the boiling point of water?", None, None),
    ("办公室什么时候搬迁？", None, None),
]


@pytest.mark.parametrize(("question", "scoped", "expected"), CASES)
def test_recognised_summary_questions(question, scoped, expected):
    assert summary_target(question, NAMES, scoped) == expected


@pytest.fixture
def server():
    with run_openai_server() as srv:
        srv.reply = "A summary [1]."
        yield srv


def _engine(tmp_path, server=None) -> Engine:
    values = dict(embedding_model="hash:64", translate_queries=False)
    if server is not None:
        values.update(llm_base_url=server.base_url, llm_model="fake-model")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(**values))
    engine.index([SAMPLES])
    return engine


def test_a_summary_question_is_answered_by_the_documents_summary_in_the_questions_language(tmp_path, server):
    engine = _engine(tmp_path, server)
    for question, name, language in (("总结一下绿茶冲泡指南", "绿茶冲泡指南.md", "Chinese"),
                                     ("What is the coffee brewing guide about?", "coffee-brewing-guide.txt",
                                      "English"),
                                     ("What is 办公室搬迁通知 about?", "办公室搬迁通知.txt", "English")):
        events = list(engine.ask(question))
        sources = next(e for e in events if isinstance(e, SourcesEvent)).hits
        assert {Path(h.path).name for h in sources} == {name}
        system = server.chat_requests()[-1].body["messages"][0]["content"]
        assert system.startswith("You summarise one document") and f"Write in {language}" in system
        assert isinstance(events[-1], DoneEvent) and events[-1].cited == sources[:1]
    list(engine.ask("What is photosynthesis about?"))  # only looks like one: an ordinary answer
    assert server.chat_requests()[-1].body["messages"][0]["content"].startswith("You answer questions")
    engine.close()


def test_this_document_in_scope_and_the_conversation_keeps_both_turns(tmp_path, server):
    engine = _engine(tmp_path, server)
    notice = str(SAMPLES / "办公室搬迁通知.txt")
    conversation = engine.new_conversation("notice")
    events = list(engine.ask("这份文件讲了什么？", conversation, files=[notice]))
    assert {h.path for h in next(e for e in events if isinstance(e, SourcesEvent)).hits} == {notice}
    assert "Write in Chinese" in server.chat_requests()[-1].body["messages"][0]["content"]
    turns = engine.messages(conversation)
    assert [(t.role, t.content) for t in turns] == [("user", "这份文件讲了什么？"), ("assistant", "A summary [1].")]
    assert {h.path for h in turns[1].sources} == {notice}
    engine.close()


def test_without_a_model_the_summary_question_gets_the_extractive_summary(tmp_path):
    engine = _engine(tmp_path)
    done = list(engine.ask("总结一下绿茶冲泡指南"))[-1]
    assert done.mode == "extractive" and done.notice == message("summary_extractive", "zh")
    engine.close()
