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
