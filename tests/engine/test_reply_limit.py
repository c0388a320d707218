"""A model reply's token limit is a setting (`max_reply_tokens`, 2,048 by default): a thinking model (DeepSeek-R1
distills, QwQ) thinks past 2,048 tokens, so its reply was cut inside its thinking with no answer and no way out.
The settings file, DESKTOP_RAG_MAX_REPLY_TOKENS and the Settings dialog set it; every answer request sends it (the
real local server sees it), and a reply cut at it inside its thinking says to raise it."""

from __future__ import annotations

import json

import pytest

from desktop_rag.config import Settings, load_settings, resolve_paths
from desktop_rag.engine import Engine, resolve_llm_config
from desktop_rag.engine.store.values import CUT_AT_LIMIT
from tests.support.openai_server import run_openai_server

THOUGHT = "<think>Weighing the first passage against the second one at length before answering. "
ANSWER = "</think>\n\nYou get 25 days of leave [1]."


@pytest.fixture
def server():
    with run_openai_server() as srv:
        yield srv


def test_the_reply_limit_is_a_setting_bounded_like_the_others(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DESKTOP_RAG_MAX_REPLY_TOKENS", raising=False)
    paths = resolve_paths(tmp_path / "home").ensure()
    assert load_settings(paths).max_reply_tokens == Settings().max_reply_tokens == 2048
    paths.settings_file.write_text(json.dumps({"max_reply_tokens": 16384}), encoding="utf-8")
    assert load_settings(paths).max_reply_tokens == 16384
    for bad in (100, 2_000_000, "many", 8192.5):
        paths.settings_file.write_text(json.dumps({"max_reply_tokens": bad}), encoding="utf-8")
        assert load_settings(paths).max_reply_tokens == 2048, bad
        assert "'max_reply_tokens'" in capsys.readouterr().err
    monkeypatch.setenv("DESKTOP_RAG_MAX_REPLY_TOKENS", "32000")
    assert load_settings(paths).max_reply_tokens == 32000
    local = Settings(llm_base_url="http://127.0.0.1:1/v1", llm_model="m")
    assert resolve_llm_config(local, {}).max_tokens == 2048
    raised = resolve_llm_config(local.replace(max_reply_tokens=16384), {})
    assert raised.max_tokens == 16384
    # a lone </think>'s thinking comes as the reply's text: the characters taken of a reply follow the limit
    assert raised.max_answer_chars == raised.thinking_chars == 4 * 16384
    # and its time: at 10 tokens a second (a thinking model on a CPU), at least 300 s; a side request's is its own
    assert (resolve_llm_config(local, {}).deadline_s, raised.deadline_s) == (300.0, 1638.4)
    assert (raised.deadline_for(200), raised.deadline_for(None)) == (300.0, 1638.4)


def _engine(server, tmp_path, **changes) -> Engine:
    """An engine answering with `server`'s model over one indexed document."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leave.txt").write_text("Employees get 25 days of leave.\n", encoding="utf-8")
    settings = Settings(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                        translate_queries=False, answer_cache=False, **changes)
    engine = Engine(resolve_paths(tmp_path / "home"), settings)
    engine.index([tmp_path / "docs"])
    return engine


def _thinking_server(server, needs: int) -> None:
    """A thinking model whose thinking takes `needs` tokens: under a lower max_tokens its reply ends inside the
    think block, stopped at the limit (finish_reason "length"); else it answers."""
    server.reply_for = lambda body: THOUGHT + (ANSWER if body.get("max_tokens", 0) >= needs else "")
    server.finish_for = lambda body: "stop" if body.get("max_tokens", 0) >= needs else "length"


def test_a_reply_cut_inside_its_thinking_names_the_setting_and_a_raised_one_answers(server, tmp_path):
    _thinking_server(server, needs=8000)
    engine = _engine(server, tmp_path)
    try:
        cut = list(engine.ask("How much leave?"))[-1]
        assert server.chat_requests()[-1].body["max_tokens"] == 2048
        assert cut.answer == "" and cut.ending.state == CUT_AT_LIMIT, cut
        assert cut.notice.code == "llm_token_limit_thinking"
        assert "2,048 tokens" in cut.notice.text("en")
        assert "`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`" in cut.notice.text("en")
        assert "max_reply_tokens" in cut.notice.text("zh") and "调高回复上限" in cut.notice.text("zh")
        engine.apply_settings(engine.settings.replace(max_reply_tokens=8192), save=False)
        done = list(engine.ask("How much leave?"))[-1]
        assert server.chat_requests()[-1].body["max_tokens"] == 8192
        assert done.answer == "You get 25 days of leave [1].", done
        assert done.ending is None
    finally:
        engine.close()


def test_a_reply_cut_mid_answer_names_the_setting_too(server, tmp_path):
    """Cut after its answer began (its thinking done), a reply said only "ask a narrower question": the reply limit
    that cut it, and how to raise it, are named as a cut inside the thinking names them (English and Chinese)."""
    server.tokens, server.finish_reason = [THOUGHT, "</think>\n\nYou get", " 25 days"], "length"
    engine = _engine(server, tmp_path)
    try:
        cut = list(engine.ask("How much leave?"))[-1]
    finally:
        engine.close()
    assert cut.answer == "You get 25 days" and cut.ending.state == CUT_AT_LIMIT, cut
    assert cut.notice.code == "llm_token_limit"
    assert cut.notice.text("en").startswith("The model stopped at its limit of 2,048 tokens for one reply")
    assert "Raise the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`)" \
        in cut.notice.text("en")
    zh = cut.notice.text("zh")
    assert zh.startswith("模型在单次回复 2,048 个 token 的上限处停止") and "调高回复上限" in zh and "max_reply_tokens" in zh


def test_a_lone_closing_tags_long_thinking_answers_under_a_raised_limit(server, tmp_path):
    """A model whose chat template opened the thinking (no `<think>` is sent) thinks for 40,000 characters: the
    client's cap of 24,000 characters a reply cut it there whatever the reply limit said."""
    thinking = "Weighing passage one against two. " * 1200  # 40,800 characters
    server.tokens = [thinking[i:i + 500] for i in range(0, len(thinking), 500)] + [ANSWER]
    engine = _engine(server, tmp_path, max_reply_tokens=16384)
    try:
        done = list(engine.ask("How much leave?"))[-1]
        assert done.answer == "You get 25 days of leave [1].", (done.answer[:80], done.notice)
    finally:
        engine.close()
