"""The API key in the config dir's .env file: written atomically, readable only by the owner, never logged.

The GUI writes it through `AppSettings.save_api_key`, on the settings thread; `use_api_key` then makes it the
key of this process (on the GUI thread, once the file holds it)."""

from __future__ import annotations

import os

from desktop_rag.config import AppPaths, write_env_value
from desktop_rag.logs import register_secret

KEY_NAME = "OPENAI_API_KEY"


def remember_secrets(key: str) -> None:
    """Redact the key in logs from now on, and the one in use (it stays redacted after a change)."""
    register_secret(os.environ.get(KEY_NAME))
    register_secret(key.strip())


def write_api_key(paths: AppPaths, key: str) -> None:
    """Set (or remove, when empty) OPENAI_API_KEY in .env, mode 0600; other lines stay. Any thread; raises
    OSError (naming the file, never the key) when the file cannot be written, leaving the old one as it was."""
    key = key.strip()
    remember_secrets(key)
    write_env_value(paths, KEY_NAME, key)


def use_api_key(key: str) -> None:
    """The key (stripped; empty: none) for this process's requests from now on."""
    key = key.strip()
    if key:
        os.environ[KEY_NAME] = key
    else:
        os.environ.pop(KEY_NAME, None)


def current_api_key() -> str:
    return os.environ.get(KEY_NAME, "")
