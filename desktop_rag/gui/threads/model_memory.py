"""Which models' replies open with thinking their chat template began (a reply holding only a lone `</think>`),
kept across sessions in the config folder: a model's answer streams at once unless it is known to think, or not
known at all (only the very first answer of a model is then held, see controllers/streamed_bubble.py).

A model is its server's address as messages quote it (no query, no user:password) and its name, hashed: the file
holds neither, nor any key. Read and written off the GUI thread (AppSettings' settings thread)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from desktop_rag.config import AppPaths, Settings, atomic_write_text, private_dir
from desktop_rag.engine import resolve_llm_config

log = logging.getLogger(__name__)
MAX_MODELS = 64  # the models last seen are kept; an older one is held once more if it comes back
MAX_BYTES = 16 * 1024  # a larger file is not ours (64 entries take about 3 KB): it is ignored, then replaced
_KEY_CHARS = 32


def models_file(paths: AppPaths) -> Path:
    return paths.config_dir / "thinking_models.json"


def model_key(settings: Settings, model: str) -> str:
    """The model `model` on the server these settings answer with (its address as messages quote it), as a hash:
    the file names neither."""
    config = resolve_llm_config(settings)
    endpoint = config.shown_url if config is not None else ""
    return hashlib.sha256(f"{endpoint}\n{model}".encode("utf-8", "replace")).hexdigest()[:_KEY_CHARS]


def read_models(path: Path) -> dict[str, bool]:
    """The models stored, oldest first: whether each thinks. {} for a missing, oversized or unreadable file, and an
    entry that is not a key and a bool is skipped (nothing depends on the file but how soon an answer shows)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(stored, dict):
        return {}
    return {key: thinks for key, thinks in list(stored.items())[-MAX_MODELS:]
            if len(key) == _KEY_CHARS and isinstance(thinks, bool)}


def write_model(path: Path, key: str, thinks: bool) -> None:
    """Note whether `key` thinks over the file as it is now (another window's models stay), as the newest entry;
    only the last MAX_MODELS are kept."""
    models = read_models(path)
    models.pop(key, None)
    models[key] = thinks
    private_dir(path.parent)
    atomic_write_text(path, json.dumps(dict(list(models.items())[-MAX_MODELS:])))
