"""End-to-end ingest of a mixed PDF library (issue 36 item 5), before vs after in one run.

Run from the repository root: `python -m bench.ingest_e2e` (`--revs A B`: the code compared, default the code
before issue 36 (115bba9), the rev 2298828 and this working tree; `--rounds N` alternates them N times).
The library (built once under the bench cache) is real-shaped: English PDFs of 5-30 pages with a table every
fourth page (Helvetica), Chinese PDFs through the predefined CMap GBK-EUC-H (what pypdf read as garbage), scanned
PDFs (English and Chinese pages, images only), and two .docx files. Each version's code is unpacked with
`git archive` under the cache; a fresh worker process (`python bench/ingest_e2e.py --worker`, that code first on
PYTHONPATH) indexes the folder with the real `Engine.index` (parser child, MiniLM) and times the stages: parse
(the loader in the child, OCR excluded), OCR, chunk, embed (model load included), store (SQLite writes and the
FAISS adds), other (IPC, hashing, scanning); peak RSS (VmHWM) of the worker and of the parser child.
The worker imports only the standard library at the top: the parser child re-imports this file as its main.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

PROBE_ENV = "DESKTOP_RAG_E2E_PROBE"
MODEL = "bundled:all-MiniLM-L6-v2"
BEFORE_36 = "115bba9"  # main before the pdf-text and ocr-speed merges
REVS = (BEFORE_36, "2298828", "HEAD+")  # "HEAD+": this working tree as it is


def _hwm() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmHWM:"))


def child_probe() -> None:
    """Parser-child init hook: time each `loaders.load` and its OCR calls into the file named by PROBE_ENV."""
    from desktop_rag.engine.ingest import loaders
    from desktop_rag.engine.ingest.loaders import ocr

    spent = {"ocr": 0.0}
    read, load = ocr.read, loaders.load  # (ocr.recognise reads through ocr.read)

    def timed_read(*args, **kwargs):
        started = time.perf_counter()
        try:
            return read(*args, **kwargs)
        finally:
            spent["ocr"] += time.perf_counter() - started

    def timed_load(*args, **kwargs):
        spent["ocr"] = 0.0
        started = time.perf_counter()
        try:
            return load(*args, **kwargs)
        finally:
            row = {"load": time.perf_counter() - started, "ocr": spent["ocr"], "hwm": _hwm()}
            with open(os.environ[PROBE_ENV], "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")

    ocr.read, loaders.load = timed_read, timed_load


def _worker(folder: str, home: str) -> None:
    """Index `folder` into `home` with this PYTHONPATH's code; print the stage times as JSON."""
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine import engine as engine_module
    from desktop_rag.engine.ingest import ingest
    from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
    from desktop_rag.engine.store.sqlite.vector_index import VectorIndex

    spent: dict[str, float] = {}

    def timed(name, fn):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - started
        return wrapper

    ingest.chunk_document = timed("chunk", ingest.chunk_document)
    Store.replace_file_chunks = timed("store_text", Store.replace_file_chunks)
    Store.add_vectors = timed("store_vectors", Store.add_vectors)
    VectorIndex.add = timed("store_vectors", VectorIndex.add)
    ingest.Ingestor.embed_pending = timed("embed_phase", ingest.Ingestor.embed_pending)
    ingest.Ingestor._index_one = timed("text_phase", ingest.Ingestor._index_one)
    engine = engine_module.Engine(resolve_paths(Path(home)), Settings(embedding_model=MODEL))
    engine.parser().init_hook = "ingest_e2e:child_probe"
    started = time.perf_counter()
    report = engine.index([Path(folder)])
    wall = time.perf_counter() - started
    engine.close()
    probes = [json.loads(line) for line in Path(os.environ[PROBE_ENV]).read_text().splitlines()]
    load = sum(p["load"] for p in probes)
    ocr = sum(p["ocr"] for p in probes)
    stages = {
        "parse": load - ocr, "ocr": ocr, "chunk": spent.get("chunk", 0.0),
        "embed": spent.get("embed_phase", 0.0) - spent.get("store_vectors", 0.0),
        "store": spent.get("store_text", 0.0) + spent.get("store_vectors", 0.0),
    }
    stages["other"] = wall - sum(stages.values())
    print(json.dumps({"wall": wall, "stages": stages, "added": report.added, "failed": len(report.failed),
                      "chunks": report.chunks, "hwm": _hwm(), "child_hwm": max((p["hwm"] for p in probes), default=0)}))


# ---- the library and the comparison (current code) ----


def _prose(lang: str, chars: int, skip: int) -> list[str]:
    """Lines of real text: SciFact abstracts (English) or XQuAD-zh paragraphs (Chinese), wrapped for a page."""
    from bench.common import DATA

    name, width = ("scifact", 95) if lang == "en" else ("xquad-zh", 42)
    lines: list[str] = []
    with open(DATA / name / "corpus.jsonl", encoding="utf-8") as fh:
        for n, raw in enumerate(fh):
            if n < skip:
                continue
            codec = "cp1252" if lang == "en" else "gbk"  # what the page's font can show
            text = " ".join(json.loads(raw)["text"].encode(codec, "ignore").decode(codec).split())
            while text:
                cut = width if lang == "zh" or len(text) <= width else text.rfind(" ", 0, width) + 1 or width
                lines.append(text[:cut].strip())
                text = text[cut:]
            lines.append("")
            if sum(map(len, lines)) >= chars:
                return lines
    return lines


def _table(lang: str, page: int) -> list[list[str]]:
    if lang == "zh":
        head = ["批次", "产地", "数量", "检验员"]
        return [head] + [[f"第{page}-{r}批", ["浙江", "四川", "福建"][r % 3], f"{(page * 7 + r) * 13}",
                          f"检验员{r}"] for r in range(1, 9)]
    head = ["Batch", "Origin", "Quantity", "Inspector"]
    return [head] + [[f"B-{page:02d}-{r}", ["Lisbon", "Oslo", "Quito"][r % 3], f"{(page * 7 + r) * 13}",
                      f"Inspector {r}"] for r in range(1, 9)]


def _text_pdf(path: Path, lang: str, pages: int, skip: int) -> int:
    from tests.support import pdf_build as build

    per_page = 40
    lines = _prose(lang, pages * per_page * (80 if lang == "en" else 40), skip)
    placed_pages = []
    for p in range(pages):
        body = lines[p * per_page:(p + 1) * per_page]
        if p % 4 == 3:
            placed_pages.append(build.table_lines(body[:8], _table(lang, p), body[8:22], [110, 110, 110, 110]))
        else:
            placed_pages.append([(56.0, 72.0 + 16 * i, line) for i, line in enumerate(body) if line])
    font = build.GBK_EUC_H if lang == "zh" else None
    path.write_bytes(build.placed_pdf(placed_pages, font))
    return pages


def _scan_pdf(path: Path, chinese: bool, pages: int) -> int:
    from tests.support import scan_kinds, scans

    images = [scan_kinds.dense_page(chinese, 12.0 if n % 2 else 10.0)[0] for n in range(pages)]
    scans.image_pdf(images, path)
    return pages


def _docx(path: Path, skip: int) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Field notes", 1)
    for line in _prose("en", 4000, skip):
        if line:
            document.add_paragraph(line)
    table = document.add_table(rows=0, cols=4)
    for row in _table("en", 99):
        cells = table.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = text
    document.save(str(path))


def build_library() -> tuple[Path, int]:
    """The mixed library (built once) and its number of PDF pages."""
    from bench.common import CACHE

    folder = CACHE / "ingest-e2e"
    done = folder / ".complete"
    if done.exists():
        return folder, int(done.read_text())
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    pages = sum(_text_pdf(folder / f"report-en-{n}.pdf", "en", n, skip) for n, skip in ((5, 0), (12, 200), (30, 400)))
    pages += sum(_text_pdf(folder / f"report-zh-{n}.pdf", "zh", n, skip) for n, skip in ((5, 0), (15, 100)))
    pages += _scan_pdf(folder / "scan-en.pdf", False, 3) + _scan_pdf(folder / "scan-zh.pdf", True, 2)
    for n in (1, 2):
        _docx(folder / f"notes-{n}.docx", 900 + 50 * n)
    done.write_text(str(pages))
    return folder, pages


def _code(rev: str) -> Path:
    """The code of `rev` unpacked under the bench cache (this working tree for "HEAD+")."""
    import subprocess

    from bench.common import CACHE, REPO

    if rev == "HEAD+":
        return REPO
    target = CACHE / f"ingest-e2e-code-{rev}"
    if not (target / ".complete").exists():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        (target / ".complete").write_text(rev)
    return target


def _one(rev: str, folder: Path, scratch: Path) -> dict:
    import shutil

    from bench.common import REPO, bench_env, run

    home = scratch / f"home-{rev}"
    shutil.rmtree(home, ignore_errors=True)
    probe = scratch / f"probe-{rev}.jsonl"
    probe.unlink(missing_ok=True)
    env = bench_env(**{PROBE_ENV: str(probe)})
    env["PYTHONPATH"] = str(_code(rev))
    done = run([sys.executable, str(REPO / "bench" / "ingest_e2e.py"), "--worker", str(folder), str(home)], env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{rev}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    import argparse

    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--revs", nargs="+", default=list(REVS))
    args.add_argument("--rounds", type=int, default=1)
    args.add_argument("--worker", nargs=2, metavar=("FOLDER", "HOME"))
    opts = args.parse_args(argv)
    if opts.worker:
        _worker(*opts.worker)
        return
    from bench.common import CACHE, emit, figure

    folder, pages = build_library()
    scratch = CACHE / "ingest-e2e-runs"
    scratch.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[dict]] = {rev: [] for rev in opts.revs}
    for _ in range(opts.rounds):
        for rev in opts.revs:
            runs[rev].append(_one(rev, folder, scratch))
    rows, speed = [], {}
    for rev, passes in runs.items():
        wall = sum(r["wall"] for r in passes) / len(passes)
        speed[rev] = pages * 60 / wall
        first = passes[0]
        rows.append(figure(f"{rev}: pages/min all-in", speed[rev], "pages/min",
                           note=f"{pages} PDF pages + 2 .docx, {wall:.1f} s; {first['added']} files, "
                                f"{first['failed']} failed, {first['chunks']} chunks"))
        stages = {k: sum(r["stages"][k] for r in passes) / len(passes) for k in first["stages"]}
        rows.append(figure(f"{rev}: seconds per stage", " / ".join(f"{v:.1f}" for v in stages.values()), "s",
                           note=" / ".join(stages)))
        rows.append(figure(f"{rev}: peak RSS worker / parser child", f"{max(r['hwm'] for r in passes):.0f} / "
                           f"{max(r['child_hwm'] for r in passes):.0f}", "MB"))
    base = opts.revs[0]
    for rev in opts.revs[1:]:
        ratio = speed[rev] / speed[base]
        rows.append(figure(f"{rev} vs {base}: pages/min", ratio, "x", ">= 1.5", ratio >= 1.5))
    emit("ingest_e2e", rows)


if __name__ == "__main__":
    main()
