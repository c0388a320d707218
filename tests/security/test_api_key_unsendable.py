"""Issue 35 (6): an API key that cannot go into an HTTP header (an input method's Chinese text, a zero-width
space pasted from a web page, a control character) is refused by Settings, and the connection test and an answer
say what is wrong and where, in the interface's language, without sending anything or blaming the server."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from desktop_rag.config import Settings, resolve_paths  # noqa: E402
from desktop_rag.engine.engine import Engine  # noqa: E402
from desktop_rag.engine.answer.events import ErrorEvent, SourcesEvent  # noqa: E402

ZERO_WIDTH = "sk-abc\u200bdef123456"  # a zero-width space at position 7
CHINESE = "sk-abc中文def123456"  # an input method left text at position 7
BELL = "sk-abc\x07def123456"
SPACE = "sk-abc def123456"  # pasted in two pieces


@pytest.fixture
def zh():
    from desktop_rag.gui import i18n

    i18n.set_language("zh")
    yield
    i18n.set_language("en")


def _dialog(qtbot, server, key: str):
    from desktop_rag.gui.controllers.settings_work import ConnectionTests
    from desktop_rag.gui.views.settings_dialog import SettingsDialog

    settings = Settings(llm_provider="custom", llm_base_url=server.base_url, llm_model="fake-model")
    dialog = SettingsDialog(settings, "")
    qtbot.addWidget(dialog)
    ConnectionTests(dialog).serve(dialog)  # as SettingsFlow does
    dialog.key.setText(key)
    return dialog


@pytest.mark.parametrize("key, said", [(ZERO_WIDTH, "an invisible character (U+200B) at position 7"),
                                       (CHINESE, "the non-ASCII character “中” (U+4E2D) at position 7"),
                                       (BELL, "a control character (U+0007) at position 7"),
                                       (SPACE, "a space at position 7")])
def test_settings_refuse_the_key_and_say_what_and_where(qtbot, model_server, key: str, said: str):
    dialog = _dialog(qtbot, model_server, key)
    dialog.show()
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted, "OK is refused: nothing is saved"
    shown = dialog.key_problem.text()
    assert dialog.key_problem.isVisible() and said in shown and "Settings (API key)" in shown
    assert key not in shown
    dialog.key.setText("sk-abcdef123456")
    assert not dialog.key_problem.isVisible()
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted


def test_the_connection_test_says_the_same_in_chinese_and_sends_nothing(qtbot, model_server, zh):
    dialog = _dialog(qtbot, model_server, CHINESE)
    assert "API 密钥的第 7 个字符是非 ASCII 字符“中”" in dialog.key_problem.text()
    dialog.check_connection()
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled() and dialog.test_result.text() != "", timeout=20_000)
    assert dialog.test_result.text() == dialog.key_problem.text()
    assert "codec" not in dialog.test_result.text() and not model_server.chat_requests()


@pytest.mark.parametrize("interface, said", [("en", "The API key has an invisible character (U+200B) at position 7"),
                                             ("zh", "API 密钥的第 7 个字符是不可见字符（U+200B）")])
def test_an_answer_says_the_key_cannot_be_sent_in_the_interface_language(tmp_path, model_server, monkeypatch,
                                                                          interface: str, said: str):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bus.txt").write_text("City buses run every ten minutes during the day.", encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", ZERO_WIDTH)
    engine = Engine(resolve_paths(tmp_path / "home"),
                    Settings(embedding_model="hash:64", llm_base_url=model_server.base_url, llm_model="fake-model"))
    engine.interface_language = interface
    try:
        engine.index([docs])
        events = list(engine.ask("How often do city buses run during the day?"))
    finally:
        engine.close()
    assert isinstance(events[0], SourcesEvent) and events[0].hits
    error = events[-1]
    assert isinstance(error, ErrorEvent) and str(error.message).startswith(said)
    assert "returned an unexpected reply" not in str(error.message) and "codec" not in str(error.message)
    assert not model_server.chat_requests(), "nothing was sent: the mistake is local"


@pytest.mark.parametrize("key, says", [
    (SPACE, "The API key has a space at position 7, and no API key holds one"),
    ("sk-abc\tdef123456", "The API key has a control character (U+0009) at position 7"),
])
def test_the_command_line_refuses_a_key_with_inner_whitespace_and_never_echoes_it(tmp_path, model_server, monkeypatch,
                                                                                  key, says):
    """`desktop-rag ask` sent "Bearer sk-abc def123456" as it was pasted (the server's 401 blamed the key)."""
    from tests.support import hash_cli

    home = hash_cli.indexed_home(tmp_path, {"bus.txt": "City buses run every ten minutes during the day."})
    hash_cli.use_model(monkeypatch, model_server.base_url, f"  {key}\n")
    run = hash_cli.run_cli(home, "ask", "How often do city buses run?")
    assert run.returncode == 1 and says in run.stderr and "def123456" not in run.stdout + run.stderr
    assert not model_server.chat_requests(), "nothing was sent"


def test_whitespace_around_a_pasted_key_is_not_sent(model_server):
    from desktop_rag.engine.answer.llm import LLMClient
    from desktop_rag.engine.answer.llm_config import resolve_llm_config

    settings = Settings(llm_base_url=model_server.base_url, llm_model="fake-model")
    LLMClient(resolve_llm_config(settings, {"OPENAI_API_KEY": " \tsk-abcdef123456\r\n"})).complete(
        [{"role": "user", "content": "hi"}])
    assert model_server.chat_requests()[0].headers["authorization"] == "Bearer sk-abcdef123456"
