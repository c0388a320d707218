"""Ingest, re-scan and peak-memory figures: `desktop-rag index` of the SciFact folder vs embedding alone; and
(`--edit`) one paragraph of a big file edited and indexed again."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from bench.common import CACHE, HASH_MODEL, build_folder, cli, emit, figure, load_beir, probe_output, run

BUNDLED = "bundled:all-MiniLM-L6-v2"


def bench_ingest(folder: Path, home: Path, model: str | None, batch_size: int, baseline: bool = True) -> list[dict]:
    """Fresh index of `folder`, then the same chunk texts embedded alone in another process (same run)."""
    shutil.rmtree(home, ignore_errors=True)
    ingest = cli(home, "index", str(folder), "--json", model=model)
    report = json.loads(ingest.stdout)
    files, chunks = report["added"], report["chunks"]
    peak = figure("ingest.peak_rss", ingest.peak_rss_mb, "MB", "<= 1024", ingest.peak_rss_mb <= 1024,
                  note="ru_maxrss of the index process (wait4)")
    if not baseline:
        return [figure("ingest.wall", ingest.seconds, "s",
                       note=f"{files} files, {chunks} chunks, embedded {report['embedded']}"),
                figure("ingest.chunks_per_s", chunks / ingest.seconds, "chunks/s"),
                figure("ingest.cpu_s", ingest.cpu_seconds, "s", note="user+sys CPU of the index process"),
                figure("ingest.cpu_ms_per_chunk", 1000 * ingest.cpu_seconds / max(chunks, 1), "ms"), peak]
    base = run([sys.executable, "-m", "bench.embed_only", str(home / "library.sqlite3"),
                "--model", model or BUNDLED, "--batch-size", str(batch_size)])
    if base.returncode != 0:
        raise RuntimeError(base.stderr[-2000:])
    embed = json.loads(base.stdout)
    ratio = ingest.seconds / base.seconds
    return [
        figure("ingest.wall", ingest.seconds, "s",
               note=f"{files} files, {chunks} chunks, embedded {report['embedded']}"),
        figure("ingest.files_per_s", files / ingest.seconds, "files/s"),
        figure("ingest.chunks_per_s", chunks / ingest.seconds, "chunks/s"),
        figure("embed_only.wall", base.seconds, "s",
               note=f"process incl. model load {embed['load_s']:.1f} s; encode {embed['embed_s']:.1f} s"),
        figure("ingest.ratio_to_embed_only", ratio, "x", "<= 1.10", ratio <= 1.10,
               note=f"vs encode alone: {ingest.seconds / max(embed['embed_s'], 1e-9):.2f}x"),
        figure("ingest.cpu_ratio_to_embed_only", ingest.cpu_seconds / max(base.cpu_seconds, 1e-9), "x",
               note=f"user+sys CPU {ingest.cpu_seconds:.0f} s vs {base.cpu_seconds:.0f} s (robust to a busy machine)"),
        peak,
        figure("embed_only.peak_rss", base.peak_rss_mb, "MB"),
    ]


def bench_rescan(folder: Path, home: Path, model: str | None) -> list[dict]:
    """Unchanged re-scan (must not import torch), then one modified file (only it is re-embedded)."""
    rescan = cli(home, "index", "--json", model=model, probe=True)
    report, torch = probe_output(rescan)
    rows = [
        figure("rescan.wall", rescan.seconds, "s", "<= 1.5", rescan.seconds <= 1.5 and not torch,
               note=f"{report['unchanged']} unchanged, torch imported: {torch}"),
    ]
    target = sorted(folder.glob("*.txt"))[0]
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(original + "\n\nAn added sentence about benchmark zeppelins.", encoding="utf-8")
        changed = cli(home, "index", "--json", model=model)
    finally:
        target.write_text(original, encoding="utf-8")
    report = json.loads(changed.stdout)
    rows.append(figure("rescan_one_modified.wall", changed.seconds, "s",
                       note=f"updated {report['updated']}, embedded {report['embedded']} chunks, "
                            f"unchanged {report['unchanged']} (includes model load)"))
    cli(home, "index", "--json", model=model)  # put the file back as it was in the library too
    return rows


def bench_edit(home: Path, model: str | None, sections: int) -> list[dict]:
    """One big Markdown file (the first `sections` SciFact abstracts, each under its title as a heading) indexed,
    then one paragraph in its middle edited and the file indexed again: the re-index's wall (a CLI process: start-up,
    reading, chunking and model load included) and the chunks it embedded."""
    texts = list(load_beir("scifact", sections).corpus.values())
    folder = CACHE / f"edit-{sections}"
    folder.mkdir(parents=True, exist_ok=True)
    doc = folder / "big.md"
    parts = [f"## {text}" for text in texts]  # "title\n\nabstract": the title a heading
    doc.write_text("\n\n".join(parts), encoding="utf-8")
    shutil.rmtree(home, ignore_errors=True)
    first = cli(home, "index", str(folder), "--json", model=model)
    before = json.loads(first.stdout)
    parts[len(parts) // 2] += " An added sentence about benchmark zeppelins."
    doc.write_text("\n\n".join(parts), encoding="utf-8")
    again = cli(home, "index", "--json", model=model)
    after = json.loads(again.stdout)
    return [
        figure("edit.first_index.wall", first.seconds, "s",
               note=f"{doc.stat().st_size // 1024} KB, {before['chunks']} chunks, embedded {before['embedded']}"),
        figure("edit.reindex.wall", again.seconds, "s", note=f"updated {after['updated']}, {after['chunks']} chunks "
                                                            "(process start and model load included)"),
        figure("edit.reindex.embedded", after["embedded"], "chunks"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tiny", action="store_true", help="30 documents and the hash embedder (smoke test)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N SciFact documents")
    parser.add_argument("--batch-size", type=int, default=64, help="the engine's embed_batch_size setting")
    parser.add_argument("--ingest-only", action="store_true",
                        help="only the fresh index (no embed-only baseline, no re-scan): wall, CPU time, peak RSS")
    parser.add_argument("--edit", action="store_true",
                        help="only one paragraph of a big file edited and indexed again (--sections N, default 300)")
    parser.add_argument("--sections", type=int, default=300, help="the big file's sections (SciFact abstracts)")
    args = parser.parse_args(argv)
    limit = 30 if args.tiny else args.limit
    model = HASH_MODEL if args.tiny else None
    if args.edit:
        emit("ingest", bench_edit(CACHE / "edit-home", model, 30 if args.tiny else args.sections))
        return 0
    folder = build_folder("scifact", limit)
    home = CACHE / f"scifact-home{'-' + str(limit) if limit else ''}{'-hash' if model else ''}"
    if args.ingest_only:
        emit("ingest", bench_ingest(folder, home, model, args.batch_size, baseline=False))
        return 0
    rows = bench_ingest(folder, home, model, args.batch_size) + bench_rescan(folder, home, model)
    (home / ".bench-complete").write_text("ok")  # later benches reuse this library
    emit("ingest", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
