"""The secrets the window keeps: the API key in the config dir's .env file, and a library server's password in the OS
keyring (else in .env); written atomically, readable only by the owner, never logged.

The GUI writes them through `AppSettings` (`save_api_key`, `save_library_password`), on the settings thread;
`use_api_key` / `use_library_password` then make them this process's (on the GUI thread, once they are stored)."""

from __future__ import annotations

import os

from desktop_rag.config import AppPaths, write_env_value
from desktop_rag.engine import PASSWORD_VARIABLE, parse_server_url, save_keyring_password
from desktop_rag.logs import register_secret

KEY_NAME = "OPENAI_API_KEY"
KEYRING = "keyring"  # where `write_library_password` kept a password (else the .env file's path)
_password_set_here = False  # this process set PASSWORD_VARIABLE (a restart does not pass it on: see gui/app.py)


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


def remember_library_password(password: str) -> None:
    """Redact a library password in logs from now on (as every secret: one of 8 characters or more)."""
    register_secret(password)


def write_library_password(paths: AppPaths, location: str, password: str) -> str:
    """Keep the password of the library at `location` (a server's address): in the OS keyring when this system has
    one (KEYRING; a password left in .env would be used first, so it goes), else as DESKTOP_RAG_LIBRARY_PASSWORD in
    .env, 0600 (its path). Any thread; OSError names the file, never the password."""
    remember_library_password(password)
    if save_keyring_password(parse_server_url(location), password):
        if paths.env_file.exists() and PASSWORD_VARIABLE in paths.env_file.read_text(encoding="utf-8"):
            write_env_value(paths, PASSWORD_VARIABLE, "")
        return KEYRING
    write_env_value(paths, PASSWORD_VARIABLE, password)
    return str(paths.env_file)


def use_library_password(password: str) -> None:
    """The library password this process connects with from now on."""
    global _password_set_here
    os.environ[PASSWORD_VARIABLE] = password
    _password_set_here = True


def library_password_set_here() -> bool:
    """Whether this process set the library password (else it came from the environment or .env at start)."""
    return _password_set_here
