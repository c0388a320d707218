"""Retrieval quality through PDF versions of a quality set's documents (issue 36).

Each document of XQuAD-zh (Chinese, through non-embedded fonts with the GBK-EUC-H and GBKp-EUC-H CMaps) and of
the first SciFact documents (English, Helvetica) is written as a PDF (tests/support/pdf_build.py), the folder is
indexed through the CLI with the default settings, and the shipped hybrid search's nDCG@10 / Recall@10 is set
beside the same documents as text files. With `--old DIR` (a checkout of the code before issue 36, e.g.
`git archive ad65480 | tar -x -C DIR`) the PDFs are also indexed by that code (pypdf) in the same run.

Run from the repository root: `python -m bench.pdf_extraction_quality [--old DIR] [--scifact-docs N]`.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

from bench.common import CACHE, bench_env, cli, doc_id_of, docs_by_max_score, emit, figure, library, load_beir
from bench.quality import evaluate
from tests.support import pdf_build as build

CHINESE_LINE = 38  # characters a line at 12 pt across the page
ENGLISH_LINE = 80
LINES_PER_PAGE = 36
VARIANTS = {"xquad-zh": (("GBK-EUC-H", build.GBK_EUC_H), ("GBKp-EUC-H", build.GBKP_EUC_H)),
            "scifact": (("Helvetica", None),)}


def _lines(text: str, chinese: bool) -> list[str]:
    out = []
    for paragraph in text.split("\n"):
        if chinese:
            out += [paragraph[i:i + CHINESE_LINE] for i in range(0, len(paragraph), CHINESE_LINE)] or [""]
        else:
            out += textwrap.wrap(paragraph, ENGLISH_LINE) or [""]
    return out


def _pdf_folder(name: str, limit: int | None, label: str, font) -> Path:
    """One PDF per document (named by its id) under the bench cache; reused when complete."""
    beir = load_beir(name, limit)
    folder = CACHE / f"{name}-pdf-{label}{'-' + str(limit) if limit else ''}"
    done = folder / ".complete"
    if done.exists() and done.read_text() == str(len(beir.corpus)):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for doc_id, text in beir.corpus.items():
        if font is None:
            text = text.encode("cp1252", "replace").decode("cp1252")
            data = build.standard_pdf(build.paginate(_lines(text, False), LINES_PER_PAGE))
        else:
            text = text.encode(font.codec, "replace").decode(font.codec)
            data = build.predefined_pdf(build.paginate(_lines(text, True), LINES_PER_PAGE), font)
        (folder / f"{doc_id}.pdf").write_bytes(data)
    done.write_text(str(len(beir.corpus)))
    return folder


def _index(home: Path, folder: Path, old: Path | None) -> dict:
    """Index `folder` into a fresh `home` through the CLI (the old code's CLI with `old`); its JSON report."""
    import shutil

    shutil.rmtree(home, ignore_errors=True)
    if old is None:
        result = cli(home, "index", str(folder), "--json", check=False)
        stdout, seconds = result.stdout, result.seconds
    else:  # run from the old checkout, so `-m desktop_rag` imports its code, not this one's
        import subprocess
        import sys
        import time

        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "index", str(folder),
                               "--json"], env=bench_env(PYTHONPATH=str(old)), cwd=old, capture_output=True,
                              text=True, timeout=7200)
        stdout, seconds = done.stdout, time.perf_counter() - started
    lines = stdout.strip().splitlines()
    if not lines:  # the index run died before its report (the old code on GBKp-EUC-H did, 2026-12-05)
        return {"added": 0, "failed": [], "chunks": 0, "seconds": seconds, "died": True}
    report = json.loads(lines[-1])
    report["seconds"] = seconds
    return report


def _score(home: Path, name: str, limit: int | None) -> dict[str, float]:
    from desktop_rag.engine.engine import open_engine

    beir = load_beir(name, limit)
    engine = open_engine(home)
    engine.warm_up()
    try:
        return evaluate(beir, lambda text: docs_by_max_score((doc_id_of(h.path), h.score)
                                                           for h in engine.search(text, 100)))
    finally:
        engine.close()


def main(argv: list[str] | None = None) -> None:
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--old", type=Path, help="a checkout of the code before issue 36, indexed in the same run")
    args.add_argument("--scifact-docs", type=int, default=500, help="first SciFact documents (0: all 5,183)")
    args.add_argument("--datasets", default="xquad-zh,scifact")
    opts = args.parse_args(argv)
    rows = []
    for name in opts.datasets.split(","):
        limit = (opts.scifact_docs or None) if name == "scifact" else None
        text = _score(library(name, limit), name, limit)
        rows.append(figure(f"{name} text files: hybrid nDCG@10 / Recall@10",
                           f"{text['ndcg@10']:.4f} / {text['recall@10']:.4f}", note="the same documents as .txt"))
        for label, font in VARIANTS[name]:
            folder = _pdf_folder(name, limit, label, font)
            for code, old in (("new (PDFium)", None), ("old (pypdf)", opts.old)):
                if code.startswith("old") and old is None:
                    continue
                home = CACHE / f"{name}-pdf-{label}-home-{'old' if old else 'new'}"
                report = _index(home, folder, old)
                if report.get("died"):
                    rows.append(figure(f"{name} PDFs {label}, {code}", None, note="the index run printed no report"))
                    continue
                scores = _score(home, name, limit)
                delta = scores["ndcg@10"] - text["ndcg@10"]
                rows.append(figure(f"{name} PDFs {label}, {code}: hybrid nDCG@10 / Recall@10",
                                   f"{scores['ndcg@10']:.4f} / {scores['recall@10']:.4f}", "",
                                   "within 0.005 of text" if old is None else "", abs(delta) <= 0.005 if old is None
                                   else None, note=f"{delta:+.4f} vs text; {report['added']} added, "
                                                   f"{len(report['failed'])} failed, {report['chunks']} chunks, "
                                                   f"index {report['seconds']:.0f} s"))
    emit("pdf_extraction_quality", rows)


if __name__ == "__main__":
    main()
