"""`ask` end to end: real index of the samples, a real local chat-completions server, streaming and citations."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from desktop_rag.config import Settings, resolve_paths, resource_path
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent, TokenEvent
from tests.support.interrupted import interrupted_on_a_terminal
from tests.support.openai_server import run_openai_server

KEY = "sk-test-SECRET1234567890abcdefXYZ"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    home = tmp_path_factory.mktemp("library")
    engine = Engine(resolve_paths(home), Settings())
    assert not engine.index([resource_path("samples")]).failed
    engine.close()
    return home


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def ask(home, question, env_extra, *flags):
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "ask", question, *flags],
                          capture_output=True, text=True, timeout=300, env=env)


def test_cli_ask_streams_the_model_answer_and_lists_cited_sources(library, server):
    server.api_key = KEY
    server.reply = "Brew between 90 and 96 degrees Celsius [1]. Keep beans airtight [2] [9]."
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "fake-model"}
    out = ask(library, "What water temperature is best for coffee?", env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Brew between 90 and 96 degrees Celsius [1].")
    assert "Sources:" in out.stdout and "coffee-brewing-guide.txt" in out.stdout.split("Sources:")[1]
    assert KEY not in out.stdout + out.stderr

    request = server.chat_requests()[-1]
    assert request.body["stream"] is True
    user = request.body["messages"][-1]["content"]
    assert "What water temperature is best for coffee?" in user and "90 and 96" in user

    out = ask(library, "What water temperature is best for coffee?", env, "--json")
    answer = json.loads(out.stdout)
    assert answer["mode"] == "llm" and "[9]" not in answer["answer"], "a citation of no passage is removed"
    assert answer["sources"][0]["path"].endswith("coffee-brewing-guide.txt") and answer["sources"][0]["rank"] == 1


def test_cli_ask_without_a_model_answers_extractively(library):
    out = ask(library, "新办公室在哪里？", {}, "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["mode"] == "extractive" and "三号楼" in answer["answer"] and "[1]" in answer["answer"]
    assert answer["sources"][0]["path"].endswith("办公室搬迁通知.txt")


def test_cli_ask_reports_an_unreachable_endpoint_clearly(library):
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_MODEL": "m"}
    out = ask(library, "What about coffee?", env)
    assert out.returncode == 1
    assert "error:" in out.stderr and "Traceback" not in out.stderr and KEY not in out.stderr


def test_conversation_persists_and_follow_up_is_rewritten(library, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    engine = Engine(resolve_paths(library), Settings(llm_base_url=server.base_url, llm_model="fake-model"))
    conversation = engine.new_conversation("Coffee")
    server.reply = "Use 90 to 96 degrees [1]."
    events = list(engine.ask("What water temperature is best for coffee?", conversation))
    assert isinstance(events[0], SourcesEvent) and isinstance(events[-1], DoneEvent)
    assert "".join(e.text for e in events if isinstance(e, TokenEvent)) == "Use 90 to 96 degrees [1]."

    server.queue_reply("coffee grind size for a French press")  # the model's standalone rewrite
    server.reply = "Coarse [1]."
    events = list(engine.ask("and the grind?", conversation))
    sources = events[0]
    assert isinstance(sources, SourcesEvent) and sources.query == "coffee grind size for a French press"
    assert sources.hits[0].path.endswith("coffee-brewing-guide.txt")
    engine.close()

    reopened = Engine(resolve_paths(library), Settings())
    turns = reopened.messages(conversation)
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[1].content == "Use 90 to 96 degrees [1]." and turns[1].sources[0].path.endswith(".txt")
    assert [c.title for c in reopened.conversations()] == ["Coffee"]
    reopened.close()


def test_samples_green_tea_question_cites_the_chinese_guide_first(library):
    """English question, Chinese answer passage: the default (multilingual) model finds it, offline."""
    out = ask(library, "How hot should the water be when making green tea?", {}, "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["mode"] == "extractive"
    assert answer["sources"][0]["path"].endswith("绿茶冲泡指南.md")
    assert "[1]" in answer["answer"] and "八十度" in answer["answer"]


def test_samples_coffee_question_in_chinese_ranks_the_english_coffee_guide_first(library):
    """Chinese question, English answer passage, no model: the language-centred query (search/calibration.py)
    puts the coffee guide above the Chinese tea guide, and the answer quotes no help text."""
    out = ask(library, "冲咖啡时咖啡粉和水的比例是多少？", {}, "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    first = answer["sources"][0]
    assert first["rank"] == 1 and first["path"].endswith("coffee-brewing-guide.txt")
    assert "sixteen grams of water. [1]" in answer["answer"]
    assert "square brackets" not in answer["answer"]  # getting-started.md is help text, not an answer about coffee


def test_ctrl_c_while_the_answer_streams_says_interrupted_on_a_line_of_its_own(library, server):
    """After Ctrl-C mid-answer, the terminal showed "…between 90 andinterrupted": the word on the answer's line. On a
    terminal (a pseudo-terminal here): only there does a model's answer stream; to a pipe it comes at its end."""
    server.reply = "Brew between 90 and 96 degrees Celsius, then wait four minutes before you press the plunger [1]."
    server.token_delay = 0.3
    env = dict(os.environ, OPENAI_API_KEY=KEY, OPENAI_BASE_URL=server.base_url, OPENAI_MODEL="fake-model")
    before, streamed, err, code = interrupted_on_a_terminal(
        [sys.executable, "-m", "desktop_rag", "--data-dir", str(library), "ask",
         "What water temperature is best for coffee?"], env, b"between")
    assert b"between" in before and b"Celsius" not in before, before  # mid-answer, its line still open
    out = streamed.decode("utf-8").replace("\r\n", "\n").replace("\0337", "")
    assert code == 130 and err.decode("utf-8").endswith("interrupted\n"), err
    assert out.startswith("Brew between") and out.endswith("\n") and "Sources:" not in out, out