"""Another client's commits to a server's library, heard as they happen: one connection of its own LISTENs on the
library's channel (`schema.CHANNEL`, notified payload-free by the schema's triggers) on a thread of its own, and
says "look again" (`on_change`); what changed is read by the caller, as its role may see it.

The wait is bounded (`WAIT_S`: `close` is seen within it); a round trip every `ALIVE_EVERY_S`, answered within
`ANSWER_S`, notices a connection dropped without a word. A dropped connection (a restart, `pg_terminate_backend`) is opened again after a growing
pause, and `on_change` is called once it listens again (what was committed meanwhile went unheard). A server whose
notifications never arrive (a pooler in transaction mode passes LISTEN to one server connection and the session's
statements to others: the listener's own probe is not heard) is left alone: the caller's slow look stays; so is one
that refuses this role (a wrong password, access taken back: asking again and again would only add failed logins)."""

from __future__ import annotations

import logging
import select
import ssl
import threading
import time
from collections.abc import Callable

from desktop_rag.engine.store.postgres.connection import Connection, ServerUnavailableError
from desktop_rag.engine.store.postgres.schema import CHANNEL
from desktop_rag.engine.store.postgres.url import ServerUrl

log = logging.getLogger(__name__)

WAIT_S = 1.0
ALIVE_EVERY_S = 30.0
ANSWER_S = 15.0  # a round trip unanswered this long: the connection is taken as lost (not a statement's 600 s)
RETRY_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # the pauses before opening again, one more step each failure
REFUSALS = frozenset({"server_wrong_password", "server_needs_password", "server_not_allowed", "server_no_database",
                      "server_no_grant", "server_access_revoked"})  # this role is not let in: not asked again


class NotHeard(Exception):
    """The server passes LISTEN on but not the notifications (the listener's own probe never comes back)."""


class ChangesListener:
    """Started at once; `on_change` is called on the listener's thread, never after `close`."""

    def __init__(self, url: ServerUrl, on_change: Callable[[], None]) -> None:
        self.url = url
        self._on_change = on_change
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while a connection listens (for tests and the log)
        self._thread = threading.Thread(target=self._run, name="desktop-rag changes", daemon=True)
        self._thread.start()

    def close(self, wait_s: float = 0.0) -> None:
        """Stop listening: the thread closes its connection within WAIT_S (`wait_s`: how long to wait for it)."""
        self._stop.set()
        if wait_s:
            self._thread.join(wait_s)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            db = None
            try:
                db = Connection(self.url, "desktop-rag changes")
                db.raw._usock.settimeout(ANSWER_S)  # noqa: SLF001 - pg8000's socket
                _listen(db)
                self.listening.set()
                if failures:
                    self._tell()  # committed while nobody listened
                failures = 0
                self._wait(db)
            except NotHeard:
                log.info("The library's server does not pass its notifications on; its changes are looked for "
                         "now and then instead.")
                return
            except Exception as exc:  # noqa: BLE001 - any failure of the connection: open it again
                if isinstance(exc, ServerUnavailableError) and exc.code in REFUSALS:
                    log.info("Not listening for the library's changes: %s", exc)
                    return
                log.debug("Listening for the library's changes stopped: %s", exc)
                failures += 1
            finally:
                self.listening.clear()
                if db is not None:
                    db.close()
            self._stop.wait(RETRY_S[min(failures, len(RETRY_S)) - 1] if failures else 0)

    def _wait(self, db: Connection) -> None:
        """Until closed: each time the server sent something (a notification, or the error of a dropped
        connection), or every ALIVE_EVERY_S, a round trip reads it; heard notifications say "look again"."""
        last = time.monotonic()
        while not self._stop.is_set():
            if _buffered(db) or select.select([db.raw._usock], [], [], WAIT_S)[0] \
                    or time.monotonic() - last >= ALIVE_EVERY_S:  # noqa: SLF001 - pg8000's socket
                db.execute("SELECT 1")  # (pg8000 reads pending notifications with any answer)
                last = time.monotonic()
            if db.raw.notifications:
                db.raw.notifications.clear()
                self._tell()

    def _tell(self) -> None:
        if self._stop.is_set():
            return
        try:
            self._on_change()
        except Exception:  # noqa: BLE001 - the caller's failure never ends the listening
            log.exception("A change of the library could not be passed on")


def _listen(db: Connection) -> None:
    """LISTEN, after checking that the server passes a notification back: one to this session alone (a channel of
    its own, so no other window looks again for it; NotHeard if it never comes)."""
    probe = f"{CHANNEL}_{db.execute('SELECT pg_backend_pid()').fetchone()[0]}"
    db.execute(f"LISTEN {probe}")
    db.execute("SELECT pg_notify(?, '')", (probe,))
    heard = any(channel == probe for _pid, channel, _payload in db.raw.notifications)
    db.execute(f"UNLISTEN {probe}")
    db.raw.notifications.clear()
    if not heard:
        raise NotHeard
    db.execute(f"LISTEN {CHANNEL}")


def _buffered(db: Connection) -> bool:
    """Whether bytes the server sent were already read off the socket (by pg8000's buffered reader, or TLS) and
    so will never wake a select."""
    sock = db.raw._usock  # noqa: SLF001
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        return bool(db.raw._sock.peek(1))  # noqa: SLF001 - what is buffered, or b"" when nothing waits
    except OSError:
        return False
    finally:
        sock.settimeout(timeout)
