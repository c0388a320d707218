"""Context compression on XQuAD (Chinese passages; Chinese and English questions) and SciFact: tokens and retention.

For each question the shipped search's top 5 passages are compressed as an answer would send them
(`Engine.compress_passages`, mode "always"). Tokens: `models.tokens` (BERT WordPiece of the bundled MiniLM,
`tokenizers`). Retention: among the questions whose gold answer text (qa.jsonl; whitespace and case ignored)
is in the uncompressed passages, the share whose answer is still in the text sent. SciFact has no gold answers:
tokens only.
"""

from __future__ import annotations

import argparse
import json

from bench.common import DATA, emit, figure, library

SETS = {"xquad-zh": "xquad-zh", "xquad-en2zh": "xquad-zh", "scifact": "scifact"}


def _flat(text: str) -> str:
    return "".join(text.split()).lower()


def items(name: str, limit: int) -> list[tuple[str, list[str]]]:
    path = DATA / name / ("qa.jsonl" if name != "scifact" else "queries.jsonl")
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh][:limit]
    return [(r["question"], r["answers"]) if "question" in r else (r["text"], []) for r in rows]


def rows_for(name: str, limit: int, docs: int | None, mode: str) -> list[dict]:
    from desktop_rag.engine.answer.compression import sent_text
    from desktop_rag.engine.engine import open_engine
    from desktop_rag.engine.models.tokens import count_tokens

    engine = open_engine(library(SETS[name], docs if name == "scifact" else None))
    engine.settings = engine.settings.replace(context_compression=mode)
    engine.warm_up()
    before = after = had = kept = 0
    questions = items(name, limit)
    for question, answers in questions:
        hits = engine.search(question, 5)
        sent = engine.runtime.compress_passages(question, hits)
        whole, short = "\n\n".join(h.text for h in hits), "\n\n".join(sent_text(h) for h in sent)
        before += count_tokens(whole)
        after += count_tokens(short)
        gold = [_flat(a) for a in answers]
        if gold and any(a in _flat(whole) for a in gold):
            had += 1
            kept += any(a in _flat(short) for a in gold)
    model = engine.index_model
    engine.close()
    saved = 1 - after / max(before, 1)
    rows = [figure(f"compression.{name}.tokens_saved", saved, "share", ">= 0.40", saved >= 0.40,
                   note=f"{len(questions)} questions, top 5, {before} -> {after} tokens, {model}, mode {mode}")]
    if had:
        retention = kept / had
        rows.append(figure(f"compression.{name}.retention", retention, "share", ">= 0.97", retention >= 0.97,
                           note=f"{kept}/{had} gold answers still sent"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="xquad-zh,xquad-en2zh,scifact")
    parser.add_argument("--limit", type=int, default=1190, help="questions per set")
    parser.add_argument("--scifact-docs", type=int, default=1000, help="SciFact documents in its library")
    parser.add_argument("--mode", default="always", choices=("auto", "always"))
    args = parser.parse_args(argv)
    emit("compression", [row for name in args.sets.split(",")
                         for row in rows_for(name, args.limit, args.scifact_docs, args.mode)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
