"""A real local HTTP server speaking the OpenAI chat-completions (and embeddings) protocol, scriptable per test."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_RELEASE_TIMEOUT_S = 30.0
EMBEDDING_DIMENSION = 16  # of the vectors POST /v1/embeddings returns


@dataclass
class RecordedRequest:
    """One request the server received, and how far its answer got."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict | None
    tokens_sent: int = 0
    completed: bool = False
    finished: threading.Event = field(default_factory=threading.Event)
    client_gone: threading.Event = field(default_factory=threading.Event)  # seen hanging up mid-answer


@dataclass
class _Failure:
    status: int
    code: str | None
    message: str | None
    headers: dict[str, str] | None = None


class FakeOpenAIServer:
    """State that tests script: reply, tokens, delays, failures, cuts and hangs.

    - `reply` / `tokens`: the answer (tokens win when set; otherwise the reply is split on spaces); a dict among
      the tokens is sent as a whole chunk of its own (a malformed one), bytes as the data line's text (not JSON).
    - `queue_reply(text)`: a one-off reply for the next successful chat request (then `reply`).
    - `token_delay`: seconds between streamed tokens.
    - `fail_next(status, times, code, message)`: the next requests get an OpenAI-style error.
    - `cut_after`: stream that many tokens, then drop the connection without finishing.
    - `hang` / `hang_after`: never answer / stop sending after that many tokens (for timeouts).
    - `hang_if(body)`: never answer the requests for which it returns True (e.g. only the rewrite).
    - `silent_after_headers`: send the 200 headers of a stream, then nothing at all.
    - `ignore_stream`: answer a streaming request with one whole completion (JSON), as some servers do.
    - `raw_reply`: (content type, body) sent with status `raw_status` (200) instead of any answer (a web page, a
      quota notice, a proxy's error page).
    - `endless_body`: answer a request that does not stream with a JSON body that never ends (until the client
      hangs up).
    - `finish_reason`: the last chunk's, and a whole completion's ("length": the server stopped the answer at
      max_tokens); `finish_for(body)`: one computed from the request (e.g. only for requests that do not stream).
    - `endless`: stream `endless_token` forever (ignoring max_tokens) until the client hangs up.
    While hanging or streaming endlessly the handler notices a client that hangs up and sets
    the request's `client_gone`, so tests can check that a cancel really closed the connection.
    - `api_key`: when set, other bearer tokens get 401 (the message echoes the key, as a
      careless server might, so tests can check that clients scrub it).
    - `models`: known model ids; others get 404 with code model_not_found.
    - `model_details`: extra fields of a model's entry in the /models listing (e.g. {"context_length": 4096});
      `listing_body`: raw bytes sent instead of the listing; `listing_drip`: seconds between its bytes.
    - `reply_for(body)`: a reply computed from the request (None: the scripted one), e.g. an oracle translator.
    """

    def __init__(self) -> None:
        self.reply = "Hello from the fake model."
        self.tokens: list[str] | None = None
        self.token_delay = 0.0
        self.models: list[str] = ["fake-model"]
        self.model_details: dict[str, dict] = {}
        self.listing_body: bytes | None = None
        self.listing_drip = 0.0
        self.api_key: str | None = None
        self.cut_after: int | None = None
        self.hang = False
        self.hang_after: int | None = None
        self.hang_if: Callable[[dict], bool] | None = None
        self.silent_after_headers = False
        self.endless = False
        self.finish_reason = "stop"
        self.finish_for: Callable[[dict], str] | None = None
        self.ignore_stream = False
        self.raw_reply: tuple[str, bytes] | None = None
        self.raw_status = 200
        self.endless_body = False
        self.endless_token = " more"
        self.requests: list[RecordedRequest] = []
        self.reply_for: Callable[[dict], str | None] | None = None  # a reply computed from the request body
        self._failures: list[_Failure] = []
        self._queued: list[str] = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- scripting ----

    def fail_next(
        self, status: int, times: int = 1, code: str | None = None, message: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next `times` chat requests with an error status (and `headers`, e.g. Retry-After)."""
        with self._lock:
            self._failures.extend(_Failure(status, code, message, headers) for _ in range(times))

    def queue_reply(self, text: str) -> None:
        """Use `text` (split on spaces) for the next successful chat request only."""
        with self._lock:
            self._queued.append(text)

    def reply_tokens(self) -> list[str]:
        """The tokens of the scripted answer (the default one; see `_next_tokens`)."""
        if self.tokens is not None:
            return list(self.tokens)
        return _split_words(self.reply)

    def _next_tokens(self, body: dict | None = None) -> list[str]:
        if self.reply_for is not None and body is not None:
            answer = self.reply_for(body)
            if answer is not None:
                return _split_words(answer)
        with self._lock:
            queued = self._queued.pop(0) if self._queued else None
        return _split_words(queued) if queued is not None else self.reply_tokens()

    def finish_of(self, body: dict | None) -> str:
        """The finish reason of the reply to `body`."""
        return self.finish_for(body or {}) if self.finish_for is not None else self.finish_reason

    def chat_requests(self) -> list[RecordedRequest]:
        """Only the POST /v1/chat/completions requests."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def streamed(self) -> int:
        """How many chat requests asked for a streamed reply: the answers (a rewrite or a translation is not)."""
        return len([r for r in self.chat_requests() if r.body.get("stream")])

    def release(self) -> None:
        """Let hanging handlers finish (called on stop)."""
        self._release.set()

    # ---- lifecycle ----

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeOpenAIServer":
        handler = type("BoundHandler", (_Handler,), {"state": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _pop_failure(self) -> _Failure | None:
        with self._lock:
            return self._failures.pop(0) if self._failures else None


class _Server(ThreadingHTTPServer):
    """Daemon threads; clients hanging up (cancel, cut) are expected, not errors to print."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


@contextlib.contextmanager
def run_openai_server() -> Iterator[FakeOpenAIServer]:
    """Start a fake server on 127.0.0.1 (free port) and stop it afterwards."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()


def serve_replying(reply: str) -> Iterator[FakeOpenAIServer]:
    """A fixture's body: a fake server answering `reply`, stopped afterwards (`yield from serve_replying(...)`)."""
    with run_openai_server() as server:
        server.reply = reply
        yield server


def _split_words(text: str) -> list[str]:
    words = text.split(" ")
    return [w if i == 0 else " " + w for i, w in enumerate(words)]


def _error_body(status: int, code: str | None, message: str) -> dict:
    kinds = {401: "invalid_request_error", 404: "invalid_request_error", 429: "requests"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"), "param": None, "code": code}}


def _chunk(model: str, delta: dict | None, finish: str | None = None) -> dict:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": choices,
    }


class _Handler(BaseHTTPRequestHandler):
    """Serves /v1/models, /v1/chat/completions and /v1/embeddings from the bound FakeOpenAIServer state."""

    protocol_version = "HTTP/1.1"
    state: FakeOpenAIServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - silence stderr
        pass

    # ---- plumbing ----

    def _record(self, body: dict | None) -> RecordedRequest:
        rec = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        with self.state._lock:
            self.state.requests.append(rec)
        return rec

    def _send_json(self, status: int, payload: dict, extra: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _send_raw(self, content_type: str, data: bytes) -> None:
        self.send_response(self.state.raw_status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        self.wfile.flush()

    def _sse(self, payload: dict | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        self._write_chunk(f"data: {text}\n\n".encode("utf-8"))

    # ---- routes ----

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        rec = self._record(None)
        if self.path.rstrip("/").endswith("/models") and (self.state.listing_body or self.state.listing_drip):
            self._send_listing()
        elif self.path.rstrip("/").endswith("/models"):
            details = self.state.model_details
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "test", **details.get(m, {})}
                    for m in self.state.models]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_json(404, _error_body(404, None, f"No route {self.path}"))
        rec.completed = True
        rec.finished.set()

    def _send_listing(self) -> None:
        """The scripted listing body, byte by byte every `listing_drip` seconds when set (a slow server)."""
        body = self.state.listing_body or json.dumps({"data": [{"id": m} for m in self.state.models]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            if not self.state.listing_drip:
                self.wfile.write(body)
                return
            for i in range(len(body)):
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(self.state.listing_drip)
        except OSError:  # the client gave up
            pass

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = None
        rec = self._record(body)
        try:
            self._answer_chat(rec, body or {})
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True
        finally:
            rec.finished.set()

    def _answer_chat(self, rec: RecordedRequest, body: dict) -> None:
        state = self.state
        if self.path.rstrip("/").endswith("/embeddings"):
            if not self._reject(body):
                self._send_embeddings(body)
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, _error_body(404, None, f"No route {self.path}"))
            return
        if state.hang or (state.hang_if is not None and state.hang_if(body)):
            self._wait_for_release(rec)
            return
        if self._reject(body):
            return
        if state.raw_reply is not None:
            self._send_raw(*state.raw_reply)
            return
        if state.endless_body and not body.get("stream"):
            self._send_endless_body(rec)
            return
        tokens = state._next_tokens(body)
        if body.get("stream") and not state.ignore_stream:
            self._stream(rec, body.get("model", ""), tokens)
        else:
            self._send_json(200, _completion(body.get("model", ""), "".join(tokens), state.finish_of(body)))
            rec.tokens_sent = len(tokens)
            rec.completed = True

    def _send_embeddings(self, body: dict) -> None:
        """An OpenAI-style embeddings response: one unit vector of `EMBEDDING_DIMENSION` per input text, the same
        for the same text."""
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        rows = [{"object": "embedding", "index": i, "embedding": _text_vector(str(text))}
                for i, text in enumerate(texts)]
        self._send_json(200, {"object": "list", "data": rows, "model": body.get("model", ""),
                              "usage": {"prompt_tokens": 0, "total_tokens": 0}})

    def _reject(self, body: dict) -> bool:
        """Send an auth / model / scripted error when one applies."""
        state = self.state
        auth = self.headers.get("Authorization", "")
        if state.api_key is not None and auth != f"Bearer {state.api_key}":
            given = auth.removeprefix("Bearer ")
            msg = f"Incorrect API key provided: {given}. You can find your API key in your account."
            self._send_json(401, _error_body(401, "invalid_api_key", msg))
            return True
        failure = state._pop_failure()
        if failure is not None:
            msg = failure.message or f"Scripted failure with status {failure.status}"
            self._send_json(failure.status, _error_body(failure.status, failure.code, msg), failure.headers)
            return True
        model = body.get("model", "")
        if state.models and model not in state.models:
            msg = f"The model `{model}` does not exist or you do not have access to it."
            self._send_json(404, _error_body(404, "model_not_found", msg))
            return True
        return False

    def _wait_for_release(self, rec: RecordedRequest) -> None:
        """Send nothing until released (or the client hangs up, which is recorded)."""
        self.close_connection = True
        deadline = time.monotonic() + _RELEASE_TIMEOUT_S
        while time.monotonic() < deadline and not self.state._release.wait(0.02):
            if _peer_closed(self.connection):
                rec.client_gone.set()
                return

    def _stream_forever(self, rec: RecordedRequest, model: str) -> None:
        self.close_connection = True
        deadline = time.monotonic() + _RELEASE_TIMEOUT_S
        try:
            while time.monotonic() < deadline and not self.state._release.is_set():
                self._sse(_chunk(model, {"content": self.state.endless_token}))
                rec.tokens_sent += 1
                if self.state.token_delay:
                    time.sleep(self.state.token_delay)
        except OSError:
            rec.client_gone.set()

    def _send_endless_body(self, rec: RecordedRequest) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True
        self._write_chunk(b'{"choices": [{"index": 0, "message": {"content": "')
        block, deadline = b"x" * 65536, time.monotonic() + _RELEASE_TIMEOUT_S
        try:
            while time.monotonic() < deadline and not self.state._release.is_set():
                self._write_chunk(block)
        except OSError:
            rec.client_gone.set()

    def _stream(self, rec: RecordedRequest, model: str, tokens: list[str]) -> None:
        state = self.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        if state.silent_after_headers:
            self._wait_for_release(rec)
            return
        if state.endless:
            self._stream_forever(rec, model)
            return
        self._sse(_chunk(model, {"role": "assistant", "content": ""}))
        self._sse(_chunk(model, None))  # a chunk with empty choices (e.g. filter results)
        for i, token in enumerate(tokens):
            if state.cut_after is not None and i >= state.cut_after:
                self._cut()
                return
            if state.hang_after is not None and i >= state.hang_after:
                state._release.wait(_RELEASE_TIMEOUT_S)
                self.close_connection = True
                return
            if state.token_delay:
                time.sleep(state.token_delay)
            self._sse(token if isinstance(token, dict) else token.decode() if isinstance(token, bytes)
                      else _chunk(model, {"content": token}))
            rec.tokens_sent += 1
            if i == 0:
                self._sse(_chunk(model, {}))  # a delta without content
        self._sse(_chunk(model, {}, finish=state.finish_of(rec.body)))
        self._sse("[DONE]")
        self._write_chunk(b"")
        rec.completed = True

    def _cut(self) -> None:
        """Drop the connection mid-body: no terminating chunk, no [DONE]."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


def _text_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    vector = [byte - 127.5 for byte in digest[:EMBEDDING_DIMENSION]]
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector]


def _peer_closed(sock: socket.socket) -> bool:
    """True once the client has closed or shut down its side of the connection."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _completion(model: str, text: str, finish: str = "stop") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
