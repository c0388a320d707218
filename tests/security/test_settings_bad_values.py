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


@pytest.mark.parametrize("lang, lines", [
    ("zh_CN.UTF-8", ("警告：设置文件 settings.json 中设置项“top_k”的值 'abc' 无法使用，已改用默认值 5；",
                     "警告：环境变量 DESKTOP_RAG_CHUNK_SIZE（设置项“chunk_size”）的值 'big' 无法使用，已改用默认值 500；",
                     "警告：设置项“chunk_overlap”不小于“chunk_size”，已改为片段之间不重叠",
                     "警告：设置文件 {settings} 不是有效的 JSON（第 2 行第 1 列有误），已改用默认设置；")),
    ("en_US.UTF-8", ("warning: the setting 'top_k' in settings.json has an unusable value 'abc'; using the default 5",
                     "warning: the setting 'chunk_size' in the environment variable DESKTOP_RAG_CHUNK_SIZE has an "
                     "unusable value 'big'; using the default 500",
                     "warning: the setting 'chunk_overlap' is not smaller than 'chunk_size'; using no overlap",
                     "warning: {settings} is not valid JSON (line 2, column 1); using the default settings")),
])
def test_the_warnings_are_in_the_locales_language(tmp_path, lang, lines):
    """`desktop-rag status` under a Chinese locale said every settings warning in English."""
    import subprocess
    import sys

    from tests.support import REPO
    from tests.support.hash_cli import environment

    paths = _paths_with(tmp_path, json.dumps({"top_k": "abc", "chunk_overlap": 900}))

    def status(**extra: str) -> str:
        run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home"), "status"],
                             cwd=REPO, env=environment(lang, **extra), capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        return run.stderr

    said = status(DESKTOP_RAG_CHUNK_SIZE="big")
    for line in lines[:3]:
        assert line in said, said
    paths.settings_file.write_text('{"top_k": \n', encoding="utf-8")
    assert lines[3].format(settings=paths.settings_file) in status(), lines[3]


def test_a_settings_file_nested_past_the_json_decoder_gives_the_defaults(tmp_path):
    """A settings.json of 100,000 nested lists ended every command and the window in a RecursionError."""
    import subprocess
    import sys

    from desktop_rag.config import save_settings
    from tests.support import REPO
    from tests.support.hash_cli import environment

    paths = _paths_with(tmp_path, "[" * 100_000 + "]" * 100_000)
    said = {}
    for lang in ("zh_CN.UTF-8", "en_US.UTF-8"):
        run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home"), "status"],
                             cwd=REPO, env=environment(lang), capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
        said[lang] = run.stderr
    assert f"警告：设置文件 {paths.settings_file} 的嵌套层级太深，不可能是设置文件，已改用默认设置；" in said["zh_CN.UTF-8"]
    assert (f"warning: {paths.settings_file} is nested too deeply to be a settings file; using the default settings"
            in said["en_US.UTF-8"])
    save_settings(paths, Settings(top_k=7), previous=Settings())  # (what the window does: the file read quietly)
    assert json.loads(paths.settings_file.read_text(encoding="utf-8"))["top_k"] == 7
