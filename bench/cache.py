"""Repeated questions: search cold vs warm (the result cache) in one process, and the GUI's second ask.

Search: each question of a set is searched twice in one engine (k = 5): the first time runs the query embedding
and the hybrid search, the second is served by the result cache; the p50 of each is reported. The GUI figures
come from tests/gui/test_answer_cache_gui.py (-s), which asks one question twice against the local
chat-completions server: time from Send to the first source in the panel and to the cached answer.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from bench.common import DATA, bench_env, emit, figure, library, percentile, run

GUI_TEST = "tests/gui/test_answer_cache_gui.py"
SETS = {"xquad-zh": "xquad-zh", "xquad-en2zh": "xquad-zh", "scifact": "scifact"}


def questions(name: str, limit: int) -> list[str]:
    with open(DATA / name / "queries.jsonl", encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh][:limit]


def search_rows(name: str, limit: int, docs: int | None) -> list[dict]:
    from desktop_rag.engine.engine import open_engine

    engine = open_engine(library(SETS[name], docs if name == "scifact" else None))
    engine.warm_up()
    cold, warm = [], []
    for text in questions(name, limit):
        for times in (cold, warm):
            started = time.perf_counter()
            engine.search(text, 5)
            times.append((time.perf_counter() - started) * 1000)
    model = engine.index_model
    engine.close()
    note = f"{len(cold)} questions, k=5, {model}"
    return [figure(f"cache.{name}.search.cold.p50", percentile(cold, 50), "ms", note=note),
            figure(f"cache.{name}.search.warm.p50", percentile(warm, 50), "ms", "<= 2", percentile(warm, 50) <= 2,
                   note=f"the same questions again (result cache); p95 {percentile(warm, 95):.3f} ms")]


def gui_rows() -> list[dict]:
    result = run([sys.executable, "-m", "pytest", GUI_TEST, "-s", "-q", "-p", "no:cacheprovider"],
                 env=bench_env(QT_QPA_PLATFORM="offscreen"), timeout=900)
    found = re.search(r"first ask ([\d.]+) ms to first source, ([\d.]+) ms to the answer; second ask ([\d.]+) ms "
                      r"to first source, ([\d.]+) ms to the cached answer", result.stdout)
    if not found:
        return [figure("cache.gui.second_ask", None, "ms", "<= 100", None,
                       note=f"{GUI_TEST} printed no figure (exit {result.returncode}): {result.stdout[-200:]!r}")]
    first_source, first_answer, source, answer = map(float, found.groups())
    note = f"{GUI_TEST}, local chat-completions server, hash embedder"
    return [figure("cache.gui.first_ask.first_source", first_source, "ms", note=note),
            figure("cache.gui.first_ask.answer", first_answer, "ms", note="streamed by the model"),
            figure("cache.gui.second_ask.first_source", source, "ms", "<= 100", source <= 100, note=note),
            figure("cache.gui.second_ask.cached_answer", answer, "ms", "<= 100", answer <= 100,
                   note="answer-cache hit on screen")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="xquad-zh,xquad-en2zh,scifact")
    parser.add_argument("--limit", type=int, default=200, help="questions per set")
    parser.add_argument("--scifact-docs", type=int, default=1000, help="SciFact documents in its library")
    parser.add_argument("--no-gui", action="store_true")
    args = parser.parse_args(argv)
    rows = [row for name in args.sets.split(",") for row in search_rows(name, args.limit, args.scifact_docs)]
    if not args.no_gui:
        rows += gui_rows()
    emit("cache", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
