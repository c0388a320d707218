"""Logging to a rotating file in the user log folder, with API keys and passwords redacted from every record."""

from __future__ import annotations

import logging
import logging.handlers
import os
import re
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

from desktop_rag.config import AppPaths
from desktop_rag.private_files import private_dir, private_file

LOG_FILE_NAME = "desktop-rag.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 5
LEVEL_ENV = "DESKTOP_RAG_LOG_LEVEL"
KEY_ENV = "OPENAI_API_KEY"
# Every environment variable that can hold a secret, whose value is never written to a log (nor to stderr): the
# model server's key, the embedding server's (api_backend.KEY_ENV), the PostgreSQL library's password
# (postgres.url.PASSWORD_VARIABLE), the Hugging Face token its libraries read, and PostgreSQL's own password variable.
SECRET_ENVS = (KEY_ENV, "DESKTOP_RAG_EMBEDDING_API_KEY", "DESKTOP_RAG_LIBRARY_PASSWORD", "HF_TOKEN",
               "HUGGING_FACE_HUB_TOKEN", "PGPASSWORD")
REDACTED = "[REDACTED]"
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
_MIN_SECRET_LEN = 8  # shorter values ("ollama", "") are placeholders, not secrets

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization headers, as text ("Authorization: Bearer x") or as httpx/h11 byte pairs
    # ((b'authorization', b'Bearer x')); any "Bearer <token>" anywhere.
    (re.compile(r"(?i)(authorization['\"]?\s*(?:[:=]|,)\s*b?['\"]?)(?:bearer\s+|basic\s+)?(?!\[REDACTED\])"
                r"[^\s'\",;)}\]]+"),
     rf"\1{REDACTED}"),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=\-]{4,}"), rf"\1{REDACTED}"),
    # api_key=..., "api_key": "...", OPENAI_API_KEY=..., x-api-key: ..., access_token=...
    (re.compile(r"(?i)(\w*(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key)['\"]?\s*[:=]\s*b?['\"]?)"
                r"(?!\[REDACTED\])[^\s'\",;&)}\]]+"), rf"\1{REDACTED}"),
    # OpenAI / DeepSeek style keys wherever they appear
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), REDACTED),
    # a password inside any URL (postgresql://user:PASSWORD@host, a model server's http://user:PASSWORD@host, which
    # httpx logs with each request) or given as password=...
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.\-]*://[^:/@\s]*:)(?!\[REDACTED\])[^@\s]+@"), rf"\1{REDACTED}@"),
    (re.compile(r"(?i)(\bpass(?:word)?['\"]?\s*[:=]\s*b?['\"]?)(?!\[REDACTED\])[^\s'\",;&)}\]]+"), rf"\1{REDACTED}"),
)

_extra_secrets: set[str] = set()
_lock = threading.Lock()
_handler: logging.Handler | None = None


def register_secret(value: str | None) -> None:
    """Redact this exact value too (e.g. a key typed into Settings)."""
    if value and len(value.strip()) >= _MIN_SECRET_LEN:
        with _lock:
            _extra_secrets.add(value.strip())


def _secrets() -> Iterable[str]:
    with _lock:
        values = set(_extra_secrets)
    for name in SECRET_ENVS:
        value = (os.environ.get(name) or "").strip()
        if len(value) >= _MIN_SECRET_LEN:
            values.add(value)
    return sorted(values, key=len, reverse=True)


def redact(text: str) -> str:
    """The text with API keys, bearer tokens and known secret values replaced by [REDACTED]."""
    for secret in _secrets():
        text = text.replace(secret, REDACTED)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """Rewrites each record so its message, args, exception and stack text carry no secrets."""

    def __init__(self, formatter: logging.Formatter | None = None) -> None:
        super().__init__()
        self._formatter = formatter or logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what we can, still redacted
            message = f"{record.msg!s} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


# A record logged while no handler is set (before setup_logging, or when no log file could be opened) goes to stderr
# through logging.lastResort: redacted there too.
if not any(isinstance(f, RedactingFilter) for f in getattr(logging.lastResort, "filters", ())):
    logging.lastResort.addFilter(RedactingFilter())  # type: ignore[union-attr]


def log_file_path(paths: AppPaths) -> Path:
    """Where setup_logging writes for these folders."""
    return paths.log_dir / LOG_FILE_NAME


def _level(level: int | str | None) -> int:
    raw = level if level is not None else os.environ.get(LEVEL_ENV, "INFO")
    if isinstance(raw, int):
        return raw
    value = logging.getLevelName(str(raw).strip().upper())
    return value if isinstance(value, int) else logging.INFO


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose every file (the first and each after a rollover) is owner-only (0600)."""

    def _open(self):
        private_file(Path(self.baseFilename))
        return super()._open()


def _open_handler(path: Path) -> logging.Handler:
    private_dir(path.parent)
    # backslashreplace: a name's undecodable bytes (lone surrogates) are logged as escapes, not a logging error
    return _PrivateRotatingHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8",
                                   errors="backslashreplace", delay=False)


def setup_logging(paths: AppPaths, level: int | str | None = None) -> Path:
    """Send every logger (the app's and third parties') to the rotating log file; returns the file.

    Idempotent: a second call for the same file only updates the level. If the log folder is
    not writable, the file goes to the temp folder instead.
    """
    global _handler
    path = log_file_path(paths)
    root = logging.getLogger()
    root.setLevel(_level(level))
    with _lock:
        if _handler is not None and Path(getattr(_handler, "baseFilename", "")) == path.resolve():
            return path.resolve()
    try:
        handler = _open_handler(path)
    except OSError:
        path = Path(tempfile.gettempdir()) / "desktop-rag-logs" / LOG_FILE_NAME
        handler = _open_handler(path)
    formatter = logging.Formatter(FORMAT)
    handler.setFormatter(formatter)
    handler.addFilter(RedactingFilter(formatter))
    shutdown_logging()
    with _lock:
        _handler = handler
    root.addHandler(handler)
    return Path(handler.baseFilename)


def current_log_file() -> Path | None:
    """The file setup_logging is writing to, if it was called."""
    handler = _handler
    return Path(handler.baseFilename) if handler is not None else None  # type: ignore[attr-defined]


def shutdown_logging() -> None:
    """Detach and close the handler setup_logging installed (tests; a second setup)."""
    global _handler
    with _lock:
        handler, _handler = _handler, None
    if handler is not None:
        logging.getLogger().removeHandler(handler)
        handler.close()
