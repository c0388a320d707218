"""`desktop-rag --self-test` / `demo`: index the bundled samples in a temp dir, search, answer, check.

It also reads one scanned page (resources/samples_scanned: a notice in Chinese and English, rendered at
300 dpi in Noto Sans CJK and saved as a 1-bit PNG), so the bundle proves that local OCR works.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths, resource_path
from desktop_rag.engine import DoneEvent, ErrorEvent, TokenEvent, counted, locale_language
from desktop_rag.selftest.texts import say as line

# (question, file the top passage must come from, words the extractive answer must contain)
CHECKS = (
    ("What water temperature is best for brewing coffee?", "coffee-brewing-guide.txt", ("90", "96")),
    ("How do I add documents to the library?", "getting-started.md", ("folder",)),
    ("绿茶的水温应该是多少？", "绿茶冲泡指南.md", ("八十度",)),
    ("新办公室在哪里？", "办公室搬迁通知.txt", ("三号楼",)),
)

# Across languages, checked where the bundled multilingual model exists (Linux, macOS arm64)
CROSS_LINGUAL_CHECK = ("How hot should the water be when making green tea?", "绿茶冲泡指南.md", ("八十度",))

# (question, the scanned sample it must find, a word the recognised passage must contain)
SCANNED_CHECK = ("Is the library closed on Saturday for maintenance?", "scanned-library-notice.png", "Saturday")


class SelfTestFailure(Exception):
    """A check of the self-test did not hold: `key` is its line (`texts.TEXTS`), with its values."""

    def __init__(self, key: str, /, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def run_self_test(verbose: bool = True, samples: Path | None = None) -> int:
    """Run every check; print what happens; 0 when all pass, 1 with the reason otherwise."""
    say: Callable[[str], None] = print if verbose else (lambda _text: None)
    samples = samples or resource_path("samples")
    try:
        with tempfile.TemporaryDirectory(prefix="desktop-rag-selftest-") as tmp:
            _run(Path(tmp), samples, say)
    except SelfTestFailure as exc:
        print(line("failed", why=line(exc.key, **exc.values)))
        return 1
    say(line("passed"))
    return 0


def _run(home: Path, samples: Path, say: Callable[[str], None]) -> None:
    from desktop_rag.engine import MULTILINGUAL_MODEL, Engine

    if not samples.is_dir():
        raise SelfTestFailure("no_samples", folder=samples)
    engine = Engine(resolve_paths(home), Settings())
    try:
        say(line("indexing", samples=samples, home=home))
        started = time.monotonic()
        report = engine.index([samples])
        say(line("indexed", counts=counted(locale_language(), files=report.added, chunks=report.chunks),
                 model=engine.index_model, seconds=time.monotonic() - started))
        _check_indexed(report, len(CHECKS), "too_few")
        checks = CHECKS
        if engine.index_model == MULTILINGUAL_MODEL:
            checks += (CROSS_LINGUAL_CHECK,)
        for question, expected_file, expected_words in checks:
            _check_question(engine, question, expected_file, expected_words, say)
        _check_scanned(engine, resource_path("samples_scanned"), say)
    finally:
        engine.close()


def _check_indexed(report, least: int, short: str) -> None:
    """The run indexed at least `least` files and none failed (the first failure named, with its reason)."""
    if report.failed:
        raise SelfTestFailure("file_failed", path=report.failed[0].path, why=report.failed[0].error)
    if report.added < least:
        raise SelfTestFailure(short, added=report.added)


def _check_scanned(engine, folder: Path, say: Callable[[str], None]) -> None:
    """Index the scanned sample page (OCR in the parser child) and find its text."""
    question, expected_file, word = SCANNED_CHECK
    if not folder.is_dir():
        raise SelfTestFailure("no_scanned", folder=folder)
    started = time.monotonic()
    report = engine.index([folder])
    _check_indexed(report, 1, "scanned_not_read")
    hits = engine.search(question, 3)
    top = hits[0] if hits else None
    if top is None or Path(top.path).name != expected_file or not top.ocr or word not in top.text:
        found = f"{Path(top.path).name} (ocr={top.ocr})" if top else line("found_nothing")
        raise SelfTestFailure("found_other", question=question, found=found,
                              expected=line("not_recognised", file=expected_file))
    say(line("scanned", file=expected_file, seconds=time.monotonic() - started, question=question,
             text=" ".join(top.text.split())[:120]))


def _check_question(engine, question: str, expected_file: str, words: tuple[str, ...], say) -> None:
    hits = engine.search(question, 3)
    if not hits or Path(hits[0].path).name != expected_file:
        found = Path(hits[0].path).name if hits else line("found_nothing")
        raise SelfTestFailure("found_other", question=question, found=found, expected=expected_file)
    say(line("search", question=question, file=expected_file, score=hits[0].score))
    # Extractive mode on purpose: the self-test must not depend on a network or an API key.
    answer, mode = "", ""
    for event in engine.answerer(extractive=True).answer(question):
        if isinstance(event, TokenEvent):
            continue
        if isinstance(event, ErrorEvent):
            raise SelfTestFailure("answer_failed", question=question, why=event.message)
        if isinstance(event, DoneEvent):
            answer, mode = event.answer, event.mode
    if mode != "extractive" or "[1]" not in answer or not all(w in answer for w in words):
        raise SelfTestFailure("answer_wrong", question=question, answer=repr(answer))
    say(line("answer", answer=" ".join(answer.split())[:200]))
