"""argparse's own words ("usage:", "error: the following arguments are required", "invalid choice", the help's
headings) and the command line's own checks of its arguments were English under a Chinese locale; they follow
the locale now (`cli/parser_words.py`), while command names, options and `--json` stay as they are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

_LOCALES = ("LC_ALL", "LC_MESSAGES", "LANG")


def _cli(home: Path, lang: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in _LOCALES} | {"LANG": lang,
                                                                        "DESKTOP_RAG_EMBEDDING_MODEL": "hash:64"}
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args], capture_output=True,
                          text=True, timeout=300, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, chinese, english", [
    (("ask",), ("用法：desktop-rag ask [-h] [--json]", "desktop-rag ask：错误：缺少以下必需的参数：question"),
     ("usage: desktop-rag ask [-h] [--json]", "desktop-rag ask: error: the following arguments are required: question")),
    (("frob",), ("desktop-rag：错误：参数 command：无效的选择：'frob'（可选：'index', 'status',",),
     ("desktop-rag: error: argument command: invalid choice: 'frob' (choose from 'index', 'status',",)),
    (("status", "--bad"), ("desktop-rag：错误：无法识别的参数：--bad",), ("desktop-rag: error: unrecognized arguments: --bad",)),
    (("search", "-k", "x", "q"), ("desktop-rag search：错误：参数 -k：不是整数：'x'",),
     ("desktop-rag search: error: argument -k: invalid int value: 'x'",)),
    (("search", "-k", "0", "q"), ("参数 -k：0 不是 1 到 10,000 之间的结果数",),
     ("argument -k: 0 is not a number of results from 1 to 10,000",)),
    (("search", "--type", "zzz", "q"), ("参数 --type：无效的选择：'zzz'（可选：'pdf',",),
     ("argument --type: invalid choice: 'zzz' (choose from 'pdf',",)),
    (("search", "--json"), ("desktop-rag：错误：search 需要一个查询（QUERY）或 --queries 文件",),
     ("desktop-rag: error: search needs a QUERY or --queries FILE",)),
    (("eval", "--queries", "q.jsonl"), ("错误：eval 需要同时给出 --queries 和 --qrels，或两者都不给",),
     ("error: eval needs both --queries and --qrels, or neither",)),
    (("context",), ("错误：context 需要一个问题（QUESTION）或 --queries 文件",),
     ("error: context needs a QUESTION or --queries FILE",)),
])
def test_a_usage_error_is_said_in_the_locales_language(tmp_path: Path, args, chinese, english) -> None:
    for lang, lines in (("zh_CN.UTF-8", chinese), ("en_US.UTF-8", english)):
        run = _cli(tmp_path / "home", lang, *args)
        assert run.returncode == 2, run.stderr
        for line in lines:
            assert line in run.stderr, (lang, line, run.stderr)


def test_help_has_chinese_headings_and_the_same_options(tmp_path: Path) -> None:
    chinese, english = (_cli(tmp_path / "home", lang, "ask", "-h") for lang in ("zh_CN.UTF-8", "en_US.UTF-8"))
    assert chinese.returncode == english.returncode == 0
    assert "\n位置参数:\n  question\n" in chinese.stdout and "\n选项:\n  -h, --help " in chinese.stdout, chinese.stdout
    assert "显示此帮助信息并退出" in chinese.stdout and "show this help message" not in chinese.stdout
    assert "\npositional arguments:\n" in english.stdout and "show this help message and exit" in english.stdout
    for option in ("--json", "--yes", "--collection NAME", "--folder PATH", "--file PATH", "--type {pdf,"):
        assert option in chinese.stdout and option in english.stdout, option
    assert "在这个知识库中提问（默认：全部）" in chinese.stdout and "ask within this collection" in english.stdout


def test_the_list_of_commands_and_the_global_options_are_said_in_chinese(tmp_path: Path) -> None:
    """`desktop-rag -h` said every command's and option's help in English under a Chinese locale."""
    from desktop_rag.cli.texts import TEXTS
    from tests.support.english import english_sentence

    run = _cli(tmp_path / "home", "zh_CN.UTF-8", "-h")
    assert run.returncode == 0, run.stderr
    said = run.stdout
    for key in ("help.description", "help.index", "help.move_library", "help.download_model", "help.self_test"):
        assert TEXTS[key]["zh"][:12] in said and TEXTS[key]["en"][:30] not in said, key
    helps = [line.split("  ")[-1] for line in said.splitlines() if "  " in line.strip()]  # the help after its option
    assert all(english_sentence(text) is None for text in helps), [t for t in helps if english_sentence(t)]


def test_json_output_is_the_same_under_a_chinese_locale(tmp_path: Path) -> None:
    chinese, english = (_cli(tmp_path / "home", lang, "status", "--json") for lang in ("zh_CN.UTF-8", "en_US.UTF-8"))
    assert chinese.returncode == english.returncode == 0, chinese.stderr
    assert json.loads(chinese.stdout) == json.loads(english.stdout)


def test_argparse_says_its_own_words_again_after_the_command(monkeypatch, capsys) -> None:
    """The table answers argparse only while the command line's parser is built and used."""
    import argparse
    import gettext

    from desktop_rag.cli.main import main

    for name in _LOCALES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    with pytest.raises(SystemExit):
        main(["ask"])
    assert "缺少以下必需的参数" in capsys.readouterr().err
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]
