"""Download a sentence-transformers model folder from a Hugging Face-compatible hub (or a mirror).

Resumable (`.part` files continued with Range), verified (sha256 of LFS files, git blob sha1 or
size of the others), cancellable within a fraction of a second, and atomic: files land in
`<data dir>/models/.<org>--<name>.partial/` and the folder is renamed to `<org>--<name>` only
when every file is complete. Everything the server sends is treated as hostile.

The jobs live beside it: `download_types`, `model_folders`, `hub_listing`, `hub_http`.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import json
import logging
import os
import re
import shutil
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.private_files import private_dir, private_tree
from desktop_rag.engine.messages import Phrase
from desktop_rag.engine.models.catalog import MANIFEST_NAME
from desktop_rag.engine.models.download_types import (
    DownloadCancelled,
    DownloadError,
    DownloadProgress,
    ProgressCallback,
    RemoteFile,
)
from desktop_rag.engine.models.hub_http import Canceller, HubClient, read_bounded
from desktop_rag.engine.models.hub_listing import (
    has_pickle_weights,
    has_weights,
    parse_listing,
    safe_relative_path,
    select_files,
)
from desktop_rag.engine.models.model_folders import (
    DEFAULT_ENDPOINT,
    MIRROR_ENDPOINT,
    check_repo_id,
    is_downloaded,
    local_model_path,
    normalize_endpoint,
    partial_path,
    resolve_endpoint,
)
from desktop_rag.engine.paths import is_inside
from desktop_rag.engine.system_errors import foreign_reason, os_reason

__all__ = [  # the downloader's public names (callers use them through `desktop_rag.engine.model_download`)
    "DEFAULT_ENDPOINT", "MIRROR_ENDPOINT", "DownloadCancelled", "DownloadError", "DownloadProgress", "RemoteFile",
    "check_repo_id", "download_model", "is_downloaded", "local_model_path", "normalize_endpoint", "partial_path",
    "resolve_endpoint", "select_files",
]

log = logging.getLogger(__name__)

STATE_NAME = ".desktop-rag-download.json"
MAX_LISTING_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 100 * 1024**3
MAX_ERROR_BODY = 64 * 1024
RETRIES = 3
CHUNK = 64 * 1024
DISK_MARGIN = 64 * 1024 * 1024
PROGRESS_INTERVAL_S = 0.1

_REVISION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_CONTENT_RANGE_RE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")


@dataclass
class _Counter:
    """Byte totals and the session rate, throttled progress callbacks."""

    repo_id: str
    total: int
    files_total: int
    on_progress: ProgressCallback | None
    done: int = 0
    files_done: int = 0
    session_bytes: int = 0
    started: float = 0.0
    last_emit: float = 0.0
    current: str = ""

    def emit(self, phase: str = "downloading", force: bool = False) -> None:
        now = time.monotonic()
        if self.on_progress is None or (not force and now - self.last_emit < PROGRESS_INTERVAL_S):
            return
        self.last_emit = now
        elapsed = now - self.started
        rate = self.session_bytes / elapsed if elapsed > 0.2 and self.session_bytes else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else None
        self.on_progress(DownloadProgress(self.repo_id, phase, self.done, self.total, self.files_done,
                                          self.files_total, self.current, rate, eta))


def download_model(repo_id: str, data_dir: str | os.PathLike, *, endpoint: str = DEFAULT_ENDPOINT,
                   revision: str = "main", on_progress: ProgressCallback | None = None,
                   cancel: threading.Event | None = None, timeout_s: float = 30.0) -> Path:
    """Download `repo_id` into `<data_dir>/models/<org>--<name>` and return that folder.

    Resumes a previous partial download; raises DownloadError (DownloadCancelled on cancel)
    with a message for the user. Blocking: run it off the GUI thread.
    """
    repo_id = check_repo_id(repo_id)
    endpoint = normalize_endpoint(endpoint)
    if not _REVISION_RE.match(revision):
        raise DownloadError.coded("bad_revision", "invalid", revision=revision)
    canceller = Canceller(cancel)
    from desktop_rag import __version__

    client = HubClient(canceller, timeout_s, f"desktop-rag/{__version__}")
    try:
        return _download(client, repo_id, Path(data_dir), endpoint, revision, on_progress)
    except DownloadError:
        raise
    except OSError as exc:
        canceller.check(repo_id)
        raise _os_error(exc, endpoint) from exc
    except http.client.HTTPException as exc:
        canceller.check(repo_id)
        raise DownloadError.coded("connection_failed", "unreachable", endpoint=endpoint,
                                  detail=foreign_reason(exc)) from exc
    finally:
        canceller.close()


def _download(client: HubClient, repo_id: str, data_dir: Path, endpoint: str, revision: str,
              on_progress: ProgressCallback | None) -> Path:
    if on_progress:
        on_progress(DownloadProgress(repo_id, "listing"))
    commit, files = fetch_listing(client, endpoint, repo_id, revision)
    pinned = commit or revision
    target, partial = local_model_path(data_dir, repo_id), partial_path(data_dir, repo_id)
    _prepare_partial(partial, repo_id, endpoint, pinned)
    total = sum(f.size for f in files)
    _check_space(partial, files, total)
    counter = _Counter(repo_id, total, len(files), on_progress, started=time.monotonic())
    for remote in files:
        client.canceller.check(repo_id)
        counter.current = remote.path
        counter.emit(force=True)
        _fetch_file(client, endpoint, repo_id, pinned, remote, partial, counter)
        counter.files_done += 1
        counter.emit(force=True)
    _write_manifest(partial, repo_id, endpoint, pinned, files)
    client.canceller.check(repo_id)
    _publish(partial, target)
    counter.current = ""
    counter.emit("done", force=True)
    log.info("Downloaded %s (%s) from %s into %s", repo_id, pinned, endpoint, target)
    return target


def fetch_listing(client: HubClient, endpoint: str, repo_id: str, revision: str) -> tuple[str | None, list[RemoteFile]]:
    """(commit, selected files) for the repo; errors mapped to messages."""
    url = f"{endpoint}/api/models/{urllib.parse.quote(repo_id, safe='/')}/revision/" \
          f"{urllib.parse.quote(revision, safe='')}?blobs=true"
    response, _ = client.get(url, {"Accept": "application/json"})
    try:
        if response.status != 200:
            raise _http_error(response, endpoint, repo_id)
        body = read_bounded(response, MAX_LISTING_BYTES)
    finally:
        response.close()
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DownloadError.coded("not_a_hub", "protocol", endpoint=endpoint) from exc
    commit, gated, listed = parse_listing(data)
    if gated:
        raise _gated(repo_id, endpoint)
    files = select_files(listed)
    if not has_weights(files):
        if has_pickle_weights(listed):
            raise DownloadError.coded("pickle_only", "not_found", model=repo_id)
        raise DownloadError.coded("no_weights", "not_found", repo_id=repo_id)
    if sum(f.size for f in files) > MAX_TOTAL_BYTES:
        raise DownloadError.coded("model_too_large", "too_large", repo_id=repo_id, gb=MAX_TOTAL_BYTES // 1024**3)
    return commit, files


def _http_error(response: http.client.HTTPResponse, endpoint: str, repo_id: str, path: str = "") -> DownloadError:
    status, code = response.status, response.getheader("X-Error-Code") or ""
    what = Phrase("phrase.file_of", path=path, repo_id=repo_id) if path else repo_id
    if code == "GatedRepo" or (status == 403 and code != "RepoNotFound"):
        return _gated(repo_id, endpoint)
    if code == "RevisionNotFound":
        return DownloadError.coded("no_revision", "not_found", repo_id=repo_id, endpoint=endpoint)
    if code in ("RepoNotFound", "EntryNotFound") or status in (401, 404):
        return DownloadError.coded("not_on_hub", "not_found", what=what, endpoint=endpoint)
    if status == 429:
        return DownloadError.coded("hub_rate_limit", "http", endpoint=endpoint)
    if status == 416:
        return DownloadError.coded("hub_no_resume", "http", endpoint=endpoint, path=path)
    return DownloadError.coded("hub_http", "http", endpoint=endpoint, status=status, what=what)


def _gated(repo_id: str, endpoint: str) -> DownloadError:
    return DownloadError.coded("gated", "gated", repo_id=repo_id, endpoint=endpoint)


def _os_error(exc: OSError, endpoint: str) -> DownloadError:
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return DownloadError.coded("download_disk_full", "disk_full")
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return DownloadError.coded("hub_timeout", "unreachable", endpoint=endpoint, mirror=MIRROR_ENDPOINT)
    if isinstance(exc, ssl.SSLError):  # a certificate not trusted, a server that does not speak https
        return DownloadError.coded("connection_failed", "unreachable", endpoint=endpoint, detail=os_reason(exc))
    if isinstance(exc, (socket.gaierror, ConnectionError)) or exc.errno in (errno.ECONNREFUSED, errno.ENETUNREACH,
                                                                              errno.EHOSTUNREACH):
        return DownloadError.coded("hub_unreachable", "unreachable", endpoint=endpoint, detail=foreign_reason(exc),
                                   mirror=MIRROR_ENDPOINT)
    return DownloadError.coded("download_failed", "io", detail=os_reason(exc))


def _prepare_partial(partial: Path, repo_id: str, endpoint: str, commit: str) -> None:
    """Reuse the partial folder only if it is for the same commit; else start clean."""
    state = {"repo_id": repo_id, "commit": commit}
    try:
        old = json.loads((partial / STATE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    if old != state and partial.exists():
        shutil.rmtree(partial)
    private_dir(partial.parent)  # models/: owner-only like the whole data folder
    private_dir(partial)
    (partial / STATE_NAME).write_text(json.dumps(state), encoding="utf-8")


def _check_space(partial: Path, files: list[RemoteFile], total: int) -> None:
    have = 0
    for f in files:
        final, part = _local(partial, f.path), _local(partial, f.path + ".part")
        have += f.size if final.exists() else (part.stat().st_size if part.exists() else 0)
    need = max(total - have, 0)
    free = shutil.disk_usage(partial).free
    if need + DISK_MARGIN > free:
        raise DownloadError.coded("download_no_space", "disk_full", need=f"{need / 1e6:,.0f}",
                                  free=f"{free / 1e6:,.0f}", where=partial.parent)


def _local(root: Path, rel: str) -> Path:
    """`root/rel`, guaranteed to stay inside root."""
    path = root.joinpath(*safe_relative_path(rel).split("/"))
    if not is_inside(path.resolve(), root.resolve()):
        raise DownloadError.coded("outside_folder", "unsafe", path=rel)
    return path


def _fetch_file(client: HubClient, endpoint: str, repo_id: str, commit: str, remote: RemoteFile, partial: Path,
                counter: _Counter) -> None:
    final = _local(partial, remote.path)
    if final.is_file() and final.stat().st_size == remote.size:
        counter.done += remote.size
        return
    final.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    part = final.with_name(final.name + ".part")
    base = counter.done
    url = f"{endpoint}/{urllib.parse.quote(repo_id, safe='/')}/resolve/{urllib.parse.quote(commit, safe='')}/" \
          f"{urllib.parse.quote(remote.path, safe='/')}"
    for attempt in range(RETRIES + 1):
        client.canceller.check(repo_id)
        try:
            _transfer(client, url, endpoint, repo_id, remote, part, counter, base)
            break
        except (OSError, http.client.HTTPException) as exc:
            client.canceller.check(repo_id)
            if attempt == RETRIES or (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC,)):
                raise
            log.info("Download of %s interrupted (%s); resuming", remote.path, exc)
            time.sleep(min(0.5 * (attempt + 1), 2.0))
    counter.emit("verifying", force=True)
    _verify(part, remote)
    os.replace(part, final)


def _transfer(client: HubClient, url: str, endpoint: str, repo_id: str, remote: RemoteFile, part: Path,
              counter: _Counter, base: int) -> None:
    """Fetch the rest of one file into `part` (continuing it with Range when it has bytes)."""
    offset = part.stat().st_size if part.exists() else 0
    if offset > remote.size:
        part.unlink()
        offset = 0
    counter.done = base + offset
    if offset == remote.size:
        return
    headers = {"Range": f"bytes={offset}-"} if offset else {}
    response, _ = client.get(url, headers)
    try:
        if response.status == 416 and offset:
            part.unlink()
            raise ConnectionResetError("range not satisfiable; starting the file again")
        if response.status not in (200, 206):
            raise _http_error(response, endpoint, repo_id, remote.path)
        if response.status == 206:
            _check_content_range(response, offset, remote)
        else:
            offset = 0  # the server sent the whole file
        counter.done = base + offset
        _stream(response, part, offset, remote, counter, repo_id, client.canceller)
    finally:
        response.close()


def _check_content_range(response: http.client.HTTPResponse, offset: int, remote: RemoteFile) -> None:
    match = _CONTENT_RANGE_RE.match(response.getheader("Content-Range") or "")
    if not match or int(match.group(1)) != offset or (match.group(3) != "*" and int(match.group(3)) != remote.size):
        raise DownloadError.coded("bad_resume", "protocol", path=remote.path)


def _stream(response: http.client.HTTPResponse, part: Path, offset: int, remote: RemoteFile, counter: _Counter,
            repo_id: str, canceller: Canceller) -> None:
    written = offset
    with open(part, "r+b" if offset else "wb") as out:
        out.seek(offset)
        out.truncate()
        while written < remote.size:
            canceller.check(repo_id)
            data = response.read1(min(CHUNK, remote.size - written))
            canceller.check(repo_id)
            if not data:
                raise ConnectionResetError(f"the connection closed after {written} of {remote.size} bytes")
            out.write(data)
            written += len(data)
            counter.done += len(data)
            counter.session_bytes += len(data)
            counter.emit()
        if response.read1(1):
            raise DownloadError.coded("larger_than_listed", "checksum", path=remote.path)
        out.flush()
        os.fsync(out.fileno())


def _verify(part: Path, remote: RemoteFile) -> None:
    """sha256 for LFS files, git blob sha1 for the others; a mismatch deletes the file."""
    size = part.stat().st_size
    ok = size == remote.size
    if ok and (remote.sha256 or remote.git_sha1):
        digest = hashlib.sha256() if remote.sha256 else hashlib.sha1(f"blob {size}\0".encode())  # noqa: S324
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1024 * 1024), b""):
                digest.update(block)
        ok = digest.hexdigest() == (remote.sha256 or remote.git_sha1)
    if not ok:
        part.unlink(missing_ok=True)
        raise DownloadError.coded("checksum", "checksum", path=remote.path)


def _write_manifest(partial: Path, repo_id: str, endpoint: str, commit: str, files: list[RemoteFile]) -> None:
    manifest = {
        "repo_id": repo_id, "commit": commit, "endpoint": endpoint,
        "downloaded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "files": [{"path": f.path, "size": f.size, "sha256": f.sha256, "git_sha1": f.git_sha1} for f in files],
    }
    (partial / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    (partial / STATE_NAME).unlink(missing_ok=True)


def _publish(partial: Path, target: Path) -> None:
    """Rename the complete folder into place (an older copy is moved aside first, then deleted)."""
    private_tree(partial)  # 0700 folders, 0600 files (written with the umask's mode inside the 0700 partial folder)
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}-{int(time.time())}")
        os.replace(target, old)
    os.replace(partial, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
