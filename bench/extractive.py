"""Extractive answers (no language model) on XQuAD: is the gold answer quoted, and how many sentences are.

For each question the shipped search's top-k passages (the default `top_k`) are answered by
`answer.extractive.extractive_answer` with the library's model as the sentence similarity, as the app answers with no
model configured. Reported per set: the share of questions whose gold answer text (qa.jsonl, case ignored) is in
the answer, and the mean number of quoted sentences (bullets). `--margins` answers the same hits once per
`MEANING_MARGIN` (the cross-language sentence cut), so the comparison is within one run; run it with another
checkout on PYTHONPATH for the code before a change.
"""

from __future__ import annotations

import argparse
import json

from bench.common import DATA, emit, figure, library

SETS = {"xquad-zh": "xquad-zh", "xquad-en2zh": "xquad-zh"}


def questions(name: str, limit: int) -> list[tuple[str, list[str]]]:
    with open(DATA / name / "qa.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh][:limit]
    return [(r["question"], r["answers"]) for r in rows]


def rows_for(name: str, limit: int, margins: list[float | None]) -> list[dict]:
    from desktop_rag.engine.answer import extractive
    from desktop_rag.engine.engine import open_engine

    engine = open_engine(library(SETS[name]))
    engine.warm_up()
    memo: dict[tuple[str, tuple[str, ...]], list[float]] = {}

    def similarity(question: str, sentences: list[str]) -> list[float]:  # the same scores for every margin
        key = (question, tuple(sentences))
        if key not in memo:
            memo[key] = engine.runtime.sentence_similarity(question, sentences)
        return memo[key]

    asked = [(q, answers, engine.search(q, engine.settings.top_k)) for q, answers in questions(name, limit)]
    rows = []
    for margin in margins:
        label = "shipped" if margin is None else f"margin_{margin}"
        if margin is not None:
            extractive.MEANING_MARGIN = margin
        gold = bullets = 0
        for question, answers, hits in asked:
            text = extractive.extractive_answer(question, list(hits), similarity=similarity)
            gold += any(a.lower() in text.lower() for a in answers)
            bullets += sum(line.startswith("- ") for line in text.splitlines())
        rows.append(figure(f"extractive.{name}.gold_quoted.{label}", gold / len(asked), "share",
                           note=f"{gold}/{len(asked)} questions, {engine.index_model}, {label}"))
        rows.append(figure(f"extractive.{name}.sentences.{label}", bullets / len(asked), "per answer", note=label))
    engine.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="xquad-zh,xquad-en2zh")
    parser.add_argument("--limit", type=int, default=1190, help="questions per set")
    parser.add_argument("--margins", default="", help="comma-separated MEANING_MARGIN values (default: as shipped)")
    args = parser.parse_args(argv)
    margins: list[float | None] = [float(m) for m in args.margins.split(",") if m] or [None]
    emit("extractive", [row for name in args.sets.split(",") for row in rows_for(name, args.limit, margins)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
