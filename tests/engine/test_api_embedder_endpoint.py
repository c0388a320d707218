"""An endpoint embedding model (`api:MODEL@BASE_URL`) follows the model server's rules for its key and address
(`engine.endpoint`), through the real local server's /v1/embeddings."""

from __future__ import annotations

import logging

import pytest

from desktop_rag.engine.errors import DesktopRagError, error_text
from desktop_rag.engine.models.embedders.api_backend import KEY_ENV, ApiEmbedder
from tests.support.openai_server import EMBEDDING_DIMENSION, run_openai_server


def test_a_key_pasted_with_its_header_words_and_spaces_around_is_sent_without_them(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "  Bearer sk-embed-123 \n")
    with run_openai_server() as server:
        server.api_key = "sk-embed-123"
        vectors = ApiEmbedder(f"api:fake-model@{server.base_url}", timeout_s=5).embed(["tea", "train"])
        assert vectors.shape == (2, EMBEDDING_DIMENSION)
        assert server.requests[-1].headers["authorization"] == "Bearer sk-embed-123"


@pytest.mark.parametrize("key, said", [("sk-emb\u200bed", "U+200B"), ("sk-emb ed", "position 7")])
def test_a_key_no_header_can_carry_is_said_before_any_request(monkeypatch, key, said):
    monkeypatch.setenv(KEY_ENV, key)
    with run_openai_server() as server:
        with pytest.raises(DesktopRagError) as caught:
            ApiEmbedder(f"api:fake-model@{server.base_url}", timeout_s=5).embed(["tea"])
        assert not server.requests
    assert said in str(caught.value) and KEY_ENV in str(caught.value) and "OPENAI_API_KEY" not in str(caught.value)
    chinese = error_text(caught.value, "zh")
    assert "密钥" in chinese and KEY_ENV in chinese and key not in chinese


def test_a_user_and_password_in_the_address_are_never_sent_nor_quoted(monkeypatch, caplog):
    monkeypatch.delenv(KEY_ENV, raising=False)
    with run_openai_server() as server:
        address = server.base_url.replace("://", "://me:hunter2secret@")
        with caplog.at_level(logging.WARNING):
            embedder = ApiEmbedder(f"api:fake-model@{address}", timeout_s=5)
        embedder.embed(["tea"])
        assert server.requests[-1].headers["authorization"] == "Bearer not-needed"
        assert "hunter2secret" not in embedder.base_url and "user:password@" in caplog.text
    with pytest.raises(DesktopRagError) as caught:  # the server gone: the message quotes the address without them
        ApiEmbedder(f"api:fake-model@{address}", timeout_s=2).embed(["train"])
    assert "hunter2secret" not in str(caught.value) and "me:" not in str(caught.value)


def _index_through(tmp_path, model_id):
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine import Engine

    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "tea.txt").write_text("Green tea is brewed at eighty degrees for two minutes.", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=model_id))
    engine.index([docs])
    return engine


def test_a_user_and_password_in_an_endpoint_model_id_are_neither_stored_nor_shown(tmp_path, monkeypatch):
    """The `api:` model id, user:password@ and all, was the index's recorded model: in its meta, the status line,
    `status` and an export's manifest."""
    import json
    import zipfile

    monkeypatch.delenv(KEY_ENV, raising=False)
    with run_openai_server() as server:
        shown = f"api:fake-model@{server.base_url}"
        engine = _index_through(tmp_path, shown.replace("://", "://me:hunter2secret@"))
        try:
            assert engine.store.db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()[0] == shown
            status = engine.status()
            assert status.embedding_model == shown and status.chunks_pending_embedding == 0
            assert "hunter2secret" not in json.dumps(status.to_json())  # `desktop-rag status --json`
            assert engine.reembed_plan() is None  # the settings' id and the stored one are the same model
            engine.export_collection(engine.collection_id("Default"), tmp_path / "a.zip")
        finally:
            engine.close()
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        assert not any(b"hunter2secret" in archive.read(name) for name in archive.namelist())


def test_a_library_stored_with_a_user_and_password_in_its_model_id_shows_it_without(tmp_path, monkeypatch):
    """A library an earlier version indexed with such an id keeps it in its meta: read, it is shown without them, and
    the same settings are still the same model (no re-embedding)."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    with run_openai_server() as server:
        shown = f"api:fake-model@{server.base_url}"
        written = shown.replace("://", "://me:hunter2secret@")
        engine = _index_through(tmp_path, written)
        with engine.store.transaction() as db:  # as an earlier version stored it
            db.execute("UPDATE meta SET value = ? WHERE key = 'embedding_model'", (written,))
        try:
            assert engine.store.get_meta("embedding_model") == shown
            assert engine.status().embedding_model == shown and engine.index_model == shown
            assert engine.reembed_plan() is None
            assert engine.search("green tea temperature", 1)
        finally:
            engine.close()


def test_a_switch_an_earlier_version_staged_under_such_an_id_is_swapped_in(tmp_path, monkeypatch):
    """Its mark (`staged_model`) is read without the user:password@, so the swap matches the mark as stored: it
    found no mark of that (shown) value, and the switch never finished."""
    import numpy as np

    from desktop_rag.engine.store import staged_vectors

    monkeypatch.delenv(KEY_ENV, raising=False)
    with run_openai_server() as server:
        shown = f"api:other-model@{server.base_url}"
        engine = _index_through(tmp_path, f"api:fake-model@{server.base_url}")
        try:
            store = engine.store
            staged_vectors.begin(store, shown)
            with store.transaction() as db:  # the mark as an earlier version wrote it
                db.execute("UPDATE meta SET value = ? WHERE key = 'staged_model'",
                           (shown.replace("://", "://me:hunter2secret@"),))
            ids = [row[0] for row in store.db.execute("SELECT id FROM chunks").fetchall()]
            matrix = np.eye(len(ids), EMBEDDING_DIMENSION, dtype=np.float32)
            assert staged_vectors.stage(store, shown, ids, matrix)
            assert staged_vectors.swap(store, shown, EMBEDDING_DIMENSION)
            assert store.get_meta("embedding_model") == shown and staged_vectors.model(store) is None
        finally:
            engine.close()


def test_an_endpoint_that_refuses_the_connection_says_the_systems_reason_in_either_language(monkeypatch):
    """It said "could not be reached: Connection error." (the SDK's words, whatever the reason), in Chinese too."""
    from tests.support.unreachable import closed_port_url

    monkeypatch.delenv(KEY_ENV, raising=False)
    address = closed_port_url()
    with pytest.raises(DesktopRagError) as caught:
        ApiEmbedder(f"api:fake-model@{address}", timeout_s=5).embed(["tea"])
    assert str(caught.value) == f"The embedding endpoint {address} could not be reached: Connection refused"
    assert error_text(caught.value, "zh") == f"无法连接嵌入服务 {address}：连接被拒绝"
