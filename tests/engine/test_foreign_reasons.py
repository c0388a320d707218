"""A library's failure inside a Chinese message is worded by its code or type where it has one
(`system_errors.foreign_reason`: SQLite's result code, http.client's exception type), else said to be the system's own
words ("系统报告的错误：…", bounded): a Chinese message ended in "file is not a database", "Remote end closed connection
without response", "File is not a zip file". Real failures: a file that is not SQLite, a hub that hangs up or answers
in something other than HTTP, a CSV field past the limit, a file that is not a zip."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from desktop_rag.engine.errors import DesktopRagError, error_text
from tests.support.english import english_sentence


def _worded_first(chinese: str, opening: str, advice: str, detail: str) -> None:
    """A Chinese reason is a worded sentence (what failed, what to do) and then, last, the system's own words."""
    said, _, theirs = chinese.partition("（系统报告的错误：")
    assert said.startswith(opening) and advice in said and english_sentence(said) is None, chinese
    assert theirs.startswith(detail) and theirs.rstrip("。").endswith("）") and "\n" not in chinese, chinese


def _failure(action) -> DesktopRagError:
    with pytest.raises(DesktopRagError) as caught:
        action()
    return caught.value


def test_a_file_that_is_not_sqlite_is_said_by_sqlites_code(tmp_path: Path) -> None:
    from desktop_rag.engine.store.sqlite.store import SqliteStore

    (tmp_path / "library.sqlite3").write_bytes(b"not a database " * 400)
    exc = _failure(lambda: SqliteStore(tmp_path / "library.sqlite3", read_only=True))
    assert exc.code == "not_a_library"
    chinese = error_text(exc, "zh")
    assert "文件不是数据库" in chinese and "file is not a database" not in chinese, chinese
    assert "(file is not a database)." in error_text(exc, "en")


@contextmanager
def _raw_server(reply: bytes) -> Iterator[str]:
    """A TCP server on loopback that reads a request and answers `reply` (b"": hangs up), then closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(65536)
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()


@pytest.mark.parametrize("reply, chinese, english", [
    (b"", "服务器未作回复就关闭了连接", "Remote end closed connection without response"),
    (b"SSH-2.0-OpenSSH_9.6\r\n\r\n", "服务器的回复不是 HTTP", "the server's reply is not HTTP"),
])
def test_a_hub_that_is_not_http_is_said_by_the_failures_type(tmp_path: Path, reply: bytes, chinese: str,
                                                              english: str) -> None:
    from desktop_rag.engine.models.download import download_model

    with _raw_server(reply) as hub:
        exc = _failure(lambda: download_model("org/model", tmp_path, endpoint=hub, timeout_s=10))
    said = error_text(exc, "zh")
    assert chinese in said and english_sentence(said) is None, said
    assert english in error_text(exc, "en")


def test_a_csv_errors_own_words_are_said_to_be_the_systems(tmp_path: Path) -> None:
    from desktop_rag.engine.ingest.loaders.sheets import MAX_FIELD, load_csv

    (tmp_path / "big.csv").write_text('a,b\n1,"' + "x" * (MAX_FIELD + 10) + '"\n', "utf-8")
    exc = _failure(lambda: load_csv(tmp_path / "big.csv"))
    assert exc.code == "csv_unreadable"
    _worded_first(error_text(exc, "zh"), "无法把此 .csv 文件读作表格：", "请用表格软件打开它", "field larger than field limit")
    assert error_text(exc, "en").startswith("This .csv file could not be read as a table (field larger than field limit")


def test_an_archive_that_is_not_a_zip_says_zipfiles_words_as_the_systems(tmp_path: Path) -> None:
    from desktop_rag.engine.archive.archive_file import read_archive

    (tmp_path / "notes.zip").write_text("not a zip file at all", "utf-8")
    exc = _failure(lambda: read_archive(tmp_path / "notes.zip"))
    _worded_first(error_text(exc, "zh"), "notes.zip 不是可以导入的知识库归档：无法把它读作 zip 文件", "请重新复制它，或重新导出",
                  "File is not a zip file")
    assert error_text(exc, "en") == ("notes.zip is not a Desktop RAG collection archive: it is not a readable zip file "
                                     "(File is not a zip file). Nothing was changed.")


def _unsupported_security_pdf() -> bytes:
    """A one-page PDF encrypted by a security handler PDFium does not know (/Filter /Bogus): FPDF_ERR_SECURITY."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
               b"<< /Filter /Bogus /V 1 /R 2 /O (x) /U (y) /P -4 >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Encrypt 4 0 R /ID [(a) (a)] >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def test_a_pdf_pdfium_cannot_open_is_said_by_pdfiums_code(tmp_path: Path) -> None:
    from desktop_rag.engine.document.pdf_render import PdfFile

    (tmp_path / "locked.pdf").write_bytes(_unsupported_security_pdf())
    exc = _failure(lambda: PdfFile(tmp_path / "locked.pdf"))
    assert exc.code == "view_unopenable"
    assert error_text(exc, "zh") == "无法打开此 PDF（PDFium 不支持该文件的加密方式）"
    assert error_text(exc, "en") == "This PDF could not be opened (PDFium: Unsupported security scheme error)"


def test_a_tokenizer_json_cannot_parse_is_said_in_its_words_as_the_systems(tmp_path: Path) -> None:
    """json's words ("Expecting value: line 1 column 19 (char 18)") were shown bare after a Chinese sentence."""
    from desktop_rag.engine.models.folder_checks import check_tokenizer

    (tmp_path / "tokenizer.json").write_text('{"pre_tokenizer": ', "utf-8")
    exc = _failure(lambda: check_tokenizer(tmp_path / "tokenizer.json"))
    assert exc.code == "tokenizer_unreadable"
    _worded_first(error_text(exc, "zh"), "无法读取嵌入模型的分词器 ", "请重新下载该模型，或在“设置”中选择其他模型",
                  "Expecting value: line 1 column 19")
    assert error_text(exc, "en").endswith("cannot be read: Expecting value: line 1 column 19 (char 18). Download the "
                                          "model again, or choose another one in Settings.")


def test_a_folder_filter_that_is_not_a_path_says_pythons_words_as_the_systems(tmp_path: Path) -> None:
    """A search filter's folder with a NUL in it: "embedded null byte" was shown bare after the Chinese."""
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine import Engine

    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        exc = _failure(lambda: engine.restriction(None, [str(tmp_path) + "/a\x00b"], (), ()))
    finally:
        engine.close()
    assert exc.code == "bad_folder_path"
    assert "系统报告的错误：embedded null byte" in error_text(exc, "zh"), error_text(exc, "zh")


def test_a_model_folder_transformers_cannot_read_is_worded_before_its_words(tmp_path: Path) -> None:
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import SentenceTransformerEmbedder

    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}", "utf-8")
    exc = _failure(lambda: SentenceTransformerEmbedder(str(tmp_path / "model")).embed(["x"]))
    assert exc.code == "model_folder_unloadable"
    _worded_first(error_text(exc, "zh"), "无法加载 ", "请重新下载该模型，或在“设置”中选择其他模型", "Unrecognized model in ")
    assert error_text(exc, "en").endswith(". Download the model again, or choose another one in Settings.")


def test_a_model_that_cannot_be_fetched_is_worded_before_its_words(tmp_path: Path, monkeypatch) -> None:
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import SentenceTransformerEmbedder

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # (no network either way: the hub is not asked)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    exc = _failure(lambda: SentenceTransformerEmbedder("nosuch-org/nosuch-model").embed(["x"]))
    assert exc.code == "model_load_failed"
    said = error_text(exc, "zh")
    assert said.startswith("无法加载嵌入模型 'nosuch-org/nosuch-model'。请在“设置”中选择这台电脑上的模型文件夹，或改回内置的"
                           "默认模型（"), said
    assert error_text(exc, "en").startswith("Could not load the embedding model 'nosuch-org/nosuch-model': ")


def test_a_spreadsheet_past_the_readers_cell_limit_is_worded_before_its_words(tmp_path: Path) -> None:
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    from desktop_rag.engine.ingest.loaders.sheets import load_workbook

    book, table = OpenDocumentSpreadsheet(), Table(name="S")
    row, cell = TableRow(numberrowsrepeated=1_048_000), TableCell(numbercolumnsrepeated=16_000, valuetype="string")
    cell.addElement(P(text="x"))
    row.addElement(cell)
    table.addElement(row)
    book.spreadsheet.addElement(table)
    book.save(tmp_path / "repeat.ods")
    exc = _failure(lambda: load_workbook(tmp_path / "repeat.ods"))
    assert exc.code == "sheet_too_large"
    _worded_first(error_text(exc, "zh"), "此电子表格太大，无法读取，未被索引：", "或把它拆分成较小的文件", "Cell limit exceeded")
    assert error_text(exc, "en").startswith("This spreadsheet is too large to read (Cell limit exceeded")


def test_the_bundled_models_failure_is_worded_before_its_words() -> None:
    """(Its loader cannot be made to fail here: the error as the loader raises it.)"""
    from desktop_rag.engine.system_errors import foreign_reason

    exc = DesktopRagError.coded("bundled_model_failed", detail=foreign_reason(RuntimeError("libgomp.so.1: cannot open")))
    _worded_first(error_text(exc, "zh"), "无法在这台电脑上加载内置的多语言模型。", "请在“设置”中选择其他嵌入模型", "libgomp.so.1")
