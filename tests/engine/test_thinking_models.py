"""The models seen opening thinking, kept across sessions (engine/answer/thinking_models.py): bounded, naming no
server, model or key, and a damaged or foreign file is only ignored."""

from __future__ import annotations

import json

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import resolve_llm_config
from desktop_rag.engine.answer.thinking_models import (
    BLOCK,
    MAX_BYTES,
    MAX_MODELS,
    ThinkingModel,
    finished_reply,
    model_key as key_of,
    models_file,
    read_models,
    write_model,
)

SETTINGS = Settings(llm_provider="custom", llm_base_url="http://127.0.0.1:8080/v1?api-key=secret123",
                    llm_model="qwen3-secret-name")


def model_key(settings: Settings, model: str) -> str:
    """The key of `model` on the server these settings answer with (as the engine makes it)."""
    config = resolve_llm_config(settings)
    assert config is not None
    return key_of(config.shown_url, model)


def test_a_model_is_kept_by_a_hash_of_its_address_and_name(tmp_path):
    path = models_file(resolve_paths(tmp_path))
    key = model_key(SETTINGS, "qwen3-secret-name")
    write_model(path, key, True)
    text = path.read_text(encoding="utf-8")
    assert read_models(path) == {key: True}
    assert not any(word in text for word in ("127.0.0.1", "qwen3", "secret"))
    assert key != model_key(SETTINGS, "another-model")
    assert key != model_key(SETTINGS.replace(llm_base_url="http://127.0.0.1:9090/v1"), "qwen3-secret-name")
    assert key == model_key(SETTINGS.replace(llm_base_url="http://127.0.0.1:8080/v1"), "qwen3-secret-name")  # no query


def test_only_the_models_last_seen_are_kept(tmp_path):
    path = models_file(resolve_paths(tmp_path))
    keys = [model_key(SETTINGS, f"model-{i}") for i in range(MAX_MODELS + 10)]
    for key in keys:
        write_model(path, key, False)
    write_model(path, keys[20], True)  # seen again: the newest
    models = read_models(path)
    assert len(models) == MAX_MODELS and list(models)[-1] == keys[20] and models[keys[20]] is True
    assert keys[0] not in models and path.stat().st_size < MAX_BYTES


def test_a_damaged_or_foreign_file_is_ignored_then_replaced(tmp_path):
    path = models_file(resolve_paths(tmp_path))
    path.parent.mkdir(parents=True)
    key = model_key(SETTINGS, "m")
    for junk in ("not json", "[1, 2]", json.dumps({"short": True, key: "yes"}), "\ufffe\x00",
                 json.dumps({key: True, "x" * 32: [1]}) + " " * MAX_BYTES):
        path.write_text(junk, encoding="utf-8")
        assert read_models(path) == {}
    path.write_text(json.dumps({"short": True, key: False}), encoding="utf-8")
    assert read_models(path) == {key: False}
    write_model(path, key, True)
    assert json.loads(path.read_text(encoding="utf-8")) == {key: True}


def test_a_think_block_is_noted_apart_from_a_templates_thinking(tmp_path):
    """A `<think>` block opening a reply is noted (its model thinks first) without making the model's answers
    held, or a stopped answer past its block read as thinking; a template's lone `</think>` outranks it."""
    path = models_file(resolve_paths(tmp_path))
    model = ThinkingModel(path, "http://127.0.0.1:8080/v1", "r1")
    model.learn("The answer.", False, opened=True)  # the block was taken out as it streamed
    assert (model.thinks(), model.thinks_first(), list(read_models(path).values())) == (False, True, [BLOCK])
    model.learn("An answer with no thinking.", True)  # a plain whole reply does not unlearn it
    assert model.thinks_first()
    stopped = finished_reply(model, model.thinks(), "Half an answer", False, opened=True)
    assert stopped == ("Half an answer", False)
    model.learn("Thinking\n</think>\nThe answer.", True)
    model.learn("The answer.", True, opened=True)
    assert (model.thinks(), model.thinks_first()) == (True, True)
    path.write_text(json.dumps({"a" * 32: "other"}), encoding="utf-8")
    assert read_models(path) == {}
