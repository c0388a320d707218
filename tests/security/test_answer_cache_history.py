"""Issue 35 (1): a stored answer never carries one conversation's history into another chat, the CLI or MCP.

A conversation tells the (local, echoing) model a passport number, then asks a question that stands alone; the
model's answer repeats the earlier turns, as a model with history may. Asked again by `desktop-rag ask --json`
(a real child process, another API key) or by the MCP `ask` tool, the question must reach the model afresh and
the answer must not hold the number: answers made with a conversation's history are never stored. Deleting the
conversation removes every answer it produced.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths, save_settings
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.answer.events import DoneEvent
from tests.support.hash_cli import ENV, run_cli
from tests.support.mcp_session import run_mcp

SECRET = "X1234567"
QUESTION = "How often do city buses run at night?"


def _echo(body: dict) -> str:
    """An echoing model: it repeats every earlier turn it was sent, then answers."""
    earlier = [m["content"] for m in body.get("messages", [])[1:-1]]
    return ("Earlier you said: " + " / ".join(earlier) + ". " if earlier else "") + "Every half hour [1]."


@pytest.fixture
def library(tmp_path: Path, model_server, monkeypatch) -> Path:
    """A library whose settings use the local model; a conversation whose history holds the secret. The commands
    and the MCP server run on it use another API key."""
    monkeypatch.setitem(ENV, "OPENAI_API_KEY", "sk-another-key-after-the-change")
    model_server.reply_for = _echo
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day. At night they run every half "
                                  "hour.", encoding="utf-8")
    home = tmp_path / "home"
    paths = resolve_paths(home)
    settings = Settings(embedding_model="hash:64", llm_base_url=model_server.base_url, llm_model="fake-model",
                        translate_queries=False)
    paths.ensure()
    save_settings(paths, settings)
    engine = Engine(paths, settings)
    try:
        engine.index([docs])
        conversation = engine.new_conversation()
        list(engine.ask(f"My passport number is {SECRET}.", conversation_id=conversation))
        done = list(engine.ask(QUESTION, conversation_id=conversation))[-1]
        assert isinstance(done, DoneEvent) and SECRET in done.answer, "the model saw the conversation's history"
    finally:
        engine.close()
    return home


def _delete_conversations(home: Path) -> None:
    engine = Engine(resolve_paths(home), Settings(embedding_model="hash:64"))
    try:
        for conversation in engine.conversations():
            engine.delete_conversation(conversation.id)
    finally:
        engine.close()


def _stored(home: Path) -> list[str]:
    with sqlite3.connect(home / "library.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT answer FROM answer_cache")]


@pytest.mark.parametrize("conversation", ["kept", "deleted"])
def test_cli_ask_json_never_replays_the_conversation_history(library: Path, model_server, conversation: str):
    if conversation == "deleted":
        _delete_conversations(library)
        assert _stored(library) == [], "deleting the conversation removes the answers it produced"
    asked = len(model_server.chat_requests())
    out = run_cli(library, "ask", QUESTION, "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert SECRET not in out.stdout + out.stderr
    assert answer["cached"] is False and answer["mode"] == "llm"
    assert len(model_server.chat_requests()) == asked + 1, "the question reached the model afresh"
    assert not any(SECRET in text for text in _stored(library))


def test_mcp_ask_never_replays_the_conversation_history(library: Path, model_server):
    async def ask(session) -> str:
        result = await session.call_tool("ask", {"question": QUESTION})
        assert not result.is_error, result.content
        return json.dumps(result.structured_content, ensure_ascii=False)

    asked = len(model_server.chat_requests())
    text = run_mcp(library, ask)
    assert SECRET not in text and "Every half hour" in text
    assert len(model_server.chat_requests()) == asked + 1, "the question reached the model afresh"


def test_cli_clear_answers_removes_every_stored_answer(library: Path):
    assert _stored(library), "the conversation's first answer (asked without history) was stored"
    out = run_cli(library, "clear-answers", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"removed": 1} and _stored(library) == []
