"""`ask --json` says what happened to a model's answer: a failure gave `"mode": "extractive"` and no error (a script
saw an empty extractive answer), an answer cut short had no notice (it read as whole)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.hash_cli import CLI_KEY as KEY
from tests.support.hash_cli import ENV, indexed_home, run_cli, use_locale


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return indexed_home(tmp_path_factory.mktemp("ask"), {"tea.txt": "Green tea is brewed at 80 degrees.\n"})


@pytest.fixture
def server(cli_model):
    return cli_model


def test_a_failed_model_answer_says_so_in_the_json(home, server):
    server.api_key = "sk-another-key-0000000000000"  # the server echoes the key it got in its 401
    run = run_cli(home, "ask", "How hot is the water for green tea?", "--json")
    answer = json.loads(run.stdout)
    assert run.returncode == 1 and answer["mode"] == "llm" and answer["code"] == "llm_auth"
    assert answer["error"].startswith("The API key was rejected") and KEY not in run.stdout + run.stderr
    assert answer["sources"][0]["path"].endswith("tea.txt")  # the passages found are still given


def test_an_answer_cut_short_has_its_notice_in_the_json(home, server):
    server.reply, server.finish_reason = "Green tea is brewed at", "length"
    run = run_cli(home, "ask", "What temperature for green tea?", "--json")
    answer = json.loads(run.stdout)
    assert run.returncode == 0 and answer["answer"] == "Green tea is brewed at" and "error" not in answer
    assert answer["notice"].startswith("The model stopped at its limit of 2,048 tokens")


@pytest.mark.parametrize("locale, says", [("zh_CN.UTF-8", "(模型在单次回复 2,048 个 token 的上限处停止"),
                                          ("en_US.UTF-8", "(The model stopped at its limit of 2,048 tokens")])
def test_an_answer_cut_short_says_so_in_the_locales_language(home, server, monkeypatch, locale, says):
    """The notice is coded: said in the command line's language, whatever the question's (it was the question's)."""
    use_locale(monkeypatch, locale, ENV)
    server.reply, server.finish_reason = "Green tea is brewed at", "length"
    run = run_cli(home, "ask", "What temperature for green tea?")
    assert run.returncode == 0 and says in run.stdout, run.stdout
