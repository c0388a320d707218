"""What the window shows names what to click, never a command or a flag: every engine text it can render (the
window's own wording where the command line's names `desktop-rag …` or `--flag`), and its own table; the command
line keeps its advice. The real flow (asking about a document no longer in the library) is in
test_errors_follow_language.py."""

from __future__ import annotations

import string

import pytest

from desktop_rag.engine import DesktopRagError, Reason, error_text
from desktop_rag.engine.messages import TEXTS, WINDOW, Phrase, message
from desktop_rag.gui import i18n
from tests.support import REPO
from tests.support.shown_texts import COMMAND

DESKTOP_RAG = REPO / "desktop_rag"
# raised by the command line or the MCP server only: the window never shows them
FRONT_END_ONLY = {"error.cli_usage", "error.cli_not_deleted", "error.cli_export_which", "error.cli_unknown_model",
                  "error.not_a_source_in", "error.summary_confirm_yes", "error.summary_confirm_cost"}


def _values(key: str) -> dict[str, object]:
    return {f: 2 for _, f, _, _ in string.Formatter().parse(TEXTS[key]["en"]) if f}


@pytest.mark.parametrize("key", sorted(k for k in TEXTS if k not in FRONT_END_ONLY))
@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_text_the_window_renders_names_a_command(key: str, language: str) -> None:
    shown = message(key, language, WINDOW, **_values(key))
    assert not COMMAND.search(shown), (key, shown)


def test_the_command_line_keeps_its_advice() -> None:
    exc = DesktopRagError.coded("not_a_library_file", path="a.txt")
    assert "`desktop-rag status`" in str(exc) and "--folder" in error_text(exc, "zh")
    i18n.set_language("zh")
    assert i18n.error(exc) == "“a.txt”不是资料库中的文件：请选择资料库列出的文件。"
    nested = Reason.coded("not_archive", name="x.zip", why=Phrase("phrase.archive.no_manifest"))
    assert "desktop-rag export" in nested.text("en") and i18n.error(nested).endswith("（不是由“导出…”生成的）。没有做任何更改。")


def test_the_window_wording_comes_in_both_languages_with_the_values_of_the_text() -> None:
    variants = {k: t for k, t in TEXTS.items() if any(lang.startswith(f"{WINDOW}.") for lang in t)}
    assert len(variants) > 15
    for key, texts in variants.items():
        assert {f"{WINDOW}.en", f"{WINDOW}.zh"} <= texts.keys(), key
        fields = {f for _, f, _, _ in string.Formatter().parse(texts["en"]) if f}
        for lang in ("en", "zh"):
            assert {f for _, f, _, _ in string.Formatter().parse(texts[f"{WINDOW}.{lang}"]) if f} <= fields, key


def test_front_end_only_texts_are_raised_by_a_front_end_only() -> None:
    sources = [p for p in DESKTOP_RAG.rglob("*.py") if p.parts[-2] not in ("cli", "mcp_server", "error_texts")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    for key in FRONT_END_ONLY:
        assert f'"{key.removeprefix("error.")}"' not in text, key


def test_the_gui_table_names_no_command() -> None:
    from desktop_rag.gui.i18n import _TEXT

    for key, texts in _TEXT.items():
        assert not any(COMMAND.search(t) for t in texts), key

