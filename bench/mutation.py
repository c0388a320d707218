"""Mutation testing of the engine's core modules with mutmut: the share of mutants each module's fast tests kill.

`python -m bench.mutation` runs every module; `--module feedback` (or `--modules a,b`) re-runs the rows of the
modules a change touched (the habit: docs/ARCHITECTURE.md section 12, bench/README.md "Mutation testing").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from fnmatch import fnmatch
from pathlib import Path

from bench.common import CACHE, REPO, emit, figure

_ONNX = "desktop_rag.engine.models.embedders.onnx_backend"
_STORE = "desktop_rag.engine.store.sql_store.xǁSqlStoreǁ"
# module -> (mutant-name patterns, the fast engine tests that cover it). Timing tests are left out:
# a mutant must be caught by an assertion, and a 5 s speed test per mutant would not fit the budget.
MODULES: dict[str, tuple[list[str], list[str]]] = {
    "fusion": (["desktop_rag.engine.search.fusion.*"],
               ["tests/engine/test_fusion.py", "tests/engine/test_fusion_coverage.py",
                "tests/engine/test_fusion_rules.py"]),
    "chunking": (["desktop_rag.engine.ingest.chunking.*"],
                 ["tests/engine/test_chunking.py", "tests/engine/test_chunking_cuts.py"]),
    "keyword": (["desktop_rag.engine.text.keyword.*"], ["tests/engine/test_keyword.py"]),
    "extractive": (["desktop_rag.engine.answer.extractive.*"],
                   ["tests/engine/test_extractive.py", "tests/engine/test_extractive_rules.py",
                    "tests/engine/test_extractive_focus.py", "tests/engine/test_answer_selection.py",
                    "tests/engine/test_selection_rules.py"]),
    # issue 50: which sentences lead an extractive answer (weights, the asked kind, the knowledge boundary)
    "selection": (["desktop_rag.engine.answer.selection.*", "desktop_rag.engine.answer.answer_kind.*"],
                  ["tests/engine/test_answer_selection.py", "tests/engine/test_selection_rules.py",
                   "tests/engine/test_extractive.py", "tests/engine/test_extractive_rules.py",
                   "tests/engine/test_extractive_focus.py"]),
    # issue 50: the lead quoted with the sentence that continues it (which sentences refer back, how they join)
    "continuation": (["desktop_rag.engine.answer.sentences.x_continues__mutmut_*",
                      "desktop_rag.engine.answer.sentences.x_joined__mutmut_*",
                      "desktop_rag.engine.answer.selection.x__with_continuations__mutmut_*",
                      "desktop_rag.engine.answer.selection.x__beside__mutmut_*",
                      "desktop_rag.engine.answer.extractive.x__clip__mutmut_*"],
                     ["tests/engine/test_selection_rules.py", "tests/engine/test_extractive_rules.py",
                      "tests/engine/test_extractive_focus.py"]),
    # issue 50: the passage naming what is distinctive in the question leads (coverage), and what may follow the lead
    "coverage": (["desktop_rag.engine.answer.selection.x__relative_coverage__mutmut_*",
                  "desktop_rag.engine.answer.selection.x__coverage__mutmut_*",
                  "desktop_rag.engine.answer.selection.x__idf__mutmut_*",
                  "desktop_rag.engine.answer.selection.x_choose__mutmut_*"],
                 ["tests/engine/test_answer_selection.py", "tests/engine/test_selection_rules.py",
                  "tests/engine/test_extractive.py", "tests/engine/test_extractive_rules.py"]),
    "terms": (["desktop_rag.engine.text.terms.*"],  # the stemmer, stopwords and tokens keyword and extractive share
              ["tests/engine/test_terms.py", "tests/engine/test_keyword.py", "tests/engine/test_extractive_rules.py"]),
    "citations": (["desktop_rag.engine.answer.citations.*"],
                  ["tests/engine/test_citations.py", "tests/engine/test_extractive.py"]),
    # ingest: only the reconcile half (disk vs store: unchanged, touched, moved, removed)
    "ingest_reconcile": ([f"desktop_rag.engine.ingest.ingest.xǁIngestorǁ{name}__mutmut_*"
                          for name in ("_reconcile", "_settle_without_reading", "_remove")]
                         + ["desktop_rag.engine.ingest.ingest.x__same_stat__mutmut_*"],
                         ["tests/engine/test_ingest.py", "tests/engine/test_ingest_reconcile.py",
                          "tests/engine/test_skipped_report.py", "tests/engine/test_unreachable_folders.py"]),
    # one file never stops a run; what is no file's fault (a full disk, a library unreachable or held by another
    # client) ends it, and no file is marked failed for it
    "file_isolation": (["desktop_rag.engine.ingest.ingest.x__ends_run__mutmut_*",
                        "desktop_rag.engine.ingest.ingest.xǁIngestorǁ_index_one__mutmut_*"],
                       ["tests/engine/test_file_isolation.py"]),
    # issue 48: the modules behind the twelve misses of the last spot check
    # the rules (search/feedback.py) and the marked passages they read (store/passages.py)
    "feedback": (["desktop_rag.engine.search.feedback.*"]
                 + [f"desktop_rag.engine.store.passages.x_{name}__mutmut_*"
                    for name in ("marked_right", "marked_wrong", "chunks_within")],
                 ["tests/engine/test_feedback_rules.py", "tests/engine/test_feedback_marks.py",
                  "tests/engine/test_feedback_scope.py"]),
    "scope": (["desktop_rag.engine.store.scope.*", "desktop_rag.engine.store.restriction.*",
               "desktop_rag.engine.store.sqlite.filters.*"],  # the ids a restriction selects
              ["tests/engine/test_file_scope.py", "tests/engine/test_search_filters.py",
               "tests/engine/test_scope_rules.py"]),
    "folder_checks": (["desktop_rag.engine.models.folder_checks.*"], ["tests/engine/test_folder_checks.py"]),
    "pdf_tables": (["desktop_rag.engine.ingest.loaders.pdf_tables.*"],
                   ["tests/engine/test_pdf_tables.py", "tests/engine/test_pdf_table_rules.py"]),
    "metrics": (["desktop_rag.engine.review.metrics.*"],
                ["tests/engine/test_evaluation.py", "tests/engine/test_metrics.py"]),
    "compression": (["desktop_rag.engine.answer.compression.*"],
                    ["tests/engine/test_compression.py", "tests/engine/test_compression_rules.py"]),
    # on a tiny model built in the test (the real models' tests, test_onnx_windowing.py, take 50 s a session)
    "onnx_windowing": ([f"{_ONNX}.x_windows__mutmut_*", f"{_ONNX}.x_max_positions__mutmut_*",
                        f"{_ONNX}.xǁOnnxEmbedderǁ_encode__mutmut_*"],
                       ["tests/engine/test_onnx_window_rules.py"]),
    "answer_cache": (["desktop_rag.engine.store.answer_cache.*", "desktop_rag.engine.answer.replay.*"],
                     ["tests/engine/test_answer_cache.py", "tests/engine/test_answer_cache_rules.py",
                      "tests/engine/test_feedback_rules.py"]),
    "reader_registry": (["desktop_rag.engine.file_types.*", "desktop_rag.engine.ingest.loaders.x_*"],
                        ["tests/engine/test_file_types.py", "tests/engine/test_loaders.py",
                         "tests/engine/test_reader_registry.py"]),
    # the rows of an e-mail's attachments: stored, kept, moved and dropped with their message
    "email_attachments": ([f"{_STORE}{name}__mutmut_*" for name in ("replace_file_chunks", "_drop_attachments",
                                                                   "carrier", "move_file", "count_attachments")]
                          + ["desktop_rag.engine.ingest.ingest.xǁIngestorǁ_attachment_rows__mutmut_*",
                             "desktop_rag.engine.paths.x_attachment_path__mutmut_*",
                             "desktop_rag.engine.paths.x_attachment_part__mutmut_*"],
                          ["tests/engine/test_email_attachments.py", "tests/engine/test_attachment_rows.py"]),
    # an edited file's unchanged passages keep their vectors, each table's its own, and hand what was attached to
    # them on (the real models' edit: test_kept_vectors.py, 30 s a session, left to the suite)
    "kept_vectors": (["desktop_rag.engine.store.kept_vectors.*"],
                     ["tests/engine/test_kept_vector_rules.py", "tests/engine/test_carried_references.py"]),
    # what the person attached to those passages follows them: marks, a conversation's turns, the review log
    "carried_references": (["desktop_rag.engine.store.carried_references.*"],
                           ["tests/engine/test_carried_reference_rules.py", "tests/engine/test_carried_references.py"]),
    # a question is searched, and compared with sentences, by its beginning (a pasted page costs a paragraph's time)
    "question_bound": (["desktop_rag.engine.search.question.x_searched_text__mutmut_*",
                        "desktop_rag.engine.search.question.x_plain__mutmut_*"],
                       ["tests/engine/test_long_question.py", "tests/engine/test_search_question.py"]),
    # with a model, a sentence of another document follows the lead only nearer it (issue 50, seventh session)
    "follow_margin": (["desktop_rag.engine.answer.selection.x__follow_margin__mutmut_*"],
                      ["tests/engine/test_selection_rules.py"]),
    # an archive goes into the empty collection of its name; one holding sources is never touched
    "import_target": (["desktop_rag.engine.archive.importer.x_import_content__mutmut_*",
                       "desktop_rag.engine.store.archive_rows.x_insert_collection__mutmut_*"],
                      ["tests/engine/test_archive.py", "tests/security/test_archive_hostile.py"]),
    # a shared library's address: its parts, what is refused and why, the password never shown
    "server_url": (["desktop_rag.engine.store.postgres.url.*"], ["tests/engine/test_server_url.py"]),
    # a reasoning model's thinking kept out of its answer: a leading think block, or a lone closing tag
    "reasoning": (["desktop_rag.engine.answer.reasoning.*"],
                  ["tests/engine/test_reasoning.py", "tests/engine/test_streamed_answer.py",
                   "tests/engine/test_unfinished_thinking.py", "tests/engine/test_thinking_models.py"]),
    # the answer as it streams reads as the finished one (citations cleaned, template-opened thinking taken back)
    "streamed_answer": (["desktop_rag.engine.answer.streamed_answer.*"], ["tests/engine/test_streamed_answer.py"]),
    # the viewer's banner: what it says about the passage shown (the file's state, how the passage was found)
    "viewer_banner": (["desktop_rag.gui.controllers.viewer_banner.*"], ["tests/gui/test_viewer_banner.py"]),
    # the window of a long document the viewer lays out around the passage (the huge sheet's Qt test, 7 s, left out)
    "text_window": (["desktop_rag.gui.text_window.*"],
                    ["tests/gui/test_text_window.py"]),
    # the viewer's Find in a text document's whole text: any case, from a place, round once, piece by piece
    "text_find": (["desktop_rag.gui.text_find.*"], ["tests/gui/test_text_find.py"]),
    # Find's caseless matching: the rule, whole characters, the fast paths' exactness
    "caseless": (["desktop_rag.engine.text.caseless.*"], ["tests/engine/test_caseless.py"]),
    # what reaches a terminal from a document, a file name, a server or a model
    "terminal": (["desktop_rag.cli.terminal.*"], ["tests/security/test_terminal_cleaner.py"]),
    # a scanned page's recognised lines: each OCR box placed on the page and given its characters in the page's text;
    # stored, dropped and read for the viewer's highlight (test_ocr_lines.py's OCR tests take 50 s a session: only its
    # test without OCR runs here)
    "ocr_boxes": (["desktop_rag.engine.ingest.loaders.ocr_boxes.*", "desktop_rag.engine.store.ocr_lines.*"],
                  ["tests/engine/test_ocr_lines.py::test_a_hostile_pages_boxes_are_bounded",
                   "tests/engine/test_ocr_box_rules.py"]),
    # how an answer ended short: the ending made (stopped, cut, empty or thinking only, failed; a summary written from
    # cut sections or of the first ones only) and worded, kept with its turn and read back, marked unfinished in the
    # history the model reads next
    "endings": (["desktop_rag.engine.store.values.xǁEndingǁ*"]
                + [f"desktop_rag.engine.answer.events.x_{name}__mutmut_*" for name in ("stopped", "cut_at_limit",
                                                                                      "no_answer")]
                + ["desktop_rag.engine.answer.prompting.x__unfinished_mark__mutmut_*",
                   "desktop_rag.engine.answer.summarising.x__short__mutmut_*",
                   "desktop_rag.engine.answer.turns.x_saved__mutmut_*"],
                ["tests/engine/test_unfinished_turns.py", "tests/engine/test_unfinished_thinking.py",
                 "tests/engine/test_ending_rules.py", "tests/engine/test_sent_kept.py"]),
}
# timing tests, and the PDF-table questions (the bundled e5 indexing a library: 20 s per mutant)
DESELECT = ["test_speed_5000_files", "test_index_text_is_fast", "test_a_question_about_a_cell_finds_the_row"]
KILLED = {"killed", "timeout", "caught by type check"}
MODULE_TARGET, OVERALL_TARGET = 0.80, 0.90
# tests/conftest.py's word list, built once for the run (each mutant's test run is a new pytest session: the word
# list alone took 3 s of every one)
PREBUILT_LEXICON_ENV = "DESKTOP_RAG_TEST_LEXICON"


def _pattern_file(pattern: str) -> str:
    """The source file a mutant-name pattern belongs to ("desktop_rag.engine.text.keyword.*" -> its .py)."""
    module = re.split(r"\.(?=x_|xǁ|\*)", pattern)[0]
    path = module.replace(".", "/")
    return path + "/__init__.py" if (REPO / path).is_dir() else path + ".py"


def source_files(module: str) -> list[str]:
    """The files a MODULES entry mutates."""
    return sorted({_pattern_file(p) for p in MODULES[module][0]})


def test_files(module: str) -> list[str]:
    """The test files (or one test of a file: `path::name`) a module names that exist (a module's new test file may
    not be written yet)."""
    return sorted(t for t in MODULES[module][1] if (REPO / t.split("::")[0]).is_file())


def prepare(workdir: Path, module: str) -> None:
    """A private copy of the package and the tests, with a mutmut config for one module: its files are mutated and
    only its tests run (the shared tree is never touched)."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "desktop_rag", workdir / "desktop_rag", ignore=ignore)
    tests = test_files(module)  # the ones that run
    # the shared helpers (no test module imports another's), the data, and the folders of the tests that run
    for folder in sorted({"support", "data"} | {Path(t).parts[1] for t in tests}):
        shutil.copytree(REPO / "tests" / folder, workdir / "tests" / folder, ignore=ignore)
    for name in ("tests/__init__.py", "tests/conftest.py"):
        shutil.copy2(REPO / name, workdir / name)
    files = source_files(module)
    deselect = " and ".join(f"not {name}" for name in DESELECT)
    (workdir / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["desktop_rag"]\n'
        f"only_mutate = {json.dumps(files)}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        f'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:timeout", "-k", "{deselect}"]\n'
        "[tool.pytest.ini_options]\n"
        'testpaths = ["tests"]\n',
        encoding="utf-8",
    )


def prebuilt_lexicon() -> Path:
    """The Chinese-English word list, built once into the bench cache (tests link it into each data folder)."""
    from desktop_rag.engine.text.lexicon import build_lexicon

    version = hashlib.sha256((REPO / "desktop_rag/engine/text/lexicon.py").read_bytes()).hexdigest()[:12]
    path = CACHE / f"mutation-lexicon-{version}.sqlite3"  # rebuilt when the code that writes it changes
    if not path.is_file():
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        build_lexicon(partial)
        partial.rename(path)
    return path


def run_mutmut(workdir: Path, module: str, jobs: int) -> float:
    """One module's mutants against its own tests; the seconds it took."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONPATH", None)
    env[PREBUILT_LEXICON_ENV] = str(prebuilt_lexicon())
    log = workdir / "mutmut.log"
    start = time.perf_counter()
    with open(log, "w", encoding="utf-8") as out, private_temp(env) as run_env:
        code = subprocess.call([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs),
                                *MODULES[module][0]], cwd=workdir, env=run_env, stdout=out, stderr=subprocess.STDOUT)
    if code != 0:
        sys.exit(f"mutmut failed (exit {code}); see {log}")
    return time.perf_counter() - start


@contextmanager
def private_temp(env: dict[str, str]) -> Iterator[dict[str, str]]:
    """`env` with a temp folder of the run's own (TMPDIR, and pytest's temp root), removed when the run ends however
    it ends: pytest keeps the folder of a session that was killed (mutmut kills many: time-outs, segfaults), and
    a run's worth once filled the disk under /tmp/pytest-of-<user>."""
    folder = Path(tempfile.mkdtemp(prefix="desktop-rag-mutation-"))
    try:
        yield {**env, "TMPDIR": str(folder), "PYTEST_DEBUG_TEMPROOT": str(folder)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _verdicts(workdir: Path, module: str) -> dict[str, str]:
    """mutmut's verdict for each mutant of the module (name -> status), read from its files' .meta."""
    from mutmut.stats import status_by_exit_code

    verdicts = {}
    for name in source_files(module):
        meta = workdir / "mutants" / (name + ".meta")
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        verdicts.update((key, status_by_exit_code[code]) for key, code in codes.items()
                        if any(fnmatch(key, p) for p in MODULES[module][0]))
    return verdicts


def statuses(workdir: Path, module: str) -> Counter:
    return Counter(_verdicts(workdir, module).values())


def survivors(workdir: Path, modules: list[str]) -> list[str]:
    return sorted(name for module in modules if test_files(module)
                  for name, status in _verdicts(workdir / module, module).items() if status not in KILLED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modules", "--module", default=",".join(MODULES),
                        help=f"comma-separated, from: {', '.join(MODULES)}")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument("--workdir", type=Path, default=CACHE / "mutation", help="one folder per module below it")
    parser.add_argument("--report-only", action="store_true", help="re-read the last run's results")
    parser.add_argument("--survivors", type=Path, help="write the surviving mutants' names to this file")
    args = parser.parse_args()
    modules = [m.strip() for m in args.modules.split(",") if m.strip()]
    unknown = set(modules) - MODULES.keys()
    if unknown:
        sys.exit(f"unknown module(s): {', '.join(sorted(unknown))}")
    rows, total, seconds = [], Counter(), {}
    with _LoadSampler() as load:
        for module in modules:
            workdir = args.workdir / module
            if not test_files(module):  # (a "before" run of code whose tests are not written yet)
                rows.append(figure(f"mutants killed: {module}", None, "%", note="no test file"))
                continue
            if not args.report_only:
                prepare(workdir, module)
                seconds[module] = round(run_mutmut(workdir, module, args.jobs), 1)
            counts = statuses(workdir, module)
            total += counts
            rows.append(_row(module, counts, MODULE_TARGET, source_sha=_sha(workdir, source_files(module)),
                             wall_s=seconds.get(module)))
    rows.append(_row("all", total, OVERALL_TARGET, wall_s=round(sum(seconds.values()), 1) if seconds else None,
                     load_average=load.summary()))
    emit("mutation", rows)
    if args.survivors:
        args.survivors.write_text("\n".join(survivors(args.workdir, modules)) + "\n", encoding="utf-8")


class _LoadSampler:
    """The machine's 1-minute load average every 30 s while the run lasts (the machine is shared)."""

    def __init__(self) -> None:
        self.samples = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> _LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(30):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> dict:
        return {"mean": round(sum(self.samples) / len(self.samples), 2), "min": round(min(self.samples), 2),
                "max": round(max(self.samples), 2)}


def _sha(workdir: Path, files: list[str]) -> str:
    """Which version of the module's files was mutated (the copies in the work dir)."""
    digest = hashlib.sha256()
    for name in files:
        digest.update((workdir / name).read_bytes())
    return digest.hexdigest()[:12]


def _row(module: str, counts: Counter, target: float, **extra) -> dict:
    n = sum(counts.values())
    killed = sum(counts[s] for s in KILLED)
    rate = killed / n if n else None
    note = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    return figure(f"mutants killed: {module}", round(100 * rate, 1) if rate is not None else None, "%",
                  f">= {target:.0%}", rate is not None and rate >= target, note=note, mutants=n, **extra)


if __name__ == "__main__":
    main()
