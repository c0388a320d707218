"""The one owner of the running app's Settings: a change is saved off the GUI thread, then announced."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop_rag.config import AppPaths, Settings, save_settings
from desktop_rag.engine import Reason
from desktop_rag.gui.secrets import (
    remember_library_password,
    remember_secrets,
    use_api_key,
    use_library_password,
    write_api_key,
    write_library_password,
)
from desktop_rag.gui.threads.worker_pool import WorkerPool


class AppSettings(QObject):
    """Holds the current immutable Settings; `update` saves new ones, then emits `changed(old, new)`.

    Everyone else reads `current` and reacts to `changed` (the window's texts, the Backend, the flows; the
    Backend hands the new value to the engine through the index worker). A change that cannot be saved is
    dropped: `save_failed(reason)` says why, and the old value stays everywhere. The API key (not a Settings
    field: it lives in .env) is written on the same thread, in the same order: `key_saved` once it is in the
    file and in use, or `key_save_failed(reason)` and the old key stays in use. A library server's password
    likewise: `library_password_saved(where)` (the keyring, or the .env file's path) once stored and in use, or
    `library_password_save_failed(reason)`.
    """

    changed = Signal(object, object)  # old Settings, new Settings (already saved)
    save_failed = Signal(object)  # why (a Reason, worded when shown), for a message the user can act on
    key_saved = Signal()  # the API key is in .env and used from now on
    key_save_failed = Signal(object)  # why (a Reason) the API key could not be written (the previous key stays in use)
    library_password_saved = Signal(str)  # secrets.KEYRING or the .env file's path; in use from now on
    library_password_save_failed = Signal(object)  # why (a Reason) (the previous password stays in use)

    def __init__(self, paths: AppPaths, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.paths = paths
        self._current = settings
        self._pending = 0
        # one thread: saves land, and are announced, in the order they were asked; a save asked for is kept
        self._saver = WorkerPool("desktop-rag-settings", 1, self, finish_queued=True)

    @property
    def current(self) -> Settings:
        return self._current

    @property
    def saving(self) -> bool:
        """True while a change is being written (it is announced when the write is done)."""
        return self._pending > 0

    def update(self, new: Settings) -> None:
        """Save `new` off the GUI thread; on success every reader sees it through `changed`."""
        paths, previous = self.paths, self._current  # (only what changed is written: another window's changes stay)
        worker = self._saver.submit(lambda: save_settings(paths, new, previous), lambda _r: self._saved(new),
                                    self._not_saved)
        if worker is not None:  # None once closed: nothing is saved or announced after the window closed
            self._pending += 1

    def save_api_key(self, key: str) -> None:
        """Write the API key to .env off the GUI thread (atomic, 0600), then use it; empty removes it."""
        remember_secrets(key)  # redacted in logs before any thread sees it
        paths, key = self.paths, key.strip()
        worker = self._saver.submit(lambda: write_api_key(paths, key), lambda _r: self._key_saved(key),
                                    self._key_not_saved)
        if worker is not None:
            self._pending += 1

    def save_library_password(self, location: str, password: str) -> None:
        """Keep the password of the library at `location` (the OS keyring, else .env) off the GUI thread, then use
        it in this process; saved before settings asked for after it."""
        remember_library_password(password)  # redacted in logs before any thread sees it
        paths = self.paths
        worker = self._saver.submit(lambda: write_library_password(paths, location, password),
                                    lambda where: self._library_password_saved(password, where),
                                    self._library_password_not_saved)
        if worker is not None:
            self._pending += 1

    def _library_password_saved(self, password: str, where: str) -> None:
        self._pending -= 1
        use_library_password(password)
        self.library_password_saved.emit(where)

    def _library_password_not_saved(self, reason: Reason) -> None:
        self._pending -= 1
        self.library_password_save_failed.emit(reason)

    def _key_saved(self, key: str) -> None:
        self._pending -= 1
        use_api_key(key)
        self.key_saved.emit()

    def _key_not_saved(self, reason: Reason) -> None:
        self._pending -= 1
        self.key_save_failed.emit(reason)

    def _saved(self, new: Settings) -> None:
        self._pending -= 1
        old, self._current = self._current, new
        if old != new:
            self.changed.emit(old, new)

    def _not_saved(self, reason: Reason) -> None:
        self._pending -= 1
        self.save_failed.emit(reason)

    def close(self) -> None:
        """Let a save in progress finish (a settings file is small) and stop the settings thread."""
        self._saver.shutdown()
