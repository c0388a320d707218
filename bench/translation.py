"""Cross-lingual search with a language model, through an ORACLE translator: a loopback chat-completions
server that answers each translation request with the parallel XQuAD question (the human translation).

It shows what the translation path adds when translation is good; a real model translates worse.
"""

from __future__ import annotations

import argparse
import json

from bench.common import DATA, HASH_MODEL, docs_by_max_score, doc_id_of, emit, figure, library, load_beir
from bench.quality import MODELS, evaluate


def parallel_questions(source: str, target: str) -> dict[str, str]:
    """Question text in `source` set -> the same question (same id) in `target` set."""
    def read(name: str) -> dict[str, str]:
        with open(DATA / name / "queries.jsonl", encoding="utf-8") as fh:
            return {d["_id"]: d["text"] for d in map(json.loads, fh)}
    src, dst = read(source), read(target)
    return {text: dst[qid] for qid, text in src.items() if qid in dst}


def bench(name: str, parallel: str, model: str | None, limit: int | None) -> list[dict]:
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine
    from tests.support.openai_server import run_openai_server

    home = library(name, limit, model)
    beir = load_beir(name, limit)
    oracle = parallel_questions(name, parallel)
    rows = []
    with run_openai_server() as server:
        server.reply_for = lambda body: oracle.get(body["messages"][-1]["content"]) if not body.get("stream") else None
        for translate in (False, True):
            settings = Settings(llm_base_url=server.base_url, llm_model="fake-model", translate_queries=translate,
                                **({"embedding_model": model} if model else {}))
            engine = Engine(resolve_paths(home), settings)

            def hybrid(text: str) -> list[str]:
                return docs_by_max_score((doc_id_of(h.path), h.score) for h in engine.search(text, 100))

            scores = evaluate(beir, hybrid)
            calls = sum(1 for r in server.chat_requests() if not r.body.get("stream"))
            label = f"{name}.{'oracle_translation' if translate else 'no_translation'}"
            rows.append(figure(f"{label}.ndcg@10", scores["ndcg@10"],
                               note=f"{len(beir.queries)} queries; {calls} translation calls so far; model "
                                    f"{engine.index_model}" + ("; ORACLE translator (the parallel question)"
                                                              if translate else "")))
            rows.append(figure(f"{label}.recall@10", scores["recall@10"]))
            engine.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tiny", action="store_true", help="30 documents and the hash embedder")
    parser.add_argument("--models", default="auto", help=f"comma-separated: {', '.join(MODELS)}")
    args = parser.parse_args(argv)
    rows = []
    for label in args.models.split(","):
        limit, model = (30, HASH_MODEL) if args.tiny else (None, MODELS[label])
        rows += bench("xquad-en2zh", "xquad-zh", model, limit)
    emit("translation", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
