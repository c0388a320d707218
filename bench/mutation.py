"""Mutation testing of the engine's core modules with mutmut: the share of mutants each module's fast tests kill."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bench.common import CACHE, REPO, emit, figure

# module -> (mutant-name patterns, the fast engine tests that cover it). Timing tests are left out:
# a mutant must be caught by an assertion, and a 5 s speed test per mutant would not fit the budget.
MODULES: dict[str, tuple[list[str], list[str]]] = {
    "fusion": (["desktop_rag.engine.search.fusion.*"],
               ["tests/engine/test_fusion.py", "tests/engine/test_fusion_coverage.py"]),
    "chunking": (["desktop_rag.engine.ingest.chunking.*"],
                 ["tests/engine/test_chunking.py", "tests/engine/test_chunking_cuts.py"]),
    "keyword": (["desktop_rag.engine.text.keyword.*"], ["tests/engine/test_keyword.py"]),
    "extractive": (["desktop_rag.engine.answer.extractive.*"],
                   ["tests/engine/test_extractive.py", "tests/engine/test_extractive_rules.py"]),
    "terms": (["desktop_rag.engine.text.terms.*"],  # the stemmer, stopwords and tokens keyword and extractive share
              ["tests/engine/test_terms.py", "tests/engine/test_keyword.py", "tests/engine/test_extractive_rules.py"]),
    "citations": (["desktop_rag.engine.answer.citations.*"],
                  ["tests/engine/test_citations.py", "tests/engine/test_extractive.py"]),
    # ingest: only the reconcile half (disk vs store: unchanged, touched, moved, removed)
    "ingest_reconcile": ([f"desktop_rag.engine.ingest.ingest.xǁIngestorǁ{name}__mutmut_*"
                          for name in ("_reconcile", "_settle_without_reading", "_remove")]
                         + ["desktop_rag.engine.ingest.ingest.x__same_stat__mutmut_*"],
                         ["tests/engine/test_ingest.py", "tests/engine/test_ingest_reconcile.py"]),
}
DESELECT = ["test_speed_5000_files", "test_index_text_is_fast"]
KILLED = {"killed", "timeout", "caught by type check"}


def source_file(module: str) -> str:
    """The file a MODULES entry mutates: its first pattern, as a path ("desktop_rag.engine.text.keyword.*")."""
    return MODULES[module][0][0].split(".x")[0].removesuffix(".*").replace(".", "/") + ".py"


def prepare(workdir: Path, modules: list[str]) -> None:
    """A private copy of the package and the chosen tests, with a mutmut config: the shared tree is never touched."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "desktop_rag", workdir / "desktop_rag", ignore=ignore)
    shutil.copytree(REPO / "tests" / "support", workdir / "tests" / "support", ignore=ignore)
    (workdir / "tests" / "engine").mkdir()
    for name in ("tests/__init__.py", "tests/conftest.py", "tests/engine/__init__.py"):
        shutil.copy2(REPO / name, workdir / name)
    tests = sorted({t for m in modules for t in MODULES[m][1]})
    for name in tests:
        shutil.copy2(REPO / name, workdir / name)
    files = sorted({source_file(m) for m in modules})
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


def run_mutmut(workdir: Path, modules: list[str], jobs: int) -> float:
    patterns = [p for m in modules for p in MODULES[m][0]]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONPATH", None)
    log = workdir / "mutmut.log"
    start = time.perf_counter()
    with open(log, "w", encoding="utf-8") as out:
        code = subprocess.call([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *patterns],
                               cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT)
    if code != 0:
        sys.exit(f"mutmut failed (exit {code}); see {log}")
    return time.perf_counter() - start


def statuses(workdir: Path, module: str) -> Counter:
    """mutmut's verdict for each mutant of the module, read from its .meta file."""
    from fnmatch import fnmatch

    from mutmut.stats import status_by_exit_code

    meta = workdir / "mutants" / (source_file(module) + ".meta")
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    patterns = MODULES[module][0]
    return Counter(status_by_exit_code[code] for name, code in codes.items()
                   if any(fnmatch(name, p) for p in patterns))


def survivors(workdir: Path, modules: list[str]) -> list[str]:
    from fnmatch import fnmatch

    from mutmut.stats import status_by_exit_code

    names = []
    for module in modules:
        meta = workdir / "mutants" / (source_file(module) + ".meta")
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        names += [n for n, c in codes.items() if status_by_exit_code[c] not in KILLED
                  and any(fnmatch(n, p) for p in MODULES[module][0])]
    return sorted(names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modules", default=",".join(MODULES), help=f"comma-separated, from: {', '.join(MODULES)}")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument("--workdir", type=Path, default=CACHE / "mutation")
    parser.add_argument("--report-only", action="store_true", help="re-read the last run's results")
    parser.add_argument("--survivors", type=Path, help="write the surviving mutants' names to this file")
    args = parser.parse_args()
    modules = [m.strip() for m in args.modules.split(",") if m.strip()]
    unknown = set(modules) - MODULES.keys()
    if unknown:
        sys.exit(f"unknown module(s): {', '.join(sorted(unknown))}")
    wall = None
    if not args.report_only:
        prepare(args.workdir, modules)
        wall = run_mutmut(args.workdir, modules, args.jobs)
    rows, total = [], Counter()
    for module in modules:
        counts = statuses(args.workdir, module)
        total += counts
        rows.append(_row(module, counts, source_sha=_sha(args.workdir / source_file(module))))
    rows.append(_row("all", total, wall_s=round(wall, 1) if wall else None))
    emit("mutation", rows)
    if args.survivors:
        args.survivors.write_text("\n".join(survivors(args.workdir, modules)) + "\n", encoding="utf-8")


def _sha(path: Path) -> str:
    """Which version of the module was mutated (the copy in the work dir)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _row(module: str, counts: Counter, **extra) -> dict:
    n = sum(counts.values())
    killed = sum(counts[s] for s in KILLED)
    rate = killed / n if n else None
    note = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    return figure(f"mutants killed: {module}", round(100 * rate, 1) if rate is not None else None, "%",
                  ">= 85%", rate is not None and rate >= 0.85, note=note, mutants=n, **extra)


if __name__ == "__main__":
    main()
