"""A real loopback HTTP server that answers like the Hugging Face hub for model downloads.

Routes (as on huggingface.co): `GET /api/models/{org}/{name}/revision/{rev}?blobs=true` (the file
listing with sizes, blob ids and LFS sha256), `GET /{org}/{name}/resolve/{rev}/{path}` (LFS files:
302 to an absolute CDN URL with X-Linked-Size/X-Linked-Etag; regular files: 307 to a relative
`/api/resolve-cache/...` URL), and the targets of those redirects, which honour `Range: bytes=N-`
with 206. Missing repos get 401 + `X-Error-Code: RepoNotFound`, as the hub answers anonymous
clients; gated repos 401 + `GatedRepo`; unknown files 404 + `EntryNotFound`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LFS_THRESHOLD = 10 * 1024  # bigger files (and every *.safetensors / *.bin) are stored as LFS


@dataclass
class FakeRepo:
    """One model repository: file contents, its commit, and whether it is gated."""

    files: dict[str, bytes]
    commit: str = field(default_factory=lambda: secrets.token_hex(20))
    gated: bool = False
    extra_siblings: list[dict] = field(default_factory=list)  # raw (possibly hostile) listing entries

    def is_lfs(self, path: str) -> bool:
        return len(self.files[path]) > LFS_THRESHOLD or path.endswith((".safetensors", ".bin", ".onnx"))

    def sibling(self, path: str) -> dict:
        data = self.files[path]
        entry: dict = {"rfilename": path, "blobId": _git_sha1(data), "size": len(data)}
        if self.is_lfs(path):
            pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha256(data)}\nsize {len(data)}\n"
            entry.update(blobId=_git_sha1(pointer.encode()), size=len(data),
                         lfs={"sha256": _sha256(data), "size": len(data), "pointerSize": len(pointer)})
        return entry


@dataclass
class HubRequest:
    method: str
    path: str
    headers: dict[str, str]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _git_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324


def repo_from_folder(folder: Path) -> FakeRepo:
    """A repo holding every file of a local folder (e.g. the bundled all-MiniLM-L6-v2)."""
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return FakeRepo(files)


class FakeHub:
    """Scriptable state:

    - `repos[repo_id]`: the repositories served.
    - `cut_once[path] = n`: the first download of that file sends n bytes, then drops the connection.
    - `corrupt`: files served with one byte flipped (the listing keeps the true checksum).
    - `chunk_delay`: seconds between 16 KiB chunks of file bodies (a slow link).
    - `stall_after[path] = n`: send n bytes of that file, then stop sending (until `release`).
    - `listing_override`: raw bytes returned as the file listing.
    - `listing_hides_gated`: the listing says `gated: false` even for gated repos.
    - `requests`: every request received.
    """

    def __init__(self) -> None:
        self.repos: dict[str, FakeRepo] = {}
        self.cut_once: dict[str, int] = {}
        self.corrupt: set[str] = set()
        self.chunk_delay = 0.0
        self.stall_after: dict[str, int] = {}
        self.listing_override: bytes | None = None
        self.listing_hides_gated = False  # as a mirror might: only the file requests say "gated"
        self.requests: list[HubRequest] = []
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.endpoint = ""

    def add_repo(self, repo_id: str, files: dict[str, bytes], **kwargs) -> FakeRepo:
        repo = FakeRepo(dict(files), **kwargs)
        self.repos[repo_id] = repo
        return repo

    def file_requests(self, name: str) -> list[HubRequest]:
        """Requests that fetched the bytes of file `name` (after redirects)."""
        return [r for r in self.requests if r.path.startswith(("/cdn/", "/api/resolve-cache/"))
                and urllib.parse.unquote(r.path.split("?")[0]).endswith("/" + name)]


def make_handler(hub: FakeHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802
            with hub.lock:
                hub.requests.append(HubRequest("GET", self.path, {k.lower(): v for k, v in self.headers.items()}))
            parts = urllib.parse.urlsplit(self.path)
            path = urllib.parse.unquote(parts.path)
            m = re.match(r"^/api/models/([^/]+/[^/]+)/revision/([^/]+)$", path)
            if m:
                return self._listing(m.group(1), m.group(2))
            m = re.match(r"^/api/resolve-cache/models/([^/]+/[^/]+)/([0-9a-f]{40})/(.+)$", path)
            if m:
                return self._serve(m.group(1), m.group(3))
            m = re.match(r"^/cdn/([0-9a-f]{64})/(.+)$", path)
            if m:
                qs = urllib.parse.parse_qs(parts.query)
                return self._serve(qs.get("repo", [""])[0], m.group(2))
            m = re.match(r"^/([^/]+/[^/]+)/resolve/([^/]+)/(.+)$", path)
            if m:
                return self._resolve(m.group(1), m.group(2), m.group(3))
            self._error(404, "", "Not found")

        # ---- routes ----

        def _repo(self, repo_id: str, revision: str | None) -> FakeRepo | None:
            repo = hub.repos.get(repo_id)
            if repo is None:
                self._error(401, "RepoNotFound", "Repository not found")
                return None
            if revision is not None and revision not in ("main", repo.commit):
                self._error(404, "RevisionNotFound", "Invalid rev id: " + revision)
                return None
            return repo

        def _listing(self, repo_id: str, revision: str) -> None:
            if hub.listing_override is not None:
                return self._send(200, hub.listing_override, {"Content-Type": "application/json"})
            repo = self._repo(repo_id, revision)
            if repo is None:
                return
            body = {"_id": secrets.token_hex(12), "id": repo_id, "modelId": repo_id, "sha": repo.commit,
                    "private": False, "disabled": False,
                    "gated": "manual" if repo.gated and not hub.listing_hides_gated else False,
                    "library_name": "sentence-transformers",
                    "siblings": [repo.sibling(p) for p in repo.files] + repo.extra_siblings}
            self._send(200, json.dumps(body).encode(), {"Content-Type": "application/json; charset=utf-8"})

        def _resolve(self, repo_id: str, revision: str, file: str) -> None:
            repo = self._repo(repo_id, revision)
            if repo is None:
                return
            if repo.gated:
                return self._error(401, "GatedRepo", "Access to model is restricted.")
            if file not in repo.files:
                return self._error(404, "EntryNotFound", "Entry not found")
            data = repo.files[file]
            quoted = urllib.parse.quote(file)
            headers = {"X-Repo-Commit": repo.commit, "Content-Length": "0"}
            if repo.is_lfs(file):
                sha = _sha256(data)
                headers.update({"Location": f"{hub.endpoint}/cdn/{sha}/{quoted}?repo={urllib.parse.quote(repo_id)}",
                                "X-Linked-Size": str(len(data)), "X-Linked-Etag": f'"{sha}"', "ETag": f'"{sha}"'})
                return self._send(302, b"", headers)
            headers.update({"Location": f"/api/resolve-cache/models/{repo_id}/{repo.commit}/{quoted}"
                                        f"?etag=%22{_git_sha1(data)}%22", "ETag": f'"{_git_sha1(data)}"'})
            self._send(307, b"", headers)

        def _serve(self, repo_id: str, file: str) -> None:
            repo = hub.repos.get(repo_id)
            if repo is None or file not in repo.files:
                return self._error(404, "EntryNotFound", "Entry not found")
            data = repo.files[file]
            if file in hub.corrupt:
                data = bytes([data[0] ^ 0xFF]) + data[1:]
            start, status, headers = 0, 200, {"Accept-Ranges": "bytes", "ETag": f'"{_sha256(data)}"',
                                               "Content-Type": "application/octet-stream"}
            m = re.match(r"^bytes=(\d+)-(\d*)$", self.headers.get("Range", ""))
            if m:
                start = int(m.group(1))
                if start >= len(data):
                    headers["Content-Range"] = f"bytes */{len(data)}"
                    return self._send(416, b"", headers)
                status, headers["Content-Range"] = 206, f"bytes {start}-{len(data) - 1}/{len(data)}"
            body = data[start:]
            self._head(status, {**headers, "Content-Length": str(len(body))})
            self._body(file, body)

        # ---- sending ----

        def _body(self, file: str, body: bytes) -> None:
            cut = None
            with hub.lock:
                if file in hub.cut_once:
                    cut = hub.cut_once.pop(file)
            stall = hub.stall_after.get(file)
            sent = 0
            try:
                while sent < len(body):
                    if cut is not None and sent >= cut:
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)  # a cut connection, mid-file
                        self.close_connection = True
                        return
                    if stall is not None and sent >= stall:
                        hub.release.wait(30)
                        return
                    marks = [x for x in (cut, stall) if x is not None and x > sent]
                    limit = min([16 * 1024, *(x - sent for x in marks)])
                    self.wfile.write(body[sent:sent + limit])
                    sent += limit
                    if hub.chunk_delay:
                        self.wfile.flush()
                        time.sleep(hub.chunk_delay)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def _head(self, status: int, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self._head(status, {**headers, "Content-Length": str(len(body))})
            self.wfile.write(body)

        def _error(self, status: int, code: str, message: str) -> None:
            body = json.dumps({"error": message}).encode()
            headers = {"Content-Type": "application/json", "X-Error-Message": message}
            if code:
                headers["X-Error-Code"] = code
            self._send(status, body, headers)

    return Handler


@contextlib.contextmanager
def run_hub_server(hub: FakeHub | None = None) -> Iterator[FakeHub]:
    """Serve `hub` on 127.0.0.1 (a free port) for the duration of the block."""
    hub = hub or FakeHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(hub))
    server.daemon_threads = True
    hub.endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, name="fake-hub", daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        hub.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def fake_model_files(weights_bytes: int = 300_000, seed: int = 1) -> dict[str, bytes]:
    """A sentence-transformers-shaped repo with generated bytes, plus files a download must skip."""
    rnd = hashlib.sha256(str(seed).encode()).digest()
    weights = (rnd * (weights_bytes // len(rnd) + 1))[:weights_bytes]
    weights = bytes(b ^ (i * 131 % 251) for i, b in enumerate(weights))
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]
    return {
        "config.json": json.dumps({"model_type": "bert", "hidden_size": 8}).encode(),
        "modules.json": json.dumps(modules).encode(),
        "sentence_bert_config.json": b'{"max_seq_length": 512, "do_lower_case": false}',
        "config_sentence_transformers.json": b'{"prompts": {"query": "query: ", "passage": "passage: "}}',
        "tokenizer.json": json.dumps({"vocab": {f"tok{i}": i for i in range(2000)}}).encode(),
        "tokenizer_config.json": b'{"model_max_length": 512}',
        "special_tokens_map.json": b'{"unk_token": "[UNK]"}',
        "sentencepiece.bpe.model": bytes(range(256)) * 64,
        "1_Pooling/config.json": b'{"word_embedding_dimension": 8, "pooling_mode_mean_tokens": true}',
        "model.safetensors": weights,
        "README.md": "# Fake model 测试\n".encode(),
        # never downloaded:
        "pytorch_model.bin": weights[:1000],
        "onnx/model.onnx": weights[:2000],
        "openvino/openvino_model.xml": b"<xml/>",
        "tf_model.h5": b"h5" * 100,
        "flax_model.msgpack": b"msgpack" * 10,
        ".gitattributes": b"*.bin filter=lfs\n",
    }
