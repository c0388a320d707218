"""Reading a collection archive: a legit 100k-passage, 384-dimension archive, and a 1 MB zip bomb whose vectors
member inflates to 1 GiB. Seconds and peak RSS of `read_archive`, each in a fresh child process.

`--tree DIR` (repeatable) reads with the code in DIR instead of this checkout (e.g. an export of an older commit),
so two versions are compared in one run on the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np

from bench.common import CACHE, emit, figure

_CHILD = """
import json, resource, sys, time
from pathlib import Path
try:
    from desktop_rag.engine.archive.archive_file import read_archive
except ImportError:  # before the layout
    from desktop_rag.engine.archive import read_archive
def peak_mb():  # VmHWM, this process's own peak: on Linux ru_maxrss keeps the forking parent's across exec
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.monotonic()
try:
    read_archive(Path(sys.argv[1]))
    outcome = "read"
except Exception as exc:
    outcome = "refused: " + str(exc)[:80]
print(json.dumps({"seconds": time.monotonic() - start, "outcome": outcome,
                  "rss_mb": peak_mb()}))
"""


def _write(path: Path, members: dict[str, bytes], manifest: dict, big: str | None = None, big_size: int = 0) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        if big:
            with zf.open(big, "w", force_zip64=True) as out:
                for _ in range(big_size >> 20):
                    out.write(bytes(1 << 20))
        zf.writestr("manifest.json", json.dumps(manifest))


def legit_archive(path: Path, n: int = 100_000, dim: int = 384) -> Path:
    """n passages of 45 words in 1,000 files of one folder source, unit-length random vectors (built once)."""
    if path.exists():
        return path
    rng = np.random.default_rng(1)
    words = ["harbour", "ferry", "timetable", "garden", "tomato", "storage", "energy", "battery", "入口", "时间"]
    chunks = b"".join(json.dumps({"id": i + 1, "file_id": 1 + i // 100, "ordinal": i % 100,
                                  "text": " ".join(rng.choice(words, 45)), "heading": "", "char_start": 0,
                                  "char_end": 300, "ocr": 0, "page": None}, ensure_ascii=False).encode() + b"\n"
                       for i in range(n))
    files = [{"id": f + 1, "source_id": 1, "path": f"/data/docs/f{f}.txt", "size": 1, "mtime_ns": 1, "sha256": "x",
              "status": "indexed", "error": "", "chunk_count": 100} for f in range(n // 100)]
    vectors = rng.standard_normal((n, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    members = {"collection.json": json.dumps({"sources": [{"id": 1, "path": "/data/docs", "kind": "folder"}],
                                              "files": files}).encode(),
               "chunks.jsonl": chunks, "vector_ids.i64": np.arange(1, n + 1, dtype="<i8").tobytes(),
               "vectors.f32": vectors.astype("<f4").tobytes()}
    manifest = {"format": "desktop-rag-collection", "format_version": 1, "collection": "Bench",
                "embedding_model": "hash:384", "dimension": dim, "chunking": {},
                "counts": {"sources": 1, "files": len(files), "chunks": n, "vectors": n, "documents": 0},
                "members": {k: {"size": len(v), "sha256": hashlib.sha256(v).hexdigest()} for k, v in members.items()}}
    _write(path, members, manifest)
    return path


def bomb_archive(path: Path, size: int = 1 << 30) -> Path:
    """A one-passage archive whose vectors member is `size` bytes of zeros (its counts say one vector)."""
    if path.exists():
        return path
    digest = hashlib.sha256()
    for _ in range(size >> 20):
        digest.update(bytes(1 << 20))
    chunk = json.dumps({"id": 1, "file_id": 1, "ordinal": 0, "text": "x", "heading": "", "char_start": 0,
                        "char_end": 1, "ocr": 0}).encode() + b"\n"
    members = {"collection.json": json.dumps({"sources": [{"id": 1, "path": "/data/docs", "kind": "folder"}],
                                              "files": [{"id": 1, "source_id": 1, "path": "/data/docs/a.txt",
                                                         "size": 1, "mtime_ns": 1, "sha256": "x",
                                                         "status": "indexed", "error": "", "chunk_count": 1}]}).encode(),
               "chunks.jsonl": chunk, "vector_ids.i64": np.array([1], "<i8").tobytes()}
    manifest = {"format": "desktop-rag-collection", "format_version": 1, "collection": "Bomb",
                "embedding_model": "hash:384", "dimension": 384, "chunking": {},
                "counts": {"sources": 1, "files": 1, "chunks": 1, "vectors": 1, "documents": 0},
                "members": {**{k: {"size": len(v), "sha256": hashlib.sha256(v).hexdigest()} for k, v in members.items()},
                            "vectors.f32": {"size": size, "sha256": digest.hexdigest()}}}
    _write(path, members, manifest, "vectors.f32", size)
    return path


def read_in_child(archive: Path, tree: str | None) -> dict:
    env = {**os.environ, "PYTHONPATH": tree or str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(archive)], capture_output=True, text=True, env=env,
                          timeout=600, cwd=archive.parent)  # not this checkout's folder: `-c` puts the cwd first
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", action="append", default=[], help="read with the code in this folder")
    args = parser.parse_args()
    folder = CACHE / "archive_read"
    folder.mkdir(parents=True, exist_ok=True)
    archives = {"legit 100k x 384": legit_archive(folder / "legit.zip"), "1 GiB bomb": bomb_archive(folder / "bomb.zip")}
    rows = []
    for tree in args.tree or [None]:
        label = tree or "this checkout"
        for what, archive in archives.items():
            result = read_in_child(archive, tree)
            note = f"{label}; {archive.stat().st_size / 1e6:.1f} MB archive; {result['outcome']}"
            rows.append(figure(f"{what}: seconds", result["seconds"], "s", note=note))
            rows.append(figure(f"{what}: peak RSS", round(result["rss_mb"]), "MB", note=note))
    emit("archive_read", rows)


if __name__ == "__main__":
    main()
