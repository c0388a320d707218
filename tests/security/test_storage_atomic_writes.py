"""Atomic writes use a fresh, uniquely named temp file: a planted `.env.tmp` (or `vectors.faiss.tmp`) link
cannot redirect the API key or the index, the key file is never readable by others, and concurrent saves
never trip over one another."""

from __future__ import annotations

import os
import stat
import sys
import threading

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths, save_settings
from desktop_rag.private_files import atomic_write_text
from desktop_rag.engine.store.sqlite.vector_index import VectorIndex
from desktop_rag.gui.secrets import write_api_key

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks and POSIX modes")

KEY = "sk-test-0123456789abcdef"


def test_a_planted_env_tmp_link_does_not_redirect_the_key(tmp_path, monkeypatch):
    paths = resolve_paths(tmp_path / "home").ensure()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    planted = paths.config_dir / ".env.tmp"
    planted.symlink_to(victim)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    write_api_key(paths, KEY)

    assert victim.read_text(encoding="utf-8") == "precious\n", "the key was written through the planted link"
    assert planted.is_symlink() and os.readlink(planted) == str(victim)
    env = paths.env_file
    assert not env.is_symlink() and env.is_file()
    assert stat.S_IMODE(env.stat().st_mode) == 0o600
    assert KEY in env.read_text(encoding="utf-8")
    assert sorted(p.name for p in paths.config_dir.iterdir()) == [".env", ".env.tmp"], "a temp file was left"


def test_a_link_at_env_itself_is_replaced_not_written_through(tmp_path, monkeypatch):
    paths = resolve_paths(tmp_path / "home").ensure()
    victim = tmp_path / "victim.txt"
    victim.write_text("OTHER=1\n", encoding="utf-8")
    paths.env_file.symlink_to(victim)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    write_api_key(paths, KEY)
    assert victim.read_text(encoding="utf-8") == "OTHER=1\n"
    assert not paths.env_file.is_symlink() and stat.S_IMODE(paths.env_file.stat().st_mode) == 0o600


def test_a_planted_vectors_tmp_link_does_not_redirect_the_index(tmp_path):
    target = tmp_path / "vectors.faiss"
    victim = tmp_path / "victim.bin"
    victim.write_bytes(b"keep me")
    (tmp_path / "vectors.faiss.tmp").symlink_to(victim)
    index = VectorIndex(8)
    index.add([1, 2], np.eye(2, 8, dtype=np.float32))
    index.save(target, generation=3)
    assert victim.read_bytes() == b"keep me"
    loaded, generation = VectorIndex.load(target)
    assert generation == 3 and list(loaded.ids()) == [1, 2]


def test_concurrent_saves_of_one_file_do_not_collide(tmp_path):
    """Two windows saving settings at once: with one fixed temp name, one rename finds its file gone."""
    target = tmp_path / "settings.json"
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(200):
                atomic_write_text(target, f"writer {n} save {i}\n" * 50)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    lines = set(target.read_text(encoding="utf-8").splitlines())
    assert len(lines) == 1, "a save was mixed with another"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"], "temp files were left"


def test_settings_are_saved_without_following_a_planted_link(tmp_path):
    paths = resolve_paths(tmp_path / "home").ensure()
    victim = tmp_path / "victim.txt"
    victim.write_text("x", encoding="utf-8")
    (paths.config_dir / "settings.json.tmp").symlink_to(victim)
    save_settings(paths, Settings(top_k=7))
    assert victim.read_text(encoding="utf-8") == "x"
    assert '"top_k": 7' in paths.settings_file.read_text(encoding="utf-8")
