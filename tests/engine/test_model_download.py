"""Model downloads from a real loopback hub: complete, resumed, cancelled, verified, hostile listings."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import pytest

from desktop_rag.engine.errors import error_text
from desktop_rag.engine.models import catalog as model_catalog
from desktop_rag.engine.models import download as model_download
from desktop_rag.engine.models.download import (
    DownloadCancelled,
    DownloadError,
    DownloadProgress,
    RemoteFile,
    download_model,
    select_files,
)
from tests.support.hub_server import FakeHub, fake_model_files, repo_from_folder, run_hub_server
from tests.support.unreachable import closed_port

REPO = "acme/tiny-embed"
WANTED = {"config.json", "modules.json", "sentence_bert_config.json", "config_sentence_transformers.json",
          "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "sentencepiece.bpe.model",
          "1_Pooling/config.json", "model.safetensors", "README.md"}


@pytest.fixture
def hub():
    with run_hub_server() as server:
        yield server


def _files_in(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _slow_big_repo(hub: FakeHub, size: int = 3_000_000) -> dict[str, bytes]:
    files = fake_model_files(weights_bytes=size)
    hub.add_repo(REPO, files)
    return files


def test_full_download_lands_atomically_with_only_the_needed_files(hub, tmp_path):
    files = fake_model_files()
    repo = hub.add_repo(REPO, files)
    events: list[DownloadProgress] = []
    folder = download_model(REPO, tmp_path, endpoint=hub.endpoint, on_progress=events.append)

    assert folder == tmp_path / "models" / "acme--tiny-embed" == model_download.local_model_path(tmp_path, REPO)
    assert _files_in(folder) == WANTED | {model_catalog.MANIFEST_NAME}
    for name in WANTED:
        assert (folder / name).read_bytes() == files[name], name
    assert model_download.is_downloaded(tmp_path, REPO)
    assert [p.name for p in (tmp_path / "models").iterdir()] == ["acme--tiny-embed"]  # no partial folder left
    manifest = model_catalog.read_manifest(folder)
    assert manifest["repo_id"] == REPO and manifest["commit"] == repo.commit
    assert manifest["endpoint"] == hub.endpoint

    done = [e.bytes_done for e in events if e.phase != "listing"]
    assert done == sorted(done), "progress went backwards"
    total = sum(len(files[n]) for n in WANTED)
    assert events[-1].phase == "done" and events[-1].bytes_done == events[-1].bytes_total == total
    assert events[-1].files_done == events[-1].files_total == len(WANTED)

    listing = [r for r in hub.requests if r.path.startswith("/api/models/")]
    assert listing and "blobs=true" in listing[0].path and "/revision/main" in listing[0].path
    resolves = [r.path for r in hub.requests if "/resolve/" in r.path]
    assert resolves and all(f"/resolve/{repo.commit}/" in p for p in resolves), "files must come from one commit"
    assert hub.file_requests("model.safetensors")[0].path.startswith("/cdn/")  # LFS: 302 to the CDN
    assert hub.file_requests("config.json")[0].path.startswith("/api/resolve-cache/")  # 307, relative


def test_a_cut_connection_resumes_from_the_offset(hub, tmp_path):
    files = _slow_big_repo(hub, 1_000_000)
    hub.cut_once["model.safetensors"] = 300_000
    folder = download_model(REPO, tmp_path, endpoint=hub.endpoint)

    requests = hub.file_requests("model.safetensors")
    assert len(requests) == 2
    assert "range" not in requests[0].headers
    assert requests[1].headers["range"] == "bytes=300000-"
    data = (folder / "model.safetensors").read_bytes()
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256(files["model.safetensors"]).hexdigest()


def test_cancel_keeps_no_model_folder_and_a_later_run_resumes(hub, tmp_path):
    files = _slow_big_repo(hub)
    hub.chunk_delay = 0.01
    cancel = threading.Event()

    def on_progress(p: DownloadProgress) -> None:
        if p.current_file == "model.safetensors" and p.bytes_done - (p.bytes_total - 3_000_000) > 200_000:
            cancel.set()

    with pytest.raises(DownloadCancelled) as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint, on_progress=on_progress, cancel=cancel)
    assert info.value.kind == "cancelled"
    assert not (tmp_path / "models" / "acme--tiny-embed").exists()
    assert not model_download.is_downloaded(tmp_path, REPO)
    part = model_download.partial_path(tmp_path, REPO) / "model.safetensors.part"
    kept = part.stat().st_size
    assert 0 < kept < 3_000_000

    hub.chunk_delay = 0.0
    folder = download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert hub.file_requests("model.safetensors")[-1].headers["range"] == f"bytes={kept}-"
    assert (folder / "model.safetensors").read_bytes() == files["model.safetensors"]
    assert not model_download.partial_path(tmp_path, REPO).exists()


def test_cancel_is_prompt_even_when_the_server_stalls(hub, tmp_path):
    _slow_big_repo(hub)
    hub.stall_after["model.safetensors"] = 100_000
    cancel = threading.Event()
    seen = threading.Event()
    outcome: list[BaseException] = []

    def on_progress(p: DownloadProgress) -> None:
        if p.current_file == "model.safetensors" and p.phase == "downloading":
            seen.set()

    def run() -> None:
        try:
            download_model(REPO, tmp_path, endpoint=hub.endpoint, on_progress=on_progress, cancel=cancel,
                           timeout_s=60)
        except BaseException as exc:  # noqa: BLE001
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    assert seen.wait(20)
    time.sleep(0.3)  # now blocked in recv: the server sends nothing more
    started = time.monotonic()
    cancel.set()
    thread.join(5)
    elapsed = time.monotonic() - started
    assert not thread.is_alive()
    assert elapsed < 0.5, f"cancel took {elapsed:.2f} s"
    assert outcome and isinstance(outcome[0], DownloadCancelled)
    assert not (tmp_path / "models" / "acme--tiny-embed").exists()


@pytest.mark.parametrize("bad_file", ["model.safetensors", "config.json"])
def test_checksum_mismatch_is_rejected_and_deleted(hub, tmp_path, bad_file):
    hub.add_repo(REPO, fake_model_files())
    hub.corrupt.add(bad_file)  # same size, one byte flipped: only a real checksum notices
    with pytest.raises(DownloadError) as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "checksum"
    assert bad_file in str(info.value)
    partial = model_download.partial_path(tmp_path, REPO)
    assert not (partial / bad_file).exists() and not (partial / (bad_file + ".part")).exists()
    assert not (tmp_path / "models" / "acme--tiny-embed").exists()


@pytest.mark.parametrize("name", ["../evil.json", "/tmp/evil.json", "1_Pooling/../../evil.json",
                                  "..\\evil.json", "C:evil.json", "1_Pooling//config2.json", "a/\x00.json",
                                  "CON.json", "1_Pooling/nul", "config.json.", "config.JSON"])
def test_unsafe_names_in_the_listing_are_refused(hub, tmp_path, name):
    hub.add_repo(REPO, fake_model_files(), extra_siblings=[{"rfilename": name, "size": 10, "blobId": "0" * 40}])
    with pytest.raises(DownloadError) as info:
        download_model(REPO, tmp_path / "data", endpoint=hub.endpoint)
    assert info.value.kind == "unsafe"
    assert not any(p.name == "evil.json" for p in tmp_path.rglob("*"))
    assert not hub.file_requests("model.safetensors"), "nothing is fetched from a hostile listing"


def test_hostile_sizes_and_listings(hub, tmp_path, monkeypatch):
    hub.add_repo(REPO, fake_model_files(), extra_siblings=[{"rfilename": "vocab.txt", "size": -5}])
    with pytest.raises(DownloadError, match="valid size") as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "protocol"

    hub.repos[REPO].extra_siblings = [{"rfilename": "2_Dense/model.safetensors", "size": 10**12,
                                       "lfs": {"sha256": "a" * 64, "size": 10**12}}]
    with pytest.raises(DownloadError) as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "too_large"

    hub.listing_override = b"<html>captive portal</html>"
    with pytest.raises(DownloadError, match="did not answer like a model hub"):
        download_model(REPO, tmp_path, endpoint=hub.endpoint)

    monkeypatch.setattr(model_download, "MAX_LISTING_BYTES", 1000)
    hub.listing_override = b'{"siblings": [' + b'{"rfilename": "x.json", "size": 1},' * 100 + b"{}]}"
    with pytest.raises(DownloadError) as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "too_large"


def test_a_model_bigger_than_the_free_disk_space_is_refused_before_downloading(hub, tmp_path):
    import shutil

    free = shutil.disk_usage(tmp_path).free
    parts = free // (40 * 1024**3) + 1
    if parts * 40 > 95:
        pytest.skip("this disk has more free space than the size limits allow to claim")
    files = fake_model_files()
    hub.add_repo(REPO, files, extra_siblings=[
        {"rfilename": f"model-{i:05d}-of-00099.safetensors", "size": 40 * 1024**3,
         "lfs": {"sha256": "b" * 64, "size": 40 * 1024**3}} for i in range(1, parts + 1)])
    with pytest.raises(DownloadError, match="Not enough disk space") as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "disk_full"
    assert not hub.file_requests("model.safetensors")


def test_clear_errors_for_missing_gated_and_unreachable(hub, tmp_path):
    with pytest.raises(DownloadError, match="was not found on") as info:
        download_model("acme/nope", tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "not_found"

    hub.add_repo("acme/gated", fake_model_files(), gated=True)
    with pytest.raises(DownloadError, match="gated") as info:
        download_model("acme/gated", tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "gated"
    assert not any("/resolve/" in r.path for r in hub.requests), "the listing's gated flag suffices"
    hub.listing_hides_gated = True  # then the file request's 401 GatedRepo says it
    with pytest.raises(DownloadError, match="gated") as info:
        download_model("acme/gated", tmp_path, endpoint=hub.endpoint)
    assert info.value.kind == "gated"
    assert any("/resolve/" in r.path for r in hub.requests)

    hub.add_repo(REPO, fake_model_files())
    with pytest.raises(DownloadError, match="no such revision") as info:
        download_model(REPO, tmp_path, endpoint=hub.endpoint, revision="v9")
    assert info.value.kind == "not_found"

    port = closed_port()  # nothing listening: the system's reason, in either language
    with pytest.raises(DownloadError, match=r"Cannot reach http://127\.0\.0\.1:\d+ \(Connection refused\)") as info:
        download_model(REPO, tmp_path, endpoint=f"http://127.0.0.1:{port}")
    assert info.value.kind == "unreachable"
    assert error_text(info.value, "zh").startswith(f"无法连接 http://127.0.0.1:{port}（连接被拒绝）")

    for bad in ("ftp://example.com", "file:///etc", "not a url"):
        with pytest.raises(DownloadError) as info:
            download_model(REPO, tmp_path, endpoint=bad)
        assert info.value.kind == "invalid"
    for bad in ("../etc", "acme/../x", "acme", "acme/x/y", "/abs/x"):
        with pytest.raises(DownloadError) as info:
            download_model(bad, tmp_path, endpoint=hub.endpoint)
        assert info.value.kind == "invalid"


def test_the_mirror_endpoint_is_the_one_used(tmp_path, monkeypatch):
    with run_hub_server() as official, run_hub_server() as mirror:
        official.add_repo(REPO, fake_model_files(seed=1))
        mirror.add_repo(REPO, fake_model_files(seed=2))
        folder = download_model(REPO, tmp_path, endpoint=mirror.endpoint + "/")
        assert mirror.requests and not official.requests
        assert (folder / "model.safetensors").read_bytes() == fake_model_files(seed=2)["model.safetensors"]
        assert model_catalog.read_manifest(folder)["endpoint"] == mirror.endpoint

    from desktop_rag.config import Settings

    assert Settings().hub_endpoint == "https://huggingface.co"
    monkeypatch.setenv("HF_ENDPOINT", "https://hf-mirror.com")
    assert model_download.resolve_endpoint(Settings().hub_endpoint) == "https://hf-mirror.com"
    assert model_download.resolve_endpoint("http://127.0.0.1:9/") == "http://127.0.0.1:9"


def test_a_new_commit_discards_the_old_partial_and_replaces_the_old_folder(hub, tmp_path):
    _slow_big_repo(hub)
    hub.chunk_delay = 0.01
    cancel = threading.Event()
    with pytest.raises(DownloadCancelled):
        download_model(REPO, tmp_path, endpoint=hub.endpoint, cancel=cancel,
                       on_progress=lambda p: cancel.set() if 0 < p.bytes_total - 2_900_000 < p.bytes_done else None)
    assert (model_download.partial_path(tmp_path, REPO) / "model.safetensors.part").exists()
    hub.chunk_delay = 0.0
    new = hub.add_repo(REPO, fake_model_files(weights_bytes=50_000, seed=7))  # pushed meanwhile
    folder = download_model(REPO, tmp_path, endpoint=hub.endpoint)
    assert (folder / "model.safetensors").read_bytes() == new.files["model.safetensors"]
    assert "range" not in hub.file_requests("model.safetensors")[-1].headers

    newer = hub.add_repo(REPO, fake_model_files(weights_bytes=40_000, seed=8))
    assert download_model(REPO, tmp_path, endpoint=hub.endpoint) == folder
    assert (folder / "model.safetensors").read_bytes() == newer.files["model.safetensors"]
    assert model_catalog.read_manifest(folder)["commit"] == newer.commit
    assert [p.name for p in (tmp_path / "models").iterdir()] == [folder.name]


def test_file_selection_rules():
    def names(*paths: str) -> set[str]:
        return {f.path for f in select_files(RemoteFile(p, 1) for p in paths)}

    assert names("config.json", "pytorch_model.bin", "model.safetensors", "onnx/model.onnx", "tf_model.h5",
                 "2_Dense/config.json", "2_Dense/model.safetensors", "2_Dense/pytorch_model.bin",
                 "openvino/openvino_model.bin", "imgs/logo.png", "colbert_linear.pt", "1_Pooling/config.json") == {
        "config.json", "model.safetensors", "2_Dense/config.json", "2_Dense/model.safetensors",
        "1_Pooling/config.json"}
    # no safetensors: never the PyTorch pickles (sharded or not); the download then says why (tests/security)
    assert names("config.json", "pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin",
                 "pytorch_model.bin.index.json", "flax_model.msgpack") == {"config.json"}
    assert names("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors",
                 "model.safetensors.index.json", "pytorch_model.bin") == {
        "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.safetensors.index.json"}


def test_catalog_entries_and_prefixes(tmp_path):
    keys = {m.key for m in model_catalog.CATALOG}
    assert {"multilingual-e5-small", "bge-m3", "bge-small-zh-v1.5"} <= keys
    assert model_catalog.prefixes("intfloat/multilingual-e5-small") == ("query: ", "passage: ")
    assert model_catalog.prefixes("bge-small-zh-v1.5") == ("为这个句子生成表示以用于检索相关文章：", "")
    assert model_catalog.prefixes("BAAI/bge-m3") == ("", "")
    assert model_catalog.prefixes("bundled:all-MiniLM-L6-v2") == ("", "")
    folder = tmp_path / "somewhere"
    folder.mkdir()
    (folder / model_catalog.MANIFEST_NAME).write_text(json.dumps({"repo_id": "intfloat/multilingual-e5-small"}))
    assert model_catalog.prefixes(str(folder)) == ("query: ", "passage: ")
    assert model_catalog.prefixes(str(tmp_path / "intfloat--multilingual-e5-small")) == ("query: ", "passage: ")
    for m in model_catalog.CATALOG:
        model_download.check_repo_id(m.repo_id)
        assert m.download_mb > 0 and m.dimension > 0 and m.chunks_per_s_en > 0


def test_a_downloaded_bundled_model_loads_and_embeds(hub, tmp_path):
    """End to end: serve the real all-MiniLM-L6-v2 folder as a repo, download it, load it."""
    from desktop_rag.engine.models.embedding import bundled_model_path

    source = bundled_model_path()
    hub.repos["sentence-transformers/all-MiniLM-L6-v2"] = repo_from_folder(source)
    folder = download_model("sentence-transformers/all-MiniLM-L6-v2", tmp_path, endpoint=hub.endpoint)
    assert "data_config.json" in _files_in(folder) and ".gitattributes" not in _files_in(folder)

    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(folder), device="cpu")
    vectors = model.encode(["How hot should the water be for green tea?", "Brew green tea at 80 degrees.",
                            "The train leaves at noon."], normalize_embeddings=True)
    assert vectors.shape == (3, 384)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2


def test_cli_lists_models_and_downloads_one(hub, tmp_path, capsys):
    from desktop_rag.cli.main import main

    hub.add_repo("intfloat/multilingual-e5-small", fake_model_files())
    home = tmp_path / "home"
    assert main(["--data-dir", str(home), "download-model", "multilingual-e5-small", "--hub", hub.endpoint,
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["path"] == str(home.resolve() / "models" / "intfloat--multilingual-e5-small")
    assert out["endpoint"] == hub.endpoint

    assert main(["--data-dir", str(home), "models", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["multilingual-e5-small"]["downloaded"] and rows["multilingual-e5-small"]["path"] == out["path"]
    assert rows["multilingual-e5-small"]["query_prefix"] == "query: "
    assert not rows["bge-m3"]["downloaded"]

    assert main(["--data-dir", str(home), "download-model", "acme/missing", "--hub", hub.endpoint]) == 1
    assert "was not found" in capsys.readouterr().err
