"""Typed settings, where data lives (platformdirs), and .env loading."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "desktop-rag"
HOME_ENV = "DESKTOP_RAG_HOME"
BUNDLED_MODEL = "bundled:all-MiniLM-L6-v2"


@dataclass(frozen=True)
class AppPaths:
    """The data, config and log folders."""

    data_dir: Path
    config_dir: Path
    log_dir: Path

    @property
    def database(self) -> Path:
        return self.data_dir / "library.sqlite3"

    @property
    def vector_index(self) -> Path:
        return self.data_dir / "vectors.faiss"

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def env_file(self) -> Path:
        return self.config_dir / ".env"

    def ensure(self) -> "AppPaths":
        for d in (self.data_dir, self.config_dir, self.log_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self


def resource_path(*parts: str) -> Path:
    """A file under resources/: beside the package in a checkout, inside the bundle when frozen."""
    import sys

    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent.parent))
    return base.joinpath("resources", *parts)


def resolve_paths(data_dir: str | os.PathLike | None = None) -> AppPaths:
    """--data-dir, else $DESKTOP_RAG_HOME, else the platform's user folders.

    An override moves all three folders under one root (config/ and logs/ inside it).
    """
    root = data_dir or os.environ.get(HOME_ENV)
    if root:
        base = Path(root).expanduser().resolve()
        return AppPaths(base, base / "config", base / "logs")
    import platformdirs

    return AppPaths(
        Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


@dataclass(frozen=True)
class Settings:
    """Every user-tunable setting, with defaults. Saved as JSON; env vars override."""

    embedding_model: str = BUNDLED_MODEL
    chunk_size: int = 500
    chunk_overlap: int = 50
    top_k: int = 5
    min_score: float = 0.0
    max_file_mb: float = 100.0
    parse_timeout_s: float = 120.0
    embed_batch_size: int = 64
    context_budget_chars: int = 8000
    temperature: float = 0.2
    llm_provider: str = ""
    llm_base_url: str = ""
    llm_model: str = ""
    ui_language: str = "auto"  # "auto" | "en" | "zh"

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)

    @property
    def index_params(self) -> dict:
        """The settings that, when changed, require re-indexing."""
        return {
            "embedding_model": self.embedding_model,
            "chunk_size": self.chunk_size,
            "chunk_overlap": self.chunk_overlap,
        }


_ENV_OVERRIDES = {
    "DESKTOP_RAG_EMBEDDING_MODEL": "embedding_model",
    "DESKTOP_RAG_CHUNK_SIZE": "chunk_size",
    "DESKTOP_RAG_CHUNK_OVERLAP": "chunk_overlap",
    "DESKTOP_RAG_TOP_K": "top_k",
    "DESKTOP_RAG_MIN_SCORE": "min_score",
    "DESKTOP_RAG_EMBED_BATCH_SIZE": "embed_batch_size",
}  # OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL are read by engine.llm.resolve_llm_config


def _coerce(name: str, raw: object) -> object:
    kind = type(getattr(Settings(), name))
    try:
        return kind(raw)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Setting {name!r} should be {kind.__name__}, got {raw!r}") from exc


def load_settings(paths: AppPaths) -> Settings:
    """Settings file, then .env in the config dir, then the process environment."""
    load_env_file(paths)
    values: dict[str, object] = {}
    if paths.settings_file.exists():
        try:
            stored = json.loads(paths.settings_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
        known = {f.name for f in dataclasses.fields(Settings)}
        values.update({k: _coerce(k, v) for k, v in stored.items() if k in known})
    for env, name in _ENV_OVERRIDES.items():
        if os.environ.get(env):
            values[name] = _coerce(name, os.environ[env])
    return Settings(**values)


def save_settings(paths: AppPaths, settings: Settings) -> None:
    """Write the settings file atomically."""
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(paths.settings_file, json.dumps(dataclasses.asdict(settings), indent=2))


def load_env_file(paths: AppPaths) -> None:
    """Load `.env` from the config dir without overriding the real environment."""
    if paths.env_file.exists():
        from dotenv import load_dotenv

        load_dotenv(paths.env_file, override=False)


def atomic_write_text(path: Path, text: str, mode: int | None = None) -> None:
    """Write to a temp file beside `path`, fsync, then rename over it."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode if mode is not None else 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
