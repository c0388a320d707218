"""Attacks on the model files the app builds and downloads into the data folder: a built folder's word table
replaced by zeros of the same size was used (only sizes were checked), and model folders were 0755/0644 against the
0700/0600 rule of the data folder. Now a built folder is checked against its manifest's sha256 once per process and
rebuilt when it differs, and every model folder and file is owner-only whatever the umask."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.support import REPO
from tests.support.hub_server import fake_model_files, run_hub_server

_EMBED = ("import sys, json\nfrom desktop_rag.config import BUNDLED_MODEL\n"
          "from desktop_rag.engine.models.embedding import create_embedder\n"
          "vector = create_embedder(BUNDLED_MODEL, sys.argv[1], 'auto').embed(['The glacier lost forty metres.'])[0]\n"
          "print(json.dumps([float(x) for x in vector]))\n")


def _embed_in_a_new_process(home: Path) -> np.ndarray:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", _EMBED, str(home)], capture_output=True, text=True, timeout=300,
                          env=env, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return np.array(json.loads(done.stdout.splitlines()[-1]))


def test_a_zeroed_word_table_of_the_same_size_is_detected_and_rebuilt(fast_models_home: Path):
    from desktop_rag.engine.models.built_folder import verify

    clean = _embed_in_a_new_process(fast_models_home)
    table = next(fast_models_home.rglob("word_embeddings.npy"))
    header = np.load(table, mmap_mode="r")
    zeros = np.zeros(header.shape, header.dtype)
    tampered = table.with_name("tampered.npy")
    np.save(tampered, zeros)
    os.replace(tampered, table)  # a new file (the session's copy is a hard link): same size, zero rows
    assert verify(table.parent) == ["word_embeddings.npy"]
    used = _embed_in_a_new_process(fast_models_home)
    assert float(used @ clean) > 0.999  # the zeroed table was not used
    assert verify(table.parent) == []  # rebuilt


posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def _loose(root: Path) -> dict[str, str]:
    paths = [root, *root.rglob("*")]
    return {str(p.relative_to(root)): oct(stat.S_IMODE(p.stat().st_mode)) for p in paths if not p.is_symlink()
            and stat.S_IMODE(p.stat().st_mode) & 0o077}


@posix_only
def test_exported_and_downloaded_model_folders_are_owner_only_under_umask_022(tmp_path: Path):
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.models.download import download_model
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import ensure_exported

    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    old = os.umask(0o022)
    try:
        ensure_exported(bundled_model_path(), home, BUNDLED_MODEL)  # models/.onnx/<hash>/
        with run_hub_server() as hub:
            hub.add_repo("acme/small-embedder", fake_model_files())
            download_model("acme/small-embedder", home, endpoint=hub.endpoint)  # models/acme--small-embedder/
    finally:
        os.umask(old)
    assert (home / "models" / "acme--small-embedder").is_dir() and (home / "models" / ".onnx").is_dir()
    assert _loose(home / "models") == {}


@posix_only
def test_a_built_folder_an_older_version_left_open_is_tightened_on_use(tmp_path: Path):
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import ensure_exported

    home = tmp_path / "home"
    folder = ensure_exported(bundled_model_path(), home, BUNDLED_MODEL).runtime
    for path in [home / "models", home / "models" / ".onnx", folder, *folder.iterdir()]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    ensure_exported(bundled_model_path(), home, BUNDLED_MODEL)
    assert _loose(home / "models") == {}
