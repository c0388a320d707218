"""The hub's file list of a model repo: parsed with every path and size checked, and the files a
sentence-transformers folder needs selected."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from desktop_rag.engine.models.download_types import DownloadError, RemoteFile

_COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
MAX_FILES = 10_000
MAX_FILE_BYTES = 50 * 1024**3
_MODULE_DIR_RE = re.compile(r"^\d+_[A-Za-z][A-Za-z0-9_]*$")
_TOP_LEVEL_EXTRA = {"README.md", "sentencepiece.bpe.model", "spiece.model", "merges.txt", "vocab.txt",
                    "tokenizer.model", "bpe.codes"}
_WEIGHTS_RE = re.compile(r"^model(-\d{5}-of-\d{5})?\.safetensors$|^model\.safetensors\.index\.json$")
_BIN_WEIGHTS_RE = re.compile(r"^pytorch_model(-\d{5}-of-\d{5})?\.bin$|^pytorch_model\.bin\.index\.json$")


def safe_relative_path(name: object) -> str:
    """A listing file name as a safe relative POSIX path, or DownloadError('unsafe')."""
    if not isinstance(name, str) or not name or len(name) > 512:
        raise DownloadError.coded("invalid_file_name", "unsafe", name=f"{name!r:.80}")
    bad = ("\\" in name or name.startswith("/") or ":" in name or any(ord(c) < 32 or c == "\x7f" for c in name))
    parts = name.split("/")
    if bad or any(p in ("", ".", "..") or p.endswith((".", " ")) or _windows_reserved(p) for p in parts):
        raise DownloadError.coded("unsafe_file_name", "unsafe", name=f"{name!r:.80}")
    return name


def _windows_reserved(part: str) -> bool:
    """CON, NUL, COM1... (with any extension) name devices on Windows."""
    stem = part.split(".")[0].strip().upper()
    return stem in ("CON", "PRN", "AUX", "NUL") or (len(stem) == 4 and stem[:3] in ("COM", "LPT") and stem[3].isdigit())


def parse_listing(data: object) -> tuple[str | None, bool, list[RemoteFile]]:
    """(commit, gated, files) from the JSON of /api/models/{repo}/revision/{rev}?blobs=true."""
    if not isinstance(data, dict) or not isinstance(data.get("siblings"), list):
        raise DownloadError.coded("not_a_listing", "protocol")
    siblings = data["siblings"]
    if len(siblings) > MAX_FILES:
        raise DownloadError.coded("too_many_files", "too_large", n=len(siblings), limit=MAX_FILES)
    sha = data.get("sha")
    commit = sha if isinstance(sha, str) and _COMMIT_RE.match(sha) else None
    gated = bool(data.get("gated")) and data.get("gated") != "false"
    files: list[RemoteFile] = []
    seen: set[str] = set()
    for entry in siblings:
        if not isinstance(entry, dict):
            raise DownloadError.coded("listing_malformed", "protocol")
        path = safe_relative_path(entry.get("rfilename"))
        if path.lower() in seen:
            raise DownloadError.coded("listed_twice", "unsafe", path=path)
        seen.add(path.lower())
        files.append(_remote_file(path, entry))
    return commit, gated, files


def _remote_file(path: str, entry: dict) -> RemoteFile:
    lfs = entry.get("lfs")
    if isinstance(lfs, dict):
        size, sha = lfs.get("size"), lfs.get("sha256")
        if not isinstance(sha, str) or not _SHA256_RE.match(sha):
            raise DownloadError.coded("no_sha256", "protocol", path=path)
        return RemoteFile(path, _checked_size(path, size), sha256=sha)
    blob = entry.get("blobId")
    return RemoteFile(path, _checked_size(path, entry.get("size")),
                      git_sha1=blob if isinstance(blob, str) and _COMMIT_RE.match(blob) else None)


def _checked_size(path: str, size: object) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise DownloadError.coded("no_size", "protocol", path=path)
    if size > MAX_FILE_BYTES:
        raise DownloadError.coded("file_too_large_hub", "too_large", path=path, gb=f"{size / 1024**3:.0f}",
                                  limit=MAX_FILE_BYTES // 1024**3)
    return size


def select_files(files: Iterable[RemoteFile]) -> list[RemoteFile]:
    """The files a sentence-transformers folder needs: configs, tokenizer, module folders (`1_Pooling/`...) and
    safetensors weights. PyTorch pickles (`pytorch_model.bin`) are never fetched: unpickling can run code."""
    chosen = [f for f in files if _wanted(f.path) or _is_weights(f.path, _WEIGHTS_RE)]
    return sorted({f.path: f for f in chosen}.values(), key=lambda f: (f.size, f.path))


def has_weights(files: Iterable[RemoteFile]) -> bool:
    """Whether the files include model weights in the one format the app loads (safetensors)."""
    return any(_is_weights(f.path, _WEIGHTS_RE) for f in files)


def has_pickle_weights(files: Iterable[RemoteFile]) -> bool:
    """Whether the files include PyTorch pickle weights (the format the app refuses)."""
    return any(_is_weights(f.path, _BIN_WEIGHTS_RE) for f in files)


def _in_model_dir(path: str) -> bool:
    parts = path.split("/")
    return len(parts) == 1 or (len(parts) == 2 and bool(_MODULE_DIR_RE.match(parts[0])))


def _is_weights(path: str, pattern: re.Pattern) -> bool:
    return _in_model_dir(path) and bool(pattern.match(PurePosixPath(path).name))


def _wanted(path: str) -> bool:
    if not _in_model_dir(path):
        return False
    name = PurePosixPath(path).name
    if name.endswith(".json") and not name.startswith(("model.safetensors.index", "pytorch_model.bin.index")):
        return True
    return "/" not in path and name in _TOP_LEVEL_EXTRA
