"""Every error the engine raises to a front end has a Chinese text: no literal English message outside the table,
every code used exists with both texts; a failure passed on (a stored reason, an answer's error) keeps its code,
and an older library's English texts are read into codes once (store/legacy_reasons.py)."""

from __future__ import annotations

import ast
import re
import string

import pytest

from desktop_rag.engine import LoadError, Reason, UsageError, error_text
from desktop_rag.engine.error_texts import ERROR_TEXTS
from desktop_rag.engine.messages import TEXTS, Phrase, message
from desktop_rag.engine.store.legacy_reasons import parse
from tests.support import REPO
from tests.support.english import english_sentence

ENGINE = REPO / "desktop_rag" / "engine"
ERRORS = {"DesktopRagError", "LoadError", "ModelMismatchError", "UsageError", "LibraryBusyError", "DiskFullError",
          "DownloadError", "ArchiveError", "LLMError"}  # DownloadCancelled(repo_id) sets its own code
# (file, line text) -> why an error is made there without a code of the table
ALLOWED = {
    # the parser child's reply when it is not an error object (an older child): its text as it is
    ("ingest/parsing.py", "raise payload if isinstance(payload, LoadError) else LoadError(str(payload))"),
    # key_problem() already writes it in the interface's language (messages.api_key_unsendable)
    ("answer/llm.py", 'raise LLMError("bad_key", problem)'),
}


def _error_calls() -> list[tuple[str, int, str]]:
    """(file, line, source) of every call that makes an engine error from a message rather than a code."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        relative = path.relative_to(ENGINE).as_posix()
        if relative == "errors.py":
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS:
                found.append((relative, node.lineno, ast.get_source_segment(source, node) or ""))
    return found


def test_no_error_is_made_from_a_literal_message() -> None:
    line_of = {}
    for relative, lineno, _ in _error_calls():
        text = (ENGINE / relative).read_text(encoding="utf-8").splitlines()[lineno - 1].strip()
        line_of[(relative, lineno)] = text
    offending = [f"{r}:{n}: {t}" for (r, n), t in line_of.items() if (r, t) not in ALLOWED]
    assert not offending, "errors raised to a front end need a code (SomeError.coded): " + "\n".join(offending)
    assert len(line_of) == len(ALLOWED), "an allowed line is gone: shorten ALLOWED"


def _codes_used() -> set[str]:
    codes = set()
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r"\.coded\(\s*\"([a-z0-9_]+)\"", text))
        codes |= {f"phrase:{k}" for k in re.findall(r"Phrase\(\s*f?\"([a-z0-9_.]+)\"", text)}
        codes |= set(re.findall(r"not_zip=\"([a-z0-9_]+)\"", text))
    return codes


def test_every_code_used_has_english_and_chinese() -> None:
    codes = _codes_used()
    assert len(codes) > 150  # the scan sees the raise sites
    for code in codes:
        key = code.removeprefix("phrase:") if code.startswith("phrase:") else f"error.{code}"
        if key.endswith("."):  # Phrase(f"phrase.legacy{suffix}"): each suffix's text
            assert any(k.startswith(key) for k in TEXTS), key
            continue
        assert TEXTS.get(key, {}).get("en") and "zh" in TEXTS[key], key


def test_both_texts_take_the_same_values() -> None:
    for key, texts in ERROR_TEXTS.items():
        fields = [{f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} for lang in ("en", "zh")]
        assert fields[0] == fields[1], key
        assert english_sentence(re.sub(r"\{[^}]*\}", " ", texts["zh"])) is None, key


def test_a_coded_load_error_reads_in_chinese_with_its_phrases() -> None:
    exc = LoadError.coded("xml_damaged", what=Phrase("phrase.epub_package"))
    assert str(exc) == "The e-book's package file is damaged (not well-formed XML), so it could not be read"
    assert error_text(exc, "zh") == "电子书的包文件已损坏（不是格式正确的 XML），无法读取"


def test_a_failure_passed_on_keeps_its_code() -> None:
    """A failed file's reason and an answer's ErrorEvent carry a Reason: shown from its code, never read back."""
    exc = UsageError.coded("unknown_collection", name="Work", names="“Default”, “Papers”")
    chinese = message("error.unknown_collection", "zh", name="Work", names="“Default”, “Papers”")
    assert error_text(Reason.of(exc), "zh") == chinese and error_text(Reason.of(exc), "en") == str(exc)
    assert error_text(str(exc), "zh") == str(exc)  # English words stay as they are
    assert error_text("some other words", "zh") == "some other words"


def test_an_old_librarys_english_text_is_read_into_codes() -> None:
    """Schema 3 stored the English text: the migration reads it once, values and quoted phrases included."""
    english = str(UsageError.coded("unknown_collection", name="Work", names="“Default”, “Papers”"))
    assert parse(english).text("zh") == message("error.unknown_collection", "zh", name="Work",
                                                names="“Default”, “Papers”")
    nested = str(LoadError.coded("libreoffice_failed", name=Phrase("phrase.legacy.doc")))
    assert parse(nested).text("zh") == "LibreOffice 无法转换此文件；它可能已损坏，或并不是旧版 Word 文档（.doc）"
    assert parse("some other words") == Reason.of("some other words")


def test_a_coded_error_survives_the_parser_child() -> None:
    """The parser child sends its LoadError object (pickled): the code and values cross the process boundary."""
    import pickle

    exc = pickle.loads(pickle.dumps(LoadError.coded("file_too_large", name="a.pdf", mb="300", limit="200")))
    assert exc.code == "file_too_large" and "200 MB" in error_text(exc, "zh")


@pytest.mark.parametrize("code", ["pdf_password", "pdf_wrong_password"])
def test_needs_password_reads_the_code_of_both_password_errors(code: str) -> None:
    from desktop_rag.engine import needs_password

    assert needs_password(LoadError.coded(code)) and needs_password(Reason.of(LoadError.coded(code)))
    assert not needs_password(Reason.of(str(LoadError.coded(code)))) and not needs_password(Reason.coded("not_pdf"))


def test_an_old_librarys_joined_notes_are_read_one_by_one() -> None:
    stored = "; ".join((Phrase("note.pdf_recovered", n=2).text("en"), Phrase("note.pdf_left_out", n=1).text("en")))
    assert parse(stored).text("zh") == "2 页文字层无法读取的页面已通过文字识别（OCR）读取；1 页文字层无法读取的页面被略过"


@pytest.mark.parametrize("n, english", [(1, "1 attachment was not read"), (3, "3 attachments were not read")])
def test_an_english_text_with_a_count_is_read_back_in_either_number(n: int, english: str) -> None:
    """An archive's reasons travel as English text: a count's singular and plural noun both read back into codes."""
    values = {"n": n, "limit": 2, "names": "a.txt"}
    text = Phrase("note.attachments_over.per_file", **values).text("en")
    assert text.startswith(english)
    assert parse(text).text("zh") == message("note.attachments_over.per_file", "zh", **values)
    budget = Phrase("phrase.ocr_budget", budget=40, base=10, page=30, total=n)
    nested = str(LoadError.coded("read_timeout", budget=budget))
    assert ("for 1 page to recognise" if n == 1 else "for 3 pages to recognise") in nested
    assert parse(nested).text("zh") == message("error.read_timeout", "zh", budget=budget)
