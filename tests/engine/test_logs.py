"""The log file: rotation, idempotent setup, and API keys redacted from every part of every record."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_rag import logs
from desktop_rag.config import resolve_paths
from tests.support import REPO

ENV_KEY = "zp-4f9c2e7a1b3d5f60.Qx8kLm2Np4Rs6Tv8"  # Zhipu-style: no sk- prefix, only known from the env
SK_KEY = "sk-proj-Abc123Def456Ghi789Jkl012"


@pytest.fixture
def log_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    path = logs.setup_logging(resolve_paths(tmp_path / "home"), level=logging.DEBUG)
    yield path
    logs.shutdown_logging()


def read(path: Path) -> str:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return path.read_text(encoding="utf-8")


def test_log_file_lives_in_the_log_dir(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path / "home")
    try:
        path = logs.setup_logging(paths)
        assert path == (paths.log_dir / "desktop-rag.log").resolve()
        assert logs.setup_logging(paths) == path  # idempotent: still one handler
        ours = [h for h in logging.getLogger().handlers if getattr(h, "baseFilename", "") == str(path)]
        assert len(ours) == 1
        assert logs.current_log_file() == path
        logging.getLogger("desktop_rag.test").warning("写入日志 %s", "中文")
        assert "写入日志 中文" in read(path)
    finally:
        logs.shutdown_logging()
    assert logs.current_log_file() is None


def test_undecodable_text_is_logged_as_escapes(log_file: Path, capsys: pytest.CaptureFixture) -> None:
    """A path typed with bytes that are not UTF-8 reaches the log as lone surrogates: written as escapes, not a
    "--- Logging error ---" with its traceback on stderr."""
    logging.getLogger("desktop_rag.cli.main").error("%s failed: %s", "remove", "/tmp/\udcff is not a source")
    assert "remove failed: /tmp/\\udcff is not a source" in read(log_file)
    assert "Logging error" not in capsys.readouterr().err


def test_secrets_never_reach_the_file(log_file: Path) -> None:
    log = logging.getLogger("desktop_rag.engine.answer.llm")
    log.info("calling with key %s", SK_KEY)
    log.info("config: %r", {"api_key": ENV_KEY, "model": "glm-4-flash"})
    log.info("url https://x.test/v1?api_key=%s&q=1", ENV_KEY)
    log.warning("env says OPENAI_API_KEY=%s", ENV_KEY)
    log.info("the key itself in the message: " + ENV_KEY)
    # what httpx/httpcore/openai debug logging looks like, through their own loggers
    logging.getLogger("httpcore.http11").debug(
        "send_request_headers.started request=<Request [b'POST']> headers=%s",
        [(b"Host", b"api.example"), (b"Authorization", f"Bearer {ENV_KEY}".encode())])
    logging.getLogger("httpx").debug("Authorization: Bearer %s", SK_KEY)
    logging.getLogger("httpx").debug("authorization: Bearer %s", ENV_KEY)
    logging.getLogger("openai._base_client").debug('Request options: {"headers": {"authorization": "Bearer %s"}}',
                                                   ENV_KEY)
    text = read(log_file)
    assert ENV_KEY not in text and SK_KEY not in text
    assert "sk-proj" not in text and "4f9c2e7a1b3d5f60" not in text
    assert text.count(logs.REDACTED) >= 8 and "[REDACTED]]" not in text  # redacted once, cleanly
    assert "glm-4-flash" in text and "q=1" in text  # the rest of the message survives


def test_secret_in_exception_traceback_is_redacted(log_file: Path) -> None:
    def call_api(api_key: str) -> None:
        raise PermissionError(f"401 Unauthorized for key {api_key}; headers Authorization: Bearer {SK_KEY}")

    try:
        call_api(ENV_KEY)
    except PermissionError:
        logging.getLogger("openai").exception("request failed for %s", ENV_KEY)
    logging.getLogger("desktop_rag").error("with stack", stack_info=True, extra={"k": 1})
    text = read(log_file)
    assert "Traceback (most recent call last)" in text and "PermissionError: 401 Unauthorized" in text
    assert ENV_KEY not in text and SK_KEY not in text


def test_key_set_after_setup_and_registered_secrets(log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    later = "later-key-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", later)  # e.g. saved from Settings while the app runs
    logs.register_secret("typed-into-settings-9876543210")
    logging.getLogger("x").info("a %s b %s", later, "typed-into-settings-9876543210")
    text = read(log_file)
    assert later not in text and "typed-into-settings" not in text


def test_placeholder_keys_are_not_treated_as_secrets(log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "ollama")
    logging.getLogger("x").info("provider ollama at localhost")
    assert "provider ollama at localhost" in read(log_file)


def test_bad_format_args_are_still_logged_and_redacted(log_file: Path) -> None:
    logging.getLogger("x").info("two placeholders %s %s", SK_KEY)
    text = read(log_file)
    assert "two placeholders" in text and SK_KEY not in text


def test_rotation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 2_000)
    path = logs.setup_logging(resolve_paths(tmp_path / "home"))
    try:
        for i in range(400):
            logging.getLogger("x").info("line %04d %s", i, "x" * 40)
    finally:
        logs.shutdown_logging()
    files = sorted(path.parent.glob("desktop-rag.log*"))
    assert len(files) == 1 + logs.BACKUP_COUNT
    assert all(f.stat().st_size <= 2_200 for f in files)


def test_cli_writes_the_log_without_the_key(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"DESKTOP_RAG_HOME": str(home), "OPENAI_API_KEY": ENV_KEY, "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "desktop_rag", "status", "--json"], capture_output=True,
                         text=True, timeout=120, env=env, cwd=REPO)
    assert out.returncode == 0, out.stderr
    text = (home / "logs" / "desktop-rag.log").read_text(encoding="utf-8")
    assert "desktop-rag" in text and "status" in text
    assert ENV_KEY not in text and ENV_KEY not in out.stdout + out.stderr


def test_a_password_in_a_model_servers_address_is_redacted(log_file: Path) -> None:
    """httpx logs each request's URL: a model server reached as http://user:PASSWORD@host wrote the password to the
    log (only a database URL's was redacted). The log says the part was dropped, never what it was."""
    from desktop_rag.engine.answer.llm import LLMClient
    from desktop_rag.engine.answer.llm_errors import LLMError
    from desktop_rag.engine.answer.llm_config import LLMConfig
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        address = server.base_url.replace("http://", "http://bob:hunter2secret@")
        client = LLMClient(LLMConfig(address, "fake-model", api_key=SK_KEY, max_retries=0))
        try:
            client.complete([{"role": "user", "content": "hi"}])
        except LLMError:
            pass
        assert server.chat_requests()  # the request was made (and logged)
    text = read(log_file)
    assert "hunter2secret" not in text  # (nor is the user:password@ part sent: the request went to the bare address)
    assert "POST http://127.0.0.1:" in text and "user:password@" in text


_EVERY_SECRET_SCRIPT = """
import logging, sys
from pathlib import Path
from desktop_rag import logs
from desktop_rag.config import resolve_paths
log = logging.getLogger("desktop_rag.test")
for name in logs.SECRET_ENVS:  # before setup_logging: logging's last resort, stderr
    log.warning("early %s is %s", name, __import__("os").environ[name])
logs.setup_logging(resolve_paths(Path(sys.argv[1])))
for name in logs.SECRET_ENVS:
    log.warning("late %s is %s", name, __import__("os").environ[name])
"""


def test_every_secret_variable_is_hidden_in_the_file_and_on_stderr(tmp_path: Path) -> None:
    """Each environment variable that can hold a secret (the embedding server's key was missing) is one list, and a
    line carrying its value, logged through the app's logging, shows it neither in the log file nor on stderr."""
    from desktop_rag.engine.answer.llm_config import KEY_ENV as CHAT_KEY
    from desktop_rag.engine.models.embedders.api_backend import KEY_ENV as EMBEDDING_KEY
    from desktop_rag.engine.store.postgres.url import PASSWORD_VARIABLE

    assert {CHAT_KEY, EMBEDDING_KEY, PASSWORD_VARIABLE, "HF_TOKEN"} <= set(logs.SECRET_ENVS)
    values = {name: f"plain{index}Value{name.lower()}" for index, name in enumerate(logs.SECRET_ENVS)}
    home = tmp_path / "home"
    env = {"PATH": "/usr/bin:/bin", "DESKTOP_RAG_HOME": str(home), **values}
    out = subprocess.run([sys.executable, "-c", _EVERY_SECRET_SCRIPT, str(home)], capture_output=True, text=True,
                         timeout=120, env=env, cwd=REPO)
    assert out.returncode == 0, out.stderr
    text = (home / "logs" / "desktop-rag.log").read_text(encoding="utf-8")
    for name, value in values.items():
        assert f"early {name} is {logs.REDACTED}" in out.stderr
        assert f"late {name} is {logs.REDACTED}" in text
        assert value not in text and value not in out.stderr + out.stdout
