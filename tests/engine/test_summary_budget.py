"""A summary's request size (issue 40): the setting when set; automatic (0, the default) from the model's context
window where known (the presets' models; the server's /models listing, read from the local server) or 8000; a
hostile listing (huge, slow, not JSON, absurd numbers) leaves the default, in bounded time; the budget decides
between one request and map-reduce."""

from __future__ import annotations

import json
import time

import pytest

from desktop_rag.config import Settings, load_settings, resolve_paths, save_settings
from desktop_rag.engine.answer import summary_budget as budget_module
from desktop_rag.engine.answer.llm_config import LLMConfig
from desktop_rag.engine.answer.summary_budget import DEFAULT_BUDGET, summary_budget, window_in_listing
from desktop_rag.engine.engine import Engine
from tests.support import REPO
from tests.support.openai_server import run_openai_server

SAMPLE = REPO / "resources" / "samples" / "getting-started.md"


@pytest.fixture
def server():
    budget_module._probed.clear()  # each test's server is a new endpoint
    with run_openai_server() as srv:
        srv.reply = "A summary [1]."
        yield srv
    budget_module._probed.clear()


def _config(server, model: str = "fake-model") -> LLMConfig:
    return LLMConfig(server.base_url, model, "key")


def test_the_setting_wins_and_the_presets_models_are_known():
    assert summary_budget(5000, LLMConfig("http://127.0.0.1:9/v1", "gpt-4o-mini")) == 5000
    assert summary_budget(200, None) == 1000  # never below the least that works
    assert summary_budget(0, None) == DEFAULT_BUDGET  # no model: the default
    assert summary_budget(0, LLMConfig("http://127.0.0.1:9/v1", "gpt-4o-mini")) == 100_000  # 128k, bounded
    assert summary_budget(0, LLMConfig("http://127.0.0.1:9/v1", "deepseek-chat")) == int(65_536 * 0.8)


def test_the_servers_listing_gives_the_window(server):
    server.model_details = {"fake-model": {"max_model_len": 4096}}  # as vLLM says it
    assert summary_budget(0, _config(server)) == int(4096 * 0.8)
    listed = [r for r in server.requests if r.body is None]
    assert len(listed) == 1 and listed[0].headers.get("authorization") == "Bearer key"
    assert summary_budget(0, _config(server)) == int(4096 * 0.8) and len(server.requests) == 1  # asked once
    assert window_in_listing({"data": [{"id": "m", "meta": {"n_ctx_train": 32768}}]}, "m") == 32768  # llama.cpp
    assert window_in_listing({"data": [{"id": "m", "context_length": 8192}, {"id": "n"}]}, "n") is None


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", json.dumps({"data": [{"id": "fake-model",
                                  "context_length": 10 ** 12}]}).encode(),
                                  json.dumps({"data": [{"id": "fake-model", "context_length": True}]}).encode(),
                                  json.dumps({"data": "x" * 1_200_000}).encode()])
def test_a_hostile_listing_leaves_the_default(server, body):
    server.listing_body = body
    assert summary_budget(0, _config(server)) == DEFAULT_BUDGET


def test_a_slow_listing_is_given_up_in_bounded_time(server):
    server.listing_drip = 0.2  # one byte every 0.2 s: minutes for the whole listing
    started = time.monotonic()
    assert summary_budget(0, _config(server)) == DEFAULT_BUDGET
    assert time.monotonic() - started < budget_module.LISTING_DEADLINE_S + 1.5


def test_the_window_decides_one_request_or_map_reduce(tmp_path, server):
    settings = Settings(embedding_model="hash:64", llm_base_url=server.base_url, llm_model="fake-model",
                        translate_queries=False, chunk_size=300)
    server.model_details = {"fake-model": {"context_length": 1500}}  # a small local model
    engine = Engine(resolve_paths(tmp_path / "home"), settings)
    engine.index([SAMPLE])
    assert engine.summary_plan(SAMPLE).mode == "map-reduce"
    budget_module._probed.clear()
    server.model_details = {"fake-model": {"context_length": 32768}}
    assert engine.summary_plan(SAMPLE).mode == "whole"
    engine.apply_settings(settings.replace(summary_budget_tokens=1000), save=False)  # set by hand: it wins
    assert engine.summary_plan(SAMPLE).mode == "map-reduce"
    engine.close()


def test_automatic_is_kept_in_the_settings_file(tmp_path):
    paths = resolve_paths(tmp_path / "home")
    save_settings(paths, Settings(summary_budget_tokens=0))
    assert load_settings(paths).summary_budget_tokens == 0
    save_settings(paths, Settings(summary_budget_tokens=12000))
    assert load_settings(paths).summary_budget_tokens == 12000
