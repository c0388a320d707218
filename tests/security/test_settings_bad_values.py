"""Attack (or accident): a settings.json with a value of the wrong type stopped every command and the window
from starting (`{"top_k": "abc"}`: ValueError; a JSON list: AttributeError), and `"ocr_enabled": "false"` read as
True. A bad value now falls back to its default with a warning naming the key; booleans parse strictly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_rag.config import Settings, load_settings, resolve_paths


def _paths_with(tmp_path: Path, body: str):
    paths = resolve_paths(tmp_path / "home").ensure()
    paths.settings_file.write_text(body, encoding="utf-8")
    return paths


@pytest.mark.parametrize("stored, key, expected", [
    ({"top_k": "abc"}, "top_k", 5),
    ({"top_k": 2.5}, "top_k", 5),
    ({"top_k": 0}, "top_k", 5),
    ({"chunk_size": True}, "chunk_size", 500),
    ({"min_score": "NaN"}, "min_score", 0.0),
    ({"max_file_mb": -1}, "max_file_mb", 100.0),
    ({"ocr_enabled": "maybe"}, "ocr_enabled", True),
    ({"ocr_enabled": 0}, "ocr_enabled", True),
    ({"llm_model": ["gpt"]}, "llm_model", ""),
    ({"embed_batch_size": 10 ** 400}, "embed_batch_size", 64),
])
def test_a_bad_value_falls_back_to_its_default_with_a_warning_naming_the_key(tmp_path, capsys, stored, key,
                                                                                 expected):
    paths = _paths_with(tmp_path, json.dumps({**stored, "temperature": 0.7}))
    settings = load_settings(paths)
    assert getattr(settings, key) == expected
    assert settings.temperature == 0.7  # the good values next to it still count
    assert f"'{key}'" in capsys.readouterr().err


@pytest.mark.parametrize("raw, expected", [("false", False), ("False", False), ("0", False), ("no", False),
                                           ("true", True), ("1", True), (False, False), (True, True)])
def test_booleans_parse_strictly(tmp_path, raw, expected):
    paths = _paths_with(tmp_path, json.dumps({"ocr_enabled": raw, "translate_queries": raw}))
    settings = load_settings(paths)
    assert settings.ocr_enabled is expected and settings.translate_queries is expected


@pytest.mark.parametrize("body", ["[1, 2]", '"top_k"', "{not json", "\xff\xfe"])
def test_a_settings_file_that_is_not_an_object_gives_the_defaults(tmp_path, capsys, monkeypatch, body):
    monkeypatch.delenv("DESKTOP_RAG_EMBED_RUNTIME", raising=False)  # tests/conftest.py's override of a default
    paths = _paths_with(tmp_path, body)
    assert load_settings(paths) == Settings()
    assert "using the default settings" in capsys.readouterr().err


def test_a_bad_environment_override_is_ignored_with_a_warning(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DESKTOP_RAG_TOP_K", "many")
    monkeypatch.setenv("DESKTOP_RAG_CHUNK_SIZE", "300")
    settings = load_settings(resolve_paths(tmp_path / "home").ensure())
    assert (settings.top_k, settings.chunk_size) == (5, 300)
    assert "DESKTOP_RAG_TOP_K" in capsys.readouterr().err


def test_commands_still_run_with_a_bad_settings_file(tmp_path, capsys):
    from desktop_rag.cli.main import main

    _paths_with(tmp_path, json.dumps({"top_k": "abc", "embedding_model": "hash:64"}))
    assert main(["--data-dir", str(tmp_path / "home"), "status"]) == 0
    captured = capsys.readouterr()
    assert "'top_k'" in captured.err and "Embedding model: hash:64" in captured.out
