"""The command line says the system's reason in its language: under a Chinese locale an unreachable model server
was "错误：无法连接位于 … 的模型服务器（Name or service not known）" ("error: " before it even), a folder that may not be
read "无法读取此文件夹（Permission denied）". Real failures: a host name under .invalid, a closed loopback port, a folder
of mode 000 read without root's power to read any file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import hash_cli
from tests.support.english import english_sentence
from tests.support.hash_cli import CLI_KEY, indexed_home, run_cli, use_model
from tests.support.system_limits import full_disk, without_root_powers
from tests.support.unreachable import closed_port_url, resolver_words

LOCALE = {"en": "en_US.UTF-8", "zh": "zh_CN.UTF-8"}


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return indexed_home(tmp_path_factory.mktemp("system"), {"tea.txt": "Green tea is brewed at 80 degrees.\n"})


def _speak(monkeypatch, language: str) -> None:
    """The commands `run_cli` runs speak `language` (LANG; the variables that would win over it unset)."""
    hash_cli.use_locale(monkeypatch, LOCALE[language], hash_cli.ENV)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_model_server_whose_name_does_not_resolve(home, monkeypatch, language):
    english = resolver_words()
    _speak(monkeypatch, language)
    use_model(monkeypatch, "http://nosuch.invalid:8080/v1", CLI_KEY)
    run = run_cli(home, "ask", "How hot is the water for green tea?")
    line = next(line for line in run.stderr.splitlines() if "nosuch.invalid:8080/v1" in line)
    assert run.returncode == 1
    if language == "en":
        assert line == (f"error: Could not reach the model server at http://nosuch.invalid:8080/v1 ({english}). "
                        "Check the base URL and your network connection."), line
    else:
        assert line == "错误：无法连接位于 http://nosuch.invalid:8080/v1 的模型服务器（找不到该主机名）。请检查基础地址和网络连接。", line


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_model_server_that_refuses_the_connection(home, monkeypatch, language):
    _speak(monkeypatch, language)
    address = closed_port_url()
    use_model(monkeypatch, address, CLI_KEY)
    run = run_cli(home, "ask", "How hot is the water for green tea?")
    line = next(line for line in run.stderr.splitlines() if address in line)
    assert run.returncode == 1
    if language == "en":
        assert line.startswith(f"error: Could not reach the model server at {address} (Connection refused). "), line
    else:
        assert line.startswith(f"错误：无法连接位于 {address} 的模型服务器（连接被拒绝）。"), line
        assert "Connection refused" not in line and english_sentence(line) is None, line


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_folder_that_may_not_be_read(tmp_path, monkeypatch, language):
    prefix = without_root_powers()
    home = indexed_home(tmp_path, {"top.txt": "Green tea is brewed at 80 degrees."})
    locked = tmp_path / "docs" / "locked"
    locked.mkdir()
    (locked / "inner.txt").write_text("Oolong is rolled into balls.", encoding="utf-8")
    _speak(monkeypatch, language)
    locked.chmod(0)
    try:
        run = run_cli(home, "index", str(tmp_path / "docs"), prefix=prefix)
        as_json = run_cli(home, "index", "--json", prefix=prefix)
    finally:
        locked.chmod(0o755)
    line = next(line for line in run.stdout.splitlines() if str(locked) in line)
    said = {"en": "This folder could not be read (Permission denied)", "zh": "无法读取此文件夹（没有权限）"}[language]
    assert said in line, run.stdout
    assert "Permission denied" not in line or language == "en", line
    failed = json.loads(as_json.stdout)["failed"]  # --json keeps the English text and the code
    assert [f["code"] for f in failed] == ["folder_unreadable"]
    assert failed[0]["error"].startswith("This folder could not be read (Permission denied)"), failed


@full_disk
def test_output_on_a_full_disk_is_said_in_chinese(home, monkeypatch):
    _speak(monkeypatch, "zh")
    with open("/dev/full", "w") as full:
        run = run_cli(home, "search", "green tea", "--json", stdout=full)
    assert run.returncode == 1 and run.stderr.splitlines() == ["错误：无法写出输出（磁盘空间已满）"], run.stderr


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_csv_and_an_archive_the_libraries_cannot_read(tmp_path, monkeypatch, language):
    """csv's and zipfile's own words (no code to word them by) came in the middle of a Chinese line; now the line says
    what failed and what to do, and then, last, the library's words."""
    from desktop_rag.engine.ingest.loaders.sheets import MAX_FIELD

    _speak(monkeypatch, language)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "big.csv").write_text('a,b\n1,"' + "x" * (MAX_FIELD + 10) + '"\n', "utf-8")
    (tmp_path / "notes.zip").write_text("not a zip file at all", "utf-8")
    index = run_cli(tmp_path / "home", "index", str(docs))
    failed = next(line for line in index.stdout.splitlines() + index.stderr.splitlines() if "big.csv" in line)
    imported = run_cli(tmp_path / "home", "import", str(tmp_path / "notes.zip"))
    assert index.returncode == imported.returncode == 1
    if language == "en":
        assert failed.startswith(f"  failed: {docs / 'big.csv'}: This .csv file could not be read as a table (field "
                                 "larger than field limit"), failed
        assert imported.stderr.strip() == ("error: notes.zip is not a Desktop RAG collection archive: it is not a "
                                           "readable zip file (File is not a zip file). Nothing was changed.")
    else:
        assert failed.startswith(f"  失败：{docs / 'big.csv'}：无法把此 .csv 文件读作表格：它的行格式有误，或某个字段超过了 1 MB "
                                 "的上限。请用表格软件打开它，重新另存为 .csv 文件后再索引（系统报告的错误：field larger than "
                                 "field limit"), failed
        assert imported.stderr.strip() == ("错误：notes.zip 不是可以导入的知识库归档：无法把它读作 zip 文件，它可能已损坏、在复制或"
                                           "下载时被截断，或者是其他类型的文件。没有做任何更改。请重新复制它，或重新导出该知识库"
                                           "（系统报告的错误：File is not a zip file）。")
