"""Where the key goes: only real loopback addresses count as local; plain http:// to another machine is warned about."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine.answer.llm_config import (
    LLMConfig,
    config_problem,
    is_local_url,
    plain_http_warning,
    resolve_llm_config,
)
from tests.support.hash_cli import environment

KEY = "sk-test-SECRET1234567890abcdefXYZ"

LOCAL = [
    "http://localhost:11434/v1", "http://LOCALHOST./v1", "http://127.0.0.1:1234/v1", "http://127.8.9.10/v1",
    "http://[::1]:8080/v1", "http://[::ffff:127.0.0.1]:8080/v1", "http://0.0.0.0:11434/v1",
]
REMOTE = [
    "http://127.evil.com/v1", "http://127.0.0.1.nip.io/v1", "http://localhost.evil.com/v1",
    "http://evil.com/127.0.0.1/v1", "http://evil.com/?host=localhost", "http://127.0.0.1@evil.com/v1",
    "http://[::1", "https://api.openai.com/v1", "http://192.168.1.20:11434/v1", "http://10.0.0.1/v1", "",
]


@pytest.mark.parametrize("url", LOCAL)
def test_loopback_addresses_are_local(url):
    assert is_local_url(url)


@pytest.mark.parametrize("url", REMOTE)
def test_other_addresses_are_not_local(url):
    assert not is_local_url(url)


def test_a_look_alike_host_needs_a_key_like_any_remote_server():
    settings = Settings(llm_base_url="http://127.evil.com/v1", llm_model="m")
    assert resolve_llm_config(settings, env={}) is None  # no placeholder key, no request
    assert "API key" in str(config_problem(settings, env={}))
    local = resolve_llm_config(Settings(llm_base_url="http://127.0.0.1:8080/v1", llm_model="m"), env={})
    assert local is not None and local.api_key != ""  # local servers never need the user's key


@pytest.mark.parametrize("url, warned", [
    ("http://192.168.1.20:11434/v1", True), ("http://127.evil.com/v1", True), ("HTTP://models.example.com/v1", True),
    ("https://api.deepseek.com/v1", False), ("http://localhost:11434/v1", False), ("http://[::1]:1234/v1", False),
])
def test_plain_http_to_another_machine_is_warned_about(url, warned):
    warning = plain_http_warning(LLMConfig(base_url=url, model="m", api_key=KEY))
    assert bool(warning) is warned
    if warning:
        assert "http://" in warning and "unencrypted" in warning and "https://" in warning
        assert KEY not in warning


def run_ask(home, base_url: str, lang: str | None = None) -> subprocess.CompletedProcess:
    # An empty library: the answer needs no model call, so no request leaves this machine.
    env = environment(lang, OPENAI_API_KEY=KEY, OPENAI_BASE_URL=base_url, OPENAI_MODEL="m")
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "ask", "What is the budget?"],
                          capture_output=True, text=True, timeout=120, env=env)


def test_cli_warns_once_on_stderr_for_plain_http_to_another_machine(tmp_path):
    out = run_ask(tmp_path / "a", "http://192.0.2.10:8000/v1")
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("plain http://") == 1, out.stderr
    assert "192.0.2.10" in out.stderr and "plain http" not in out.stdout
    assert KEY not in out.stdout + out.stderr
    for safe in ("https://192.0.2.10:8000/v1", "http://127.0.0.1:9/v1"):
        out = run_ask(tmp_path / "b", safe)
        assert out.returncode == 0 and "plain http" not in out.stderr, out.stderr


def test_the_cli_warns_in_chinese_on_a_chinese_system(tmp_path):
    out = run_ask(tmp_path / "a", "http://192.0.2.10:8000/v1", "zh_CN.UTF-8")
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("明文 http://") == 1 and "192.0.2.10" in out.stderr and "unencrypted" not in out.stderr


def test_settings_dialog_shows_the_warning_for_plain_http_to_another_machine(qtbot):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from desktop_rag.gui.views.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(llm_base_url="http://192.168.1.20:11434/v1", llm_model="m"), "")
    qtbot.addWidget(dialog)
    assert not dialog.http_warning.isHidden() and "http://" in dialog.http_warning.text()
    for url, shown in [("https://api.openai.com/v1", False), ("http://localhost:11434/v1", False),
                       ("http://127.evil.com/v1", True), ("http://127.0.0.1:1234/v1", False)]:
        dialog.base_url.setText(url)
        assert dialog.http_warning.isHidden() is not shown, url


USERINFO = "pat:hunter2secret@"


@pytest.mark.parametrize("call", ["stream", "complete"])
def test_a_user_and_password_in_the_address_are_never_sent_in_place_of_the_key(call):
    """httpx sent "http://user:pass@host/v1"'s part as HTTP Basic auth, in place of the API key's bearer header."""
    from desktop_rag.engine.answer.llm import LLMClient
    from tests.support.openai_server import run_openai_server

    with run_openai_server() as server:
        config = LLMConfig(base_url=server.base_url.replace("http://", "http://" + USERINFO), model="fake-model",
                           api_key=KEY)
        assert config.userinfo_dropped and config.base_url == server.base_url
        client = LLMClient(config)
        reply = "".join(client.stream([{"role": "user", "content": "hi"}])) if call == "stream" else \
            client.complete([{"role": "user", "content": "hi"}])
        assert reply == server.reply
        assert server.chat_requests()[0].headers["authorization"] == f"Bearer {KEY}"


def test_the_command_line_says_the_address_part_is_not_sent_without_showing_it(tmp_path):
    out = run_ask(tmp_path / "a", f"https://{USERINFO}models.example.com/v1")
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("has a user name or password in it (user:password@). It is not sent") == 1, out.stderr
    assert "hunter2" not in out.stdout + out.stderr


@pytest.mark.parametrize("language, says", [("en", "has a user name or password in it"), ("zh", "含有用户名或密码")])
def test_settings_dialog_says_a_user_and_password_in_the_address_are_not_sent(qtbot, language, says):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from desktop_rag.gui import i18n
    from desktop_rag.gui.views.settings_dialog import SettingsDialog

    i18n.set_language(language)
    try:
        dialog = SettingsDialog(Settings(llm_base_url="https://api.deepseek.com/v1", llm_model="m"), "")
        qtbot.addWidget(dialog)
        assert dialog.address_notice.isHidden()
        dialog.base_url.setText(f"https://{USERINFO}api.deepseek.com/v1")
        assert not dialog.address_notice.isHidden() and says in dialog.address_notice.text()
        assert "hunter2" not in dialog.address_notice.text()
    finally:
        i18n.set_language("en")
