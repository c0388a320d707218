"""An environment override lasts while it is set: saving the settings (the window's Settings → OK, a language
switch) keeps the file's own value of an overridden setting, so `desktop-rag --library URL` tried once, or a
DESKTOP_RAG_TOP_K of one session, is not what every later start uses; a value the user changed is saved."""

from __future__ import annotations

import json

from desktop_rag.config import LIBRARY_ENV, load_settings, resolve_paths, save_settings

SERVER = "postgresql://me@db.example:5432/lib"


def test_an_override_is_not_saved_when_another_setting_is(tmp_path, monkeypatch):
    paths = resolve_paths(tmp_path / "home")
    save_settings(paths, load_settings(paths).replace(chunk_size=800))  # the file's own values
    monkeypatch.setenv("DESKTOP_RAG_TOP_K", "9")
    monkeypatch.setenv("DESKTOP_RAG_CHUNK_SIZE", "300")
    monkeypatch.setenv(LIBRARY_ENV, SERVER)  # as `desktop-rag --library URL` sets it
    overridden = load_settings(paths)
    assert (overridden.top_k, overridden.chunk_size, overridden.library) == (9, 300, SERVER)
    save_settings(paths, overridden.replace(ui_language="zh", chunk_overlap=20))
    for name in ("DESKTOP_RAG_TOP_K", "DESKTOP_RAG_CHUNK_SIZE", LIBRARY_ENV):
        monkeypatch.delenv(name)
    later = load_settings(paths)
    assert (later.top_k, later.chunk_size, later.library) == (5, 800, "")  # the file's (or the default)
    assert (later.ui_language, later.chunk_overlap) == ("zh", 20)  # what was changed


def test_a_setting_changed_away_from_its_override_is_saved(tmp_path, monkeypatch):
    paths = resolve_paths(tmp_path / "home")
    monkeypatch.setenv("DESKTOP_RAG_TOP_K", "9")
    monkeypatch.setenv(LIBRARY_ENV, SERVER)
    save_settings(paths, load_settings(paths).replace(top_k=12, library=""))
    stored = json.loads(paths.settings_file.read_text(encoding="utf-8"))
    assert (stored["top_k"], stored["library"]) == (12, "")


def test_saving_what_changed_from_an_older_file_writes_it_whole(tmp_path):
    """A file of 0.1 (no settings_version: its spelled-out default model is read as "auto"): choosing the bundled
    model from it writes the whole settings with their version, so the choice is not read back as "auto"."""
    from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL

    paths = resolve_paths(tmp_path / "home")
    paths.config_dir.mkdir(parents=True)
    paths.settings_file.write_text(json.dumps({"embedding_model": BUNDLED_MODEL, "top_k": 7}), encoding="utf-8")
    old = load_settings(paths)
    assert (old.embedding_model, old.top_k) == (AUTO_MODEL, 7)
    save_settings(paths, old.replace(embedding_model=BUNDLED_MODEL), previous=old)
    later = load_settings(paths)
    assert (later.embedding_model, later.top_k) == (BUNDLED_MODEL, 7)
