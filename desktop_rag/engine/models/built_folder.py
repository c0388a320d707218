"""A folder the app builds once from local files (the bundled model's conversion, a model's fast-runtime export):
written step by step into `.<name>.partial/`, resumable, checked against a manifest, then renamed into place.

A step whose outputs are already there with their recorded checksums is skipped, so an interrupted build resumes;
a folder under its real name always has a manifest naming every file with its size and sha256. A built folder is
checked against those checksums once per process before it is used (a damaged or tampered file: rebuilt), and it is
owner-only (0700/0600) like every folder of the data folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import logging
import shutil
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.private_files import private_dir, private_tree
from desktop_rag.engine.models.catalog import MANIFEST_NAME
from desktop_rag.engine.models.download_types import DownloadProgress, ProgressCallback

_STEPS_FILE = ".steps.json"
_verified: set[tuple[str, int]] = set()  # (folder, its manifest's mtime_ns) checked in this process
_verified_lock = threading.Lock()
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    outputs: tuple[str, ...]  # paths inside the folder this step writes (each atomically)
    write: Callable[[Path], None]  # given the partial folder


def is_built(folder: Path, info: dict) -> bool:
    """The manifest is there with `info`, and every file it names has its recorded size (cheap; `verify` reads
    them)."""
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        return all(manifest.get(k) == v for k, v in info.items()) and all(
            (folder / name).stat().st_size == entry["size"] for name, entry in manifest["files"].items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def verify(folder: Path, skip: tuple[str, ...] = ()) -> list[str]:
    """The files whose sha256 differs from the manifest's (empty when the folder is intact), but those in `skip`."""
    manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    return [name for name, entry in manifest["files"].items() if name not in skip
            and (not (folder / name).is_file() or sha256(folder / name) != entry["sha256"])]


def ensure_built(final: Path, steps: Sequence[Step], info: dict, model_id: str,
                 on_progress: ProgressCallback | None = None, unchecked: tuple[str, ...] = ()) -> Path:
    """`final`, building it first unless it is built with this `info` and its files have their checksums (checked
    once per process, except `unchecked`: files the runtime never reads); an older format or a damaged folder is
    rebuilt whole. `final`'s parent folders up to the data folder's models/ are made owner-only."""
    for folder in reversed([final.parent, *final.parent.parents][:2]):  # models/ (and models/.onnx/)
        if folder.name in ("models", ".onnx"):
            private_dir(folder)
    if is_built(final, info) and _intact(final, unchecked):
        private_tree(final)  # a folder an older version left 0755
        return final
    partial = final.with_name(f".{final.name}.partial")
    private_dir(partial)
    report = on_progress or (lambda _p: None)
    done = _load_steps(partial)
    for index, step in enumerate(steps):
        report(DownloadProgress(model_id, "converting", files_done=index, files_total=len(steps),
                                current_file=step.outputs[0]))
        if all(name in done and (partial / name).is_file() and sha256(partial / name) == done[name]
               for name in step.outputs):
            continue
        step.write(partial)
        done.update({name: sha256(partial / name) for name in step.outputs})
        _save_steps(partial, done)
    report(DownloadProgress(model_id, "verifying", files_done=len(steps), files_total=len(steps)))
    files = {str(p.relative_to(partial)): p for p in sorted(partial.rglob("*"))
             if p.is_file() and p.name not in (MANIFEST_NAME, _STEPS_FILE)}
    manifest = {**info, "files": {name: {"size": p.stat().st_size, "sha256": sha256(p)} for name, p in files.items()}}
    (partial / _STEPS_FILE).unlink(missing_ok=True)
    (partial / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    private_tree(partial)  # files the libraries wrote with the umask's mode
    if final.exists():
        shutil.rmtree(final)  # an older or damaged build: replaced as a whole
    os.replace(partial, final)
    report(DownloadProgress(model_id, "done", files_done=len(steps), files_total=len(steps)))
    return final


def _intact(folder: Path, unchecked: tuple[str, ...]) -> bool:
    """The folder's files have their manifest's checksums (hashed once per process and manifest)."""
    key = (str(folder), (folder / MANIFEST_NAME).stat().st_mtime_ns)
    with _verified_lock:
        if key in _verified:
            return True
        damaged = verify(folder, skip=unchecked)
        if damaged:
            log.warning("%s: %s differ from the manifest; rebuilding the folder", folder, ", ".join(damaged))
            return False
        _verified.add(key)
        return True


def write_atomically(path: Path, write: Callable[[str], None]) -> None:
    """`write(name)` to a temp name beside `path` (ending like it: np.save adds .npy otherwise), then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp" + path.suffix)
    write(str(tmp))
    os.replace(tmp, path)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load_steps(partial: Path) -> dict[str, str]:
    try:
        return dict(json.loads((partial / _STEPS_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def _save_steps(partial: Path, done: dict[str, str]) -> None:
    tmp = partial / (_STEPS_FILE + ".tmp")
    tmp.write_text(json.dumps(done), encoding="utf-8")
    os.replace(tmp, partial / _STEPS_FILE)
