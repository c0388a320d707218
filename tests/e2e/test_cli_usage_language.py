"""argparse's own words ("usage:", "error: the following arguments are required", "invalid choice", the help's
headings) and the command line's own checks of its arguments were English under a Chinese locale; they follow
the locale now (`parser_words.py`), while command names, options and `--json` stay as they are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hash_cli import environment, use_locale


def _cli(home: Path, lang: str, *args: str, columns: int | None = None) -> subprocess.CompletedProcess:
    env = environment(lang, DESKTOP_RAG_EMBEDDING_MODEL="hash:64")
    if columns is not None:  # argparse's width (shutil.get_terminal_size reads COLUMNS)
        env["COLUMNS"] = str(columns)
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


@pytest.mark.parametrize("args", [(), ("search",), ("ask",), ("index",)])
def test_chinese_help_is_laid_out_by_display_columns(tmp_path: Path, args) -> None:
    """argparse counted characters: under "用法：" (3 characters, 6 columns) the usage's continuation lines sat 3
    columns left of the program's name, and a Chinese help text, which has no spaces to break at, ran past the
    terminal's edge (the `--library` help: 150 columns in one line at 80)."""
    from desktop_rag.engine import display_width, is_wide

    run = _cli(tmp_path / "home", "zh_CN.UTF-8", *args, "-h", columns=80)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    head = "用法：" + " ".join(("desktop-rag", *args)) + " "
    assert lines[0].startswith(head)
    usage = lines[1:lines.index("")]
    assert usage and all(len(line) - len(line.lstrip()) == display_width(head) for line in usage), usage
    for line in lines:  # argparse's width: the terminal's less 2; longer only an ASCII option list it cannot break
        assert display_width(line) <= 78 or not any(is_wide(c) for c in line), line
    if not args:  # the --library help, wrapped where it ran on
        at = next(i for i, line in enumerate(lines) if line.startswith("  --library URL"))
        assert lines[at + 1].startswith(" " * 24) and any(is_wide(c) for c in lines[at + 1]), lines[at:at + 3]


def test_a_chinese_help_text_wraps_between_characters_and_keeps_punctuation_with_them() -> None:
    from desktop_rag.parser_words import wrapped
    from desktop_rag.engine import display_width

    text = "使用 PostgreSQL 服务器上的资料库（postgresql://USER@HOST:PORT/DB；密码取自系统密钥环），或用 'local' 表示"
    for width in range(8, 60):
        lines = wrapped(text, width)
        assert all(display_width(line) <= width for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
        assert not any(line[0] in "，。、；：）" or line[-1] in "（" for line in lines), (width, lines)
    assert wrapped("the judgements: query-id, corpus-id, score", 20) == ["the judgements:", "query-id, corpus-id,",
                                                                           "score"]  # English as textwrap, no hyphen cut


def test_json_output_is_the_same_under_a_chinese_locale(tmp_path: Path) -> None:
    chinese, english = (_cli(tmp_path / "home", lang, "status", "--json") for lang in ("zh_CN.UTF-8", "en_US.UTF-8"))
    assert chinese.returncode == english.returncode == 0, chinese.stderr
    assert json.loads(chinese.stdout) == json.loads(english.stdout)


def test_argparse_says_its_own_words_again_after_the_command(monkeypatch, capsys) -> None:
    """The table answers argparse only while the command line's parser is built and used."""
    import argparse
    import gettext

    from desktop_rag.cli.main import main

    use_locale(monkeypatch, "zh_CN.UTF-8")
    with pytest.raises(SystemExit):
        main(["ask"])
    assert "缺少以下必需的参数" in capsys.readouterr().err
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]
