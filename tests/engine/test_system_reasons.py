"""The operating system's and the network's reasons are worded in both languages (`engine.system_errors`): a Chinese
message ended in the system's English ("无法连接位于 … 的模型服务器（Name or service not known）", "Connection refused",
"No space left on device"). Real failures: a host name under .invalid, a closed loopback port, /dev/full, a file that
is not there; the English words are the system's own, so an English message reads as before."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError, error_text
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.system_errors import MAX_DETAIL, os_reason, system_reason
from tests.support.english import english_sentence
from tests.support.system_limits import full_disk
from tests.support.unreachable import UNRESOLVABLE, closed_port


def _raised(action: Callable[[], object]) -> OSError:
    try:
        action()
    except OSError as exc:
        return exc
    raise AssertionError("no OSError")


def _connect(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass


def _write_to_full_disk() -> None:
    with open("/dev/full", "w") as full:
        full.write("x")
        full.flush()


def _said(exc: OSError, chinese: str) -> None:
    """`exc` is said in Chinese as `chinese`, without the system's English words; in English with them."""
    reason = os_reason(exc)
    assert reason.text("zh") == chinese and exc.strerror not in reason.text("zh")
    assert reason.text("en") == exc.strerror


def test_a_host_name_that_does_not_resolve() -> None:
    exc = _raised(lambda: socket.getaddrinfo(UNRESOLVABLE, 80))
    assert isinstance(exc, socket.gaierror)
    if exc.errno != socket.EAI_NONAME:
        pytest.skip(f"this resolver says {exc.strerror!r} for a name under .invalid")
    _said(exc, "找不到该主机名")


def test_a_refused_connection() -> None:
    _said(_raised(lambda: _connect(closed_port())), "连接被拒绝")


@full_disk
def test_a_full_disk() -> None:
    _said(_raised(_write_to_full_disk), "磁盘空间已满")


def test_an_error_naming_a_file_is_said_with_the_file_in_either_language(tmp_path: Path) -> None:
    """Python's "[Errno 2] No such file or directory: '…'" is not what a person reads."""
    missing = tmp_path / "gone.txt"
    reason = Reason.of(_raised(lambda: missing.read_text(encoding="utf-8")))
    assert reason.text("en") == f"No such file or directory: {missing}"
    assert reason.text("zh") == f"文件或文件夹不存在：{missing}"


def test_the_reason_behind_a_wrapping_error_is_found() -> None:
    """An HTTP library or a database driver wraps the system's error: its cause (or context) says why."""
    refused = _raised(lambda: _connect(closed_port()))
    try:
        try:
            raise RuntimeError("Connection error.") from refused
        except RuntimeError:
            raise ValueError("driver")  # noqa: B904 - the context, as a driver re-raising in its handler
    except ValueError as wrapped:
        assert system_reason(wrapped) == os_reason(refused)
    assert system_reason(ValueError("no system error behind it")) is None


def test_a_coded_error_quoting_the_system_reason_is_stored_and_read_back_in_either_language() -> None:
    """A failed file's reason keeps the system's reason as a code (files.reason), so `status` says it in Chinese."""
    refused = _raised(lambda: _connect(closed_port()))
    reason = Reason.of(LoadError.coded("file_unreadable", reason=os_reason(refused)))
    again = Reason.stored(str(reason), reason.to_json())
    assert again.text("zh") == "无法读取该文件（连接被拒绝）"
    assert again.text("en") == "The file could not be read (Connection refused)"


def test_a_reason_the_table_does_not_know_keeps_the_systems_words_bounded() -> None:
    unknown = OSError(errno.EPROTO, os.strerror(errno.EPROTO))
    assert os_reason(unknown).text("en") == os.strerror(errno.EPROTO)
    assert os_reason(unknown).text("zh") == f"系统报告的错误：{os.strerror(errno.EPROTO)}"
    long = os_reason(OSError("a line\nthat goes on " + "and on " * 500))
    assert len(long.text("en")) <= MAX_DETAIL and "\n" not in long.text("en")


@pytest.mark.parametrize("make", [
    lambda: _raised(lambda: _connect(closed_port())),
    lambda: OSError(errno.EACCES, os.strerror(errno.EACCES)),
    lambda: OSError(errno.EROFS, os.strerror(errno.EROFS)),
    lambda: OSError(errno.ECONNRESET, os.strerror(errno.ECONNRESET)),
    lambda: OSError(errno.ENETUNREACH, os.strerror(errno.ENETUNREACH)),
    lambda: OSError(errno.ENOENT, os.strerror(errno.ENOENT)),
    lambda: TimeoutError("timed out"),
])
def test_the_common_reasons_are_chinese_in_a_chinese_message(make: Callable[[], OSError]) -> None:
    exc = make()
    shown = error_text(LoadError.coded("file_unreadable", reason=os_reason(exc)), "zh")
    assert str(exc.strerror or exc) not in shown and english_sentence(shown) is None, shown


@contextmanager
def _tls_server(folder: Path) -> Iterator[int]:
    """A loopback TLS server with a self-signed certificate for localhost (made by openssl); its port."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a certificate")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True, timeout=60)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            try:
                with context.wrap_socket(conn, server_side=True):
                    pass
            except OSError:  # the client refused the certificate
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def _model_error(base_url: str) -> Exception:
    """What the model client raises asking the server at `base_url` (no retries)."""
    from desktop_rag.engine.answer.llm import LLMClient
    from desktop_rag.engine.answer.llm_errors import LLMError
    from desktop_rag.engine.answer.llm_config import LLMConfig

    client = LLMClient(LLMConfig(base_url=base_url, model="m", api_key="sk-test-123", max_retries=0, timeout_s=10))
    with pytest.raises(LLMError) as caught:
        client.complete([{"role": "user", "content": "hi"}])
    return caught.value


def test_a_certificate_not_trusted_is_said_in_either_language(tmp_path: Path) -> None:
    """Through the HTTP library the model client uses, as a model server with a self-signed certificate answers."""
    with _tls_server(tmp_path) as port:
        error = _model_error(f"https://localhost:{port}/v1")
    assert "(self-signed certificate)" in str(error), error
    chinese = error_text(error, "zh")
    assert "（服务器的证书是自签名的，不受信任）" in chinese and english_sentence(chinese) is None, chinese


def test_https_to_a_plain_http_server_is_said_in_either_language() -> None:
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        error = _model_error(server.base_url.replace("http://", "https://"))
    assert "the server does not speak https" in str(error), error
    chinese = error_text(error, "zh")
    assert "服务器不支持 https" in chinese and english_sentence(chinese) is None, chinese
