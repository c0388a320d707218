"""Shared benchmark helpers: data paths, the BEIR folders, timed CLI runs, RSS, metrics, output."""

from __future__ import annotations

import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.review.metrics import docs_by_max_score, ndcg_at, recall_at  # noqa: F401 (bench's names)
from tests.support.probes import NO_TORCH_PROBE

REPO = Path(__file__).resolve().parents[1]
# ../shared/data from the repo root (a worktree elsewhere names it); never copied into the repo
DATA = Path(os.environ.get("DESKTOP_RAG_BENCH_DATA", REPO.parent / "shared" / "data"))
CACHE = Path(os.environ.get("DESKTOP_RAG_BENCH_CACHE", Path(tempfile.gettempdir()) / "desktop-rag-bench"))
HASH_MODEL = "hash:384"  # tiny mode: deterministic embedder, no torch, so the smoke test stays fast



# ---- data ---------------------------------------------------------------------


@dataclass(frozen=True)
class Beir:
    """A BEIR-style set: doc id -> text (title + blank line + text), queries, binary qrels."""

    corpus: dict[str, str]
    queries: dict[str, str]
    qrels: dict[str, set[str]]


def load_beir(name: str, limit: int | None = None) -> Beir:
    """Read ../shared/data/NAME; with `limit`, keep the first docs and the queries judged only on them."""
    folder = DATA / name
    corpus: dict[str, str] = {}
    with open(folder / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            corpus[d["_id"]] = f"{d['title']}\n\n{d['text']}" if d.get("title") else d["text"]
            if limit and len(corpus) >= limit:
                break
    qrels: dict[str, set[str]] = {}
    with open(folder / "qrels" / "test.tsv", encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            q, doc, score = line.rstrip("\n").split("\t")
            if int(score) > 0:
                qrels.setdefault(q, set()).add(doc)
    qrels = {q: docs for q, docs in qrels.items() if docs <= corpus.keys()}
    queries = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d["_id"] in qrels:
                queries[d["_id"]] = d["text"]
    return Beir(corpus, queries, qrels)


def build_folder(name: str, limit: int | None = None) -> Path:
    """One .txt file per document (named by doc id) under the bench cache, outside the repo; reused if complete."""
    beir = load_beir(name, limit)
    folder = CACHE / f"{name}-docs{'-' + str(limit) if limit else ''}"
    done = folder / ".complete"
    if done.exists() and done.read_text() == str(len(beir.corpus)):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for doc_id, text in beir.corpus.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    done.write_text(str(len(beir.corpus)))  # hidden: the scanner skips it
    return folder


def doc_id_of(path: str) -> str:
    return Path(path).stem


# ---- processes ----------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A finished subprocess: exit code, output, wall and CPU seconds, peak RSS (MB); from wait4."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mb: float
    cpu_seconds: float = 0.0


def bench_env(model: str | None = None, **extra: str) -> dict[str, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env.pop("DESKTOP_RAG_HOME", None)
    if model:
        env["DESKTOP_RAG_EMBEDDING_MODEL"] = model
    env.update(extra)
    return env


def run(argv: Sequence[str], env: dict[str, str] | None = None, timeout: float = 3600) -> Run:
    """Run a process; wall time and peak RSS come from the kernel (os.wait4), not from polling."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(list(argv), stdout=out, stderr=err, env=env or bench_env(), cwd=REPO)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
            time.sleep(0.002)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read(), err.read(), seconds, usage.ru_maxrss / 1024,
                   usage.ru_utime + usage.ru_stime)


def cli(data_dir: Path, *args: str, model: str | None = None, probe: bool = False, check: bool = True) -> Run:
    """`desktop-rag --data-dir DIR ARGS` as a subprocess (the real CLI); `probe` also reports torch imports."""
    head = [sys.executable, "-c", NO_TORCH_PROBE] if probe else [sys.executable, "-m", "desktop_rag"]
    result = run([*head, "--data-dir", str(data_dir), *args], env=bench_env(model))
    if check and result.returncode != 0:
        raise RuntimeError(f"desktop-rag {' '.join(args)} failed ({result.returncode}): {result.stderr[-2000:]}")
    return result


def probe_output(result: Run) -> tuple[dict, bool]:
    """(the command's JSON output, whether torch was imported) from a NO_TORCH_PROBE run."""
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    return json.loads(probe["out"]), bool(probe["torch"])


LIBRARY_FORMAT = "3"  # bump when loading or chunking changes, so cached libraries are rebuilt
SHARED_CORPUS = {"xquad-en2zh": "xquad-zh"}  # sets that search the same documents share one library
MODEL_LABELS = {None: "auto", HASH_MODEL: "hash", "bundled:all-MiniLM-L6-v2": "minilm",
                "bundled:multilingual-e5-small": "e5"}


def library(name: str, limit: int | None = None, model: str | None = None, fresh: bool = False) -> Path:
    """A data dir holding NAME indexed through the CLI (with `model`, None = the default settings), cached
    under the bench cache; rebuilt when `fresh` or when it was built by code of another LIBRARY_FORMAT.
    The index run's report (chunks, seconds) is kept beside it in .bench-complete."""
    corpus = SHARED_CORPUS.get(name, name)
    home = CACHE / f"{corpus}-home{'-' + str(limit) if limit else ''}-{model_label(model)}"
    return indexed(home, build_folder(corpus, limit), model, fresh)


def model_label(model: str | None) -> str:
    return MODEL_LABELS.get(model) or "".join(ch if ch.isalnum() else "-" for ch in str(model))


def indexed(home: Path, folder: Path, model: str | None = None, fresh: bool = False) -> Path:
    """`home` holding `folder` indexed through the CLI (see `library`), reused when built by this format."""
    marker = home / ".bench-complete"
    if fresh or not marker.exists() or json.loads(marker.read_text()).get("format") != LIBRARY_FORMAT:
        shutil.rmtree(home, ignore_errors=True)
        result = cli(home, "index", str(folder), "--json", model=model)
        report = json.loads(result.stdout.strip().splitlines()[-1])
        marker.write_text(json.dumps({"format": LIBRARY_FORMAT, "chunks": report["chunks"],
                                      "seconds": result.seconds, "cpu_seconds": result.cpu_seconds}))
    return home


def library_report(home: Path) -> dict:
    """How the cached library was built: chunks, wall and CPU seconds of its index run."""
    return json.loads((home / ".bench-complete").read_text())


def rss_mb(pid: int | str = "self", field: str = "VmRSS") -> float:
    """Resident memory (or VmHWM, the peak) of a process in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextmanager
def uncapped_keyword_search() -> Iterator[None]:
    """Lift Store.keyword_search's postings budget, to compare with the shipped (capped) search in one run."""
    from desktop_rag.engine.store.sqlite import keyword_index

    saved = keyword_index.KEYWORD_POSTINGS_BUDGET
    keyword_index.KEYWORD_POSTINGS_BUDGET = 1 << 62
    try:
        yield
    finally:
        keyword_index.KEYWORD_POSTINGS_BUDGET = saved


# ---- statistics and metrics ------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


# ---- output ---------------------------------------------------------------------


def machine() -> dict:
    """Where and when: the figures only mean something next to the machine and its load."""
    return {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
            "date": time.strftime("%Y-%m-%d %H:%M"), "loadavg": [round(x, 2) for x in os.getloadavg()]}


def emit(bench: str, rows: list[dict]) -> None:
    """Print each figure as a JSON line (the first one also says which machine), then a readable table."""
    for i, row in enumerate(rows):
        extra = {"machine": machine()} if i == 0 else {}
        print(json.dumps({"bench": bench, **row, **extra}, ensure_ascii=False), flush=True)
    keys = ["figure", "value", "unit", "target", "met", "note"]
    table = [[_cell(row.get(k)) for k in keys] for row in rows]
    widths = [max(len(k), *(len(r[i]) for r in table)) if table else len(k) for i, k in enumerate(keys)]
    print("\n" + "  ".join(k.ljust(w) for k, w in zip(keys, widths)))
    print("  ".join("-" * w for w in widths))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


def figure(name: str, value: float | int | str | None, unit: str = "", target: str = "", met: bool | None = None,
           **extra) -> dict:
    """One benchmark figure (a JSON line and a table row)."""
    if isinstance(value, float):
        value = round(value, 4)
    return {"figure": name, "value": value, "unit": unit, "target": target, "met": met, **extra}


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    return str(value)
