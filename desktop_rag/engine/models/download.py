"""Download a sentence-transformers model folder from a Hugging Face-compatible hub (or a mirror).

Resumable (`.part` files continued with Range), verified (sha256 of LFS files, git blob sha1 or
size of the others), cancellable within a fraction of a second, and atomic: files land in
`<data dir>/models/.<org>--<name>.partial/` and the folder is renamed to `<org>--<name>` only
when every file is complete. Everything the server sends is treated as hostile.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import json
import logging
import os
import re
import select
import shutil
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from desktop_rag.engine.errors import DesktopRagError
from desktop_rag.engine.model_catalog import MANIFEST_NAME
from desktop_rag.engine.paths import is_inside

log = logging.getLogger(__name__)

DEFAULT_ENDPOINT = "https://huggingface.co"
MIRROR_ENDPOINT = "https://hf-mirror.com"
MODELS_FOLDER = "models"
STATE_NAME = ".desktop-rag-download.json"

MAX_LISTING_BYTES = 8 * 1024 * 1024
MAX_FILES = 10_000
MAX_FILE_BYTES = 50 * 1024**3
MAX_TOTAL_BYTES = 100 * 1024**3
MAX_REDIRECTS = 5
MAX_ERROR_BODY = 64 * 1024
RETRIES = 3
CHUNK = 64 * 1024
DISK_MARGIN = 64 * 1024 * 1024
PROGRESS_INTERVAL_S = 0.1

_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
_REVISION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
_CONTENT_RANGE_RE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")
_MODULE_DIR_RE = re.compile(r"^\d+_[A-Za-z][A-Za-z0-9_]*$")
_TOP_LEVEL_EXTRA = {"README.md", "sentencepiece.bpe.model", "spiece.model", "merges.txt", "vocab.txt",
                    "tokenizer.model", "bpe.codes"}
_WEIGHTS_RE = re.compile(r"^model(-\d{5}-of-\d{5})?\.safetensors$|^model\.safetensors\.index\.json$")
_BIN_WEIGHTS_RE = re.compile(r"^pytorch_model(-\d{5}-of-\d{5})?\.bin$|^pytorch_model\.bin\.index\.json$")


# ---- public types ----


class DownloadError(DesktopRagError):
    """A download failed; `kind` is one of: invalid, unreachable, not_found, gated, http, protocol,
    unsafe, too_large, disk_full, checksum, cancelled, io."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class DownloadCancelled(DownloadError):
    """The user cancelled; finished and partial files are kept for a later resume."""

    def __init__(self, repo_id: str) -> None:
        super().__init__("cancelled", f"Download of {repo_id} cancelled. Starting it again resumes where it stopped.")


@dataclass(frozen=True)
class RemoteFile:
    """One file of the repo listing: its path, size and the checksum to verify."""

    path: str
    size: int
    sha256: str | None = None  # LFS files
    git_sha1: str | None = None  # the git blob id of a regular file


@dataclass(frozen=True)
class DownloadProgress:
    """A progress snapshot. phase: 'listing' | 'downloading' | 'verifying' | 'done'."""

    repo_id: str
    phase: str
    bytes_done: int = 0
    bytes_total: int = 0
    files_done: int = 0
    files_total: int = 0
    current_file: str = ""
    rate: float = 0.0  # bytes/s over this session
    eta_seconds: float | None = None

    @property
    def fraction(self) -> float:
        return self.bytes_done / self.bytes_total if self.bytes_total else 0.0


ProgressCallback = Callable[[DownloadProgress], None]


# ---- paths ----


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
        raise DownloadError("invalid", f"“{repo_id}” is not a model name of the form organisation/name.")
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
    parts = urllib.parse.urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise DownloadError("invalid", f"The hub address “{endpoint}” is not an http(s) URL such as "
                                       f"{DEFAULT_ENDPOINT}.")
    return endpoint


# ---- the file list ----


def safe_relative_path(name: object) -> str:
    """A listing file name as a safe relative POSIX path, or DownloadError('unsafe')."""
    if not isinstance(name, str) or not name or len(name) > 512:
        raise DownloadError("unsafe", f"The hub listed an invalid file name: {name!r:.80}")
    bad = ("\\" in name or name.startswith("/") or ":" in name or any(ord(c) < 32 or c == "\x7f" for c in name))
    parts = name.split("/")
    if bad or any(p in ("", ".", "..") or p.endswith((".", " ")) or _windows_reserved(p) for p in parts):
        raise DownloadError("unsafe", f"The hub listed an unsafe file name ({name!r:.80}); download refused.")
    return name


def _windows_reserved(part: str) -> bool:
    """CON, NUL, COM1... (with any extension) name devices on Windows."""
    stem = part.split(".")[0].strip().upper()
    return stem in ("CON", "PRN", "AUX", "NUL") or (len(stem) == 4 and stem[:3] in ("COM", "LPT") and stem[3].isdigit())


def parse_listing(data: object) -> tuple[str | None, bool, list[RemoteFile]]:
    """(commit, gated, files) from the JSON of /api/models/{repo}/revision/{rev}?blobs=true."""
    if not isinstance(data, dict) or not isinstance(data.get("siblings"), list):
        raise DownloadError("protocol", "The hub's answer is not a model file listing.")
    siblings = data["siblings"]
    if len(siblings) > MAX_FILES:
        raise DownloadError("too_large", f"The repository lists {len(siblings)} files; refusing more than {MAX_FILES}.")
    sha = data.get("sha")
    commit = sha if isinstance(sha, str) and _COMMIT_RE.match(sha) else None
    gated = bool(data.get("gated")) and data.get("gated") != "false"
    files: list[RemoteFile] = []
    seen: set[str] = set()
    for entry in siblings:
        if not isinstance(entry, dict):
            raise DownloadError("protocol", "The hub's file listing is malformed.")
        path = safe_relative_path(entry.get("rfilename"))
        if path.lower() in seen:
            raise DownloadError("unsafe", f"The hub listed “{path}” twice; download refused.")
        seen.add(path.lower())
        files.append(_remote_file(path, entry))
    return commit, gated, files


def _remote_file(path: str, entry: dict) -> RemoteFile:
    lfs = entry.get("lfs")
    if isinstance(lfs, dict):
        size, sha = lfs.get("size"), lfs.get("sha256")
        if not isinstance(sha, str) or not _SHA256_RE.match(sha):
            raise DownloadError("protocol", f"The hub sent no valid sha256 for “{path}”.")
        return RemoteFile(path, _checked_size(path, size), sha256=sha)
    blob = entry.get("blobId")
    return RemoteFile(path, _checked_size(path, entry.get("size")),
                      git_sha1=blob if isinstance(blob, str) and _COMMIT_RE.match(blob) else None)


def _checked_size(path: str, size: object) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise DownloadError("protocol", f"The hub sent no valid size for “{path}”.")
    if size > MAX_FILE_BYTES:
        raise DownloadError("too_large", f"“{path}” is {size / 1024**3:.0f} GB; refusing files over "
                                         f"{MAX_FILE_BYTES // 1024**3} GB.")
    return size


def select_files(files: Iterable[RemoteFile]) -> list[RemoteFile]:
    """The files a sentence-transformers folder needs: configs, tokenizer, module folders
    (`1_Pooling/`...) and safetensors weights (PyTorch .bin only when there are none)."""
    files = list(files)
    chosen = [f for f in files if _wanted(f.path)]
    by_dir: dict[str, list[RemoteFile]] = {}
    for f in files:
        if _is_weights(f.path, _BIN_WEIGHTS_RE) or _is_weights(f.path, _WEIGHTS_RE):
            by_dir.setdefault(str(PurePosixPath(f.path).parent), []).append(f)
    for group in by_dir.values():
        safetensors = [f for f in group if _is_weights(f.path, _WEIGHTS_RE)]
        chosen += safetensors or [f for f in group if _is_weights(f.path, _BIN_WEIGHTS_RE)]
    return sorted({f.path: f for f in chosen}.values(), key=lambda f: (f.size, f.path))


def _in_model_dir(path: str) -> bool:
    parts = path.split("/")
    return len(parts) == 1 or (len(parts) == 2 and bool(_MODULE_DIR_RE.match(parts[0])))


def _is_weights(path: str, pattern: re.Pattern) -> bool:
    return _in_model_dir(path) and bool(pattern.match(PurePosixPath(path).name))


def _wanted(path: str) -> bool:
    if not _in_model_dir(path):
        return False
    name = PurePosixPath(path).name
    if name.endswith(".json") and not name.startswith(("model.safetensors.index", "pytorch_model.bin.index")):
        return True
    return "/" not in path and name in _TOP_LEVEL_EXTRA


# ---- HTTP (http.client: redirects, Range, proxies and a socket the canceller can shut) ----


class _Canceller:
    """Shuts the current socket when `cancel` is set, so a blocked connect/recv returns at once."""

    def __init__(self, cancel: threading.Event | None) -> None:
        self.cancel = cancel or threading.Event()
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="model-download-cancel", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.is_set():
            if self.cancel.wait(0.05):
                self._shut()
                return

    def _shut(self) -> None:
        with self._lock:
            sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def register(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
        if sock is not None and self.cancel.is_set():
            self._shut()

    def check(self, repo_id: str) -> None:
        if self.cancel.is_set():
            raise DownloadCancelled(repo_id)

    def close(self) -> None:
        self._done.set()
        self._thread.join(1.0)


def _connect(address: tuple[str, int], timeout: float, canceller: _Canceller) -> socket.socket:
    """A TCP connection that gives up within ~0.1 s of a cancel."""
    host, port = address
    last: OSError | None = None
    for family, kind, proto, _, addr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setblocking(False)
            code = sock.connect_ex(addr)
            deadline = time.monotonic() + timeout
            while code in (errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY, getattr(errno, "WSAEWOULDBLOCK", -1)):
                if canceller.cancel.is_set():
                    raise OSError(errno.ECANCELED, "cancelled")
                if time.monotonic() > deadline:
                    raise socket.timeout("connection timed out")
                _, writable, failed = select.select([], [sock], [sock], 0.1)
                if writable or failed:
                    code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    break
            if code not in (0, errno.EISCONN):
                raise OSError(code, os.strerror(code))
            sock.settimeout(timeout)
            canceller.register(sock)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
            if canceller.cancel.is_set():
                break
    raise last or OSError(f"cannot resolve {host}")


def _ssl_context() -> ssl.SSLContext:
    try:
        import certifi

        return ssl.create_default_context(cafile=certifi.where())
    except ImportError:
        return ssl.create_default_context()


class _Http:
    """GET with manual redirects (http/https only, Range kept), proxy support and cancellation."""

    def __init__(self, canceller: _Canceller, timeout: float, user_agent: str) -> None:
        self.canceller = canceller
        self.timeout = timeout
        self.user_agent = user_agent
        self._ssl: ssl.SSLContext | None = None

    def get(self, url: str, headers: dict[str, str] | None = None) -> tuple[http.client.HTTPResponse, str]:
        """The final response (after redirects) and its URL; the caller closes the response."""
        for _ in range(MAX_REDIRECTS + 1):
            response = self._request(url, headers or {})
            if response.status in (301, 302, 303, 307, 308):
                location = response.getheader("Location") or ""
                response.close()
                allowed = ("https",) if urllib.parse.urlsplit(url).scheme == "https" else ("http", "https")
                url = urllib.parse.urljoin(url, location)
                if urllib.parse.urlsplit(url).scheme not in allowed:  # no file:, no https -> http downgrade
                    raise DownloadError("protocol", "The hub redirected to a non-HTTPS or non-HTTP address; refused.")
                continue
            return response, url
        raise DownloadError("protocol", "The hub redirected too many times.")

    def _request(self, url: str, headers: dict[str, str]) -> http.client.HTTPResponse:
        parts = urllib.parse.urlsplit(url)
        host, https = parts.hostname or "", parts.scheme == "https"
        port = parts.port or (443 if https else 80)
        proxy = None if _is_loopback(host) or urllib.request.proxy_bypass(host) else \
            urllib.request.getproxies().get(parts.scheme)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        conn = self._connection(host, port, https, proxy)
        if proxy and not https:
            target = url  # a plain-HTTP proxy takes the absolute URL
        conn.putrequest("GET", target, skip_accept_encoding=True)
        for name, value in {"User-Agent": self.user_agent, "Accept-Encoding": "identity",
                                             "Connection": "close", **headers}.items():
            conn.putheader(name, value)
        conn.endheaders()
        return conn.getresponse()

    def _connection(self, host: str, port: int, https: bool, proxy: str | None) -> http.client.HTTPConnection:
        connect_to = (host, port)
        if proxy:
            p = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
            connect_to = (p.hostname or "", p.port or 80)
        if https:
            self._ssl = self._ssl or _ssl_context()
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                *connect_to, timeout=self.timeout, context=self._ssl)
            if proxy:
                conn.set_tunnel(host, port)
        else:
            conn = http.client.HTTPConnection(*connect_to, timeout=self.timeout)
        conn._create_connection = lambda address, timeout, source=None: _connect(  # type: ignore[attr-defined]
            address, self.timeout, self.canceller)
        return conn


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")


def _read_bounded(response: http.client.HTTPResponse, limit: int) -> bytes:
    data = response.read(limit + 1)
    if len(data) > limit:
        raise DownloadError("too_large", "The hub's answer is larger than expected; refused.")
    return data


# ---- the download ----


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
        raise DownloadError("invalid", f"“{revision}” is not a valid revision.")
    canceller = _Canceller(cancel)
    from desktop_rag import __version__

    client = _Http(canceller, timeout_s, f"desktop-rag/{__version__}")
    try:
        return _download(client, repo_id, Path(data_dir), endpoint, revision, on_progress)
    except DownloadError:
        raise
    except OSError as exc:
        canceller.check(repo_id)
        raise _os_error(exc, endpoint) from exc
    except (http.client.HTTPException, ssl.SSLError) as exc:
        canceller.check(repo_id)
        raise DownloadError("unreachable", f"The connection to {endpoint} failed ({exc.__class__.__name__}: "
                                           f"{str(exc)[:200]}). Try again; the download resumes.") from exc
    finally:
        canceller.close()


def _download(client: _Http, repo_id: str, data_dir: Path, endpoint: str, revision: str,
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


def fetch_listing(client: _Http, endpoint: str, repo_id: str, revision: str) -> tuple[str | None, list[RemoteFile]]:
    """(commit, selected files) for the repo; errors mapped to messages."""
    url = f"{endpoint}/api/models/{urllib.parse.quote(repo_id, safe='/')}/revision/" \
          f"{urllib.parse.quote(revision, safe='')}?blobs=true"
    response, _ = client.get(url, {"Accept": "application/json"})
    try:
        if response.status != 200:
            raise _http_error(response, endpoint, repo_id)
        body = _read_bounded(response, MAX_LISTING_BYTES)
    finally:
        response.close()
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DownloadError("protocol", f"{endpoint} did not answer like a model hub (no JSON file listing). "
                                        "Check the hub address in Settings.") from exc
    commit, gated, listed = parse_listing(data)
    if gated:
        raise _gated(repo_id, endpoint)
    files = select_files(listed)
    if not any(_is_weights(f.path, _WEIGHTS_RE) or _is_weights(f.path, _BIN_WEIGHTS_RE) for f in files):
        raise DownloadError("not_found", f"{repo_id} has no model weights in a format this app reads "
                                         "(safetensors or PyTorch); choose another model.")
    if sum(f.size for f in files) > MAX_TOTAL_BYTES:
        raise DownloadError("too_large", f"{repo_id} is larger than {MAX_TOTAL_BYTES // 1024**3} GB; refused.")
    return commit, files


def _http_error(response: http.client.HTTPResponse, endpoint: str, repo_id: str, path: str = "") -> DownloadError:
    status, code = response.status, response.getheader("X-Error-Code") or ""
    what = f"“{path}” of {repo_id}" if path else repo_id
    if code == "GatedRepo" or (status == 403 and code != "RepoNotFound"):
        return _gated(repo_id, endpoint)
    if code == "RevisionNotFound":
        return DownloadError("not_found", f"{repo_id} has no such revision on {endpoint}.")
    if code in ("RepoNotFound", "EntryNotFound") or status in (401, 404):
        return DownloadError("not_found", f"{what} was not found on {endpoint}. Check the name; private "
                                          "repositories cannot be downloaded here.")
    if status == 429:
        return DownloadError("http", f"{endpoint} is limiting requests (HTTP 429). Wait a few minutes and try again.")
    if status == 416:
        return DownloadError("http", f"{endpoint} refused to resume “{path}” (HTTP 416).")
    return DownloadError("http", f"{endpoint} answered HTTP {status} for {what}. Try again later, or another hub.")


def _gated(repo_id: str, endpoint: str) -> DownloadError:
    return DownloadError("gated", f"{repo_id} is gated on {endpoint}: its licence must be accepted while signed in. "
                                  "Choose another model, or download it yourself and pick its folder with Folder….")


def _os_error(exc: OSError, endpoint: str) -> DownloadError:
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return DownloadError("disk_full", "The disk is full. Free some space and try again; the download resumes.")
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return DownloadError("unreachable", f"{endpoint} stopped answering (timed out). Check the connection, or "
                                            f"choose a mirror such as {MIRROR_ENDPOINT} as the hub address.")
    if isinstance(exc, (socket.gaierror, ConnectionError)) or exc.errno in (errno.ECONNREFUSED, errno.ENETUNREACH,
                                                                              errno.EHOSTUNREACH):
        return DownloadError("unreachable", f"Cannot reach {endpoint} ({exc.strerror or exc}). Check the internet "
                                            f"connection, or choose a mirror such as {MIRROR_ENDPOINT} as the hub "
                                            "address.")
    return DownloadError("io", f"The download failed: {exc}")


def _prepare_partial(partial: Path, repo_id: str, endpoint: str, commit: str) -> None:
    """Reuse the partial folder only if it is for the same commit; else start clean."""
    state = {"repo_id": repo_id, "commit": commit}
    try:
        old = json.loads((partial / STATE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    if old != state and partial.exists():
        shutil.rmtree(partial)
    partial.mkdir(parents=True, exist_ok=True)
    (partial / STATE_NAME).write_text(json.dumps(state), encoding="utf-8")


def _check_space(partial: Path, files: list[RemoteFile], total: int) -> None:
    have = 0
    for f in files:
        final, part = _local(partial, f.path), _local(partial, f.path + ".part")
        have += f.size if final.exists() else (part.stat().st_size if part.exists() else 0)
    need = max(total - have, 0)
    free = shutil.disk_usage(partial).free
    if need + DISK_MARGIN > free:
        raise DownloadError("disk_full", f"Not enough disk space: the model needs {need / 1e6:,.0f} MB more, "
                                         f"{free / 1e6:,.0f} MB are free in {partial.parent}.")


def _local(root: Path, rel: str) -> Path:
    """`root/rel`, guaranteed to stay inside root."""
    path = root.joinpath(*safe_relative_path(rel).split("/"))
    if not is_inside(path.resolve(), root.resolve()):
        raise DownloadError("unsafe", f"“{rel}” would be written outside the model folder; refused.")
    return path


def _fetch_file(client: _Http, endpoint: str, repo_id: str, commit: str, remote: RemoteFile, partial: Path,
                counter: _Counter) -> None:
    final = _local(partial, remote.path)
    if final.is_file() and final.stat().st_size == remote.size:
        counter.done += remote.size
        return
    final.parent.mkdir(parents=True, exist_ok=True)
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


def _transfer(client: _Http, url: str, endpoint: str, repo_id: str, remote: RemoteFile, part: Path,
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
        raise DownloadError("protocol", f"The hub resumed “{remote.path}” at the wrong place; try again.")


def _stream(response: http.client.HTTPResponse, part: Path, offset: int, remote: RemoteFile, counter: _Counter,
            repo_id: str, canceller: _Canceller) -> None:
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
            raise DownloadError("checksum", f"“{remote.path}” is larger than the hub's listing says; refused.")
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
        raise DownloadError("checksum", f"“{remote.path}” did not match the hub's checksum and was deleted. "
                                        "Try again; if it happens again, try another hub address.")


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
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}-{int(time.time())}")
        os.replace(target, old)
    os.replace(partial, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
