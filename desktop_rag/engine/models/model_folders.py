"""Where downloaded models live (`<data dir>/models/<org>--<name>`), valid repo ids and hub endpoints, and which
weight files a model folder may be loaded from (safetensors only: a PyTorch pickle can run code when loaded)."""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path

from desktop_rag.engine.models.catalog import MANIFEST_NAME
from desktop_rag.engine.models.download_types import DownloadError

DEFAULT_ENDPOINT = "https://huggingface.co"
MIRROR_ENDPOINT = "https://hf-mirror.com"
MODELS_FOLDER = "models"

_PICKLE_NAMES = re.compile(r".*\.(bin|pt|pth|ckpt|pkl|pickle)$", re.IGNORECASE)
_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")


def models_dir(data_dir: str | os.PathLike) -> Path:
    """`<data dir>/models`: where downloaded models live."""
    return Path(data_dir) / MODELS_FOLDER


def folder_name(repo_id: str) -> str:
    """`org/name` -> `org--name` (validated)."""
    return check_repo_id(repo_id).replace("/", "--")


def local_model_path(data_dir: str | os.PathLike, repo_id: str) -> Path:
    """Where `repo_id` lands (a finished download is a folder with the manifest in it)."""
    return models_dir(data_dir) / folder_name(repo_id)


def partial_path(data_dir: str | os.PathLike, repo_id: str) -> Path:
    return models_dir(data_dir) / f".{folder_name(repo_id)}.partial"


def is_downloaded(data_dir: str | os.PathLike, repo_id: str) -> bool:
    """True when the finished folder (with its manifest) is there."""
    return (local_model_path(data_dir, repo_id) / MANIFEST_NAME).is_file()


def check_repo_id(repo_id: str) -> str:
    repo_id = repo_id.strip()
    if not _REPO_RE.match(repo_id) or ".." in repo_id:
        raise DownloadError.coded("bad_repo_id", "invalid", repo_id=repo_id)
    return repo_id


def resolve_endpoint(setting: str | None) -> str:
    """The hub to use: the setting, except that the default gives way to $HF_ENDPOINT (the
    variable huggingface_hub users already set for a mirror)."""
    setting = (setting or "").strip() or DEFAULT_ENDPOINT
    env = os.environ.get("HF_ENDPOINT", "").strip()
    return normalize_endpoint(env if env and setting.rstrip("/") == DEFAULT_ENDPOINT else setting)


def normalize_endpoint(endpoint: str) -> str:
    """An http(s) base URL without trailing slash; anything else is refused."""
    endpoint = (endpoint or DEFAULT_ENDPOINT).strip().rstrip("/")
    try:
        parts = urllib.parse.urlsplit(endpoint)
        usable = parts.scheme in ("http", "https") and parts.hostname and not parts.query and not parts.fragment
    except ValueError:  # "Invalid IPv6 URL": a "[" in the host ("http://[::1", an escape sequence's "\x1b[")
        usable = False
    if not usable:
        raise DownloadError.coded("bad_hub_address", "invalid", endpoint=endpoint, default=DEFAULT_ENDPOINT)
    return endpoint


def pickle_only_parts(folder: str | os.PathLike) -> list[str]:
    """The parts of a local model folder (itself, `1_Pooling/`...) that hold pickle weights and no safetensors:
    loading them would unpickle. Empty when the folder may be loaded."""
    root = Path(folder)
    parts = [root, *(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))] if root.is_dir() else []
    bad = []
    for part in parts:
        names = [p.name for p in part.iterdir() if p.is_file()]
        if any(_PICKLE_NAMES.match(n) for n in names) and not any(n.endswith(".safetensors") for n in names):
            bad.append(part.name if part != root else ".")
    return bad
