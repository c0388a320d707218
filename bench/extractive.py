"""Extractive answers (no language model): is the first line a person reads the answer?

Every question of each set (bench/qa_sets.py: XQuAD-zh, en->zh, a bilingual library without parallel text in both
languages, XQuAD in English, CMRC 2018, the bundled samples, and unanswerable questions) is asked through
`Engine.ask` in one process, with no model configured, as the app answers a new user. Reported per set:

- ``first_gold``: the share whose FIRST bullet holds a gold answer (text, case ignored);
- ``any_gold``: the share with a gold answer in any bullet;
- ``bullets``: quoted sentences per answer;
- ``first_other``: the share whose first bullet cites a passage of another document than the gold paragraph's;
- ``refused``: the share answered "the documents do not say" (no bullet): on answerable sets the false refusals,
  on the unanswerable sets the refusals (higher is right there);
- ``retrieved_first``: the share whose best passage is the gold paragraph's (what the answer starts from);
- ``ask_ms``: the median wall time of one ask (search + answer) in this run.

``--ceiling``: given the gold paragraph alone, its sentences ranked by plain cosine with the library's model
(query/passage roles): the share whose best sentence holds the answer (the baseline issue 50 states).
``--cost``: where the sentence vectors are made, measured on the first set's library: the sentences per chunk, the
model's time per sentence (batches of 64), what storing every sentence's vector at ingest would cost (vectors, bytes,
embedding time) against embedding an answer's sentences when it is asked, and an asked-again answer (the runtime's
cache). ``--dump FILE``: one JSON line per question (question, answer, first cited document) for reading them.
Run it with another checkout's engine for the code before a change: copy this folder into it and run from there.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

from bench.common import CACHE, emit, figure
from bench import qa_sets
from bench.qa_sets import DEV_SEED, QA, SEED, QASet, build

SETS = "xquad-zh,xquad-en2zh,split-zh,split-en,xquad-en,cmrc-zh,samples,unanswerable-zh,unanswerable-en"
CITATION = re.compile(r"\[(\d+)\]")
TARGETS = {"xquad-zh": {"first_gold": 0.78, "bullets": 2.2, "first_other": 0.02}}


def _doc(path: str) -> str:
    return Path(path).stem


def ask_one(engine, qa: QA) -> dict:
    """One question through Engine.ask: the answer's bullets, the first bullet's document, the timing."""
    from desktop_rag.engine import DoneEvent, ErrorEvent, SourcesEvent

    started = time.perf_counter()
    hits, answer = [], ""
    for event in engine.ask(qa.question):
        if isinstance(event, SourcesEvent):
            hits = list(event.hits)
        elif isinstance(event, DoneEvent):
            answer = event.answer
        elif isinstance(event, ErrorEvent):
            raise RuntimeError(event.message)
    seconds = time.perf_counter() - started
    bullets = [line for line in answer.splitlines() if line.startswith("- ")]
    cited = CITATION.findall(bullets[0]) if bullets else []
    first_doc = _doc(hits[int(cited[-1]) - 1].path) if cited and 0 < int(cited[-1]) <= len(hits) else ""

    def holds(text: str) -> bool:
        return any(a.lower() in text.lower() for a in qa.answers if a)

    return {"question": qa.question, "gold": qa.gold, "answer": answer, "bullets": len(bullets),
            "first_doc": first_doc, "first_gold": bool(bullets) and holds(bullets[0]),
            "any_gold": any(holds(b) for b in bullets), "retrieved_first": bool(hits) and _doc(hits[0].path) == qa.gold,
            "seconds": seconds}


def ceiling(engine, qa_set: QASet) -> float:
    """Given the gold paragraph, the share whose sentence closest by plain cosine holds the answer."""
    from desktop_rag.engine.answer.extractive import split_sentences

    texts = {}
    for path, in engine.store.db.execute("SELECT path FROM files"):
        texts[_doc(path)] = path
    good = counted = 0
    for qa in qa_set.questions:
        path = texts.get(qa.gold)
        if path is None:
            continue
        body = Path(path).read_text(encoding="utf-8").split("\n\n", 1)[-1]  # the title line is no answer
        sentences = split_sentences(body)
        scores = engine.runtime.sentence_similarity(qa.question, sentences)
        best = sentences[max(range(len(sentences)), key=scores.__getitem__)]
        good += any(a.lower() in best.lower() for a in qa.answers if a)
        counted += 1
    return good / max(counted, 1)


def sentence_cost(qa_set: QASet) -> list[dict]:
    """Storing every sentence's vector at ingest against embedding an answer's sentences when asked (see --cost)."""
    from desktop_rag.engine.answer.sentences import split_sentences
    from desktop_rag.engine.engine import open_engine

    engine = open_engine(qa_set.home)
    engine.warm_up()
    texts = [t for t, in engine.store.db.execute("SELECT text FROM chunks")]
    sentences = [s for t in texts for s in split_sentences(t)]
    embedder, _ = engine.runtime.dense_pair()
    sample = sentences[:640]
    started = time.perf_counter()
    for i in range(0, len(sample), 64):
        embedder.embed(sample[i:i + 64])
    per_sentence = (time.perf_counter() - started) / len(sample)
    started = time.perf_counter()
    for i in range(0, len(texts[:256]), 64):
        embedder.embed(texts[i:i + 64])
    per_chunk = (time.perf_counter() - started) / len(texts[:256])
    questions = qa_set.questions[:40]
    cold = [ask_one(engine, qa)["seconds"] for qa in questions]
    again = [ask_one(engine, qa)["seconds"] for qa in questions]
    bytes_per = embedder.dimension * 4
    engine.close()
    per_chunk_sentences = len(sentences) / len(texts)
    return [
        figure("extractive.cost.sentences_per_chunk", per_chunk_sentences, "sentences",
               note=f"{len(sentences)} sentences in {len(texts)} chunks ({qa_set.name})"),
        figure("extractive.cost.ms_per_sentence", 1000 * per_sentence, "ms", note="embedded in batches of 64"),
        figure("extractive.cost.ms_per_chunk", 1000 * per_chunk, "ms", note="the chunks themselves, same batches"),
        figure("extractive.cost.stored_at_ingest", per_chunk_sentences * per_sentence / per_chunk, "x ingest embedding",
               note=f"{per_chunk_sentences * bytes_per:.0f} more bytes a chunk ({bytes_per} per vector)"),
        figure("extractive.cost.ask_ms_cold", 1000 * statistics.median(cold), "ms p50",
               note=f"{len(questions)} questions, their sentences embedded when asked"),
        figure("extractive.cost.ask_ms_again", 1000 * statistics.median(again), "ms p50",
               note="the same questions again: search and sentence vectors from memory"),
    ]


def rows_for(qa_set: QASet, with_ceiling: bool, dump) -> list[dict]:
    from desktop_rag.engine.engine import open_engine

    engine = open_engine(qa_set.home)
    engine.warm_up()
    results = [ask_one(engine, qa) for qa in qa_set.questions]
    n = len(results)
    share = lambda key: sum(bool(r[key]) for r in results) / n  # noqa: E731
    refused = sum(r["bullets"] == 0 for r in results) / n
    other = sum(bool(r["first_doc"]) and r["first_doc"] != r["gold"] for r in results) / n
    bullets = statistics.fmean(r["bullets"] for r in results)
    name = qa_set.name
    note = f"{n} questions ({f'dev, seed {DEV_SEED}' if qa_sets.dev else f'seed {SEED}'}), {engine.index_model}"
    targets = TARGETS.get(name, {})
    rows = []
    if qa_set.answerable:
        first = share("first_gold")
        rows += [
            figure(f"extractive.{name}.first_gold", first, "share", _target(targets, "first_gold", ">="),
                   first >= targets["first_gold"] if "first_gold" in targets else None, note=note),
            figure(f"extractive.{name}.any_gold", share("any_gold"), "share"),
            figure(f"extractive.{name}.first_other", other, "share", _target(targets, "first_other", "<="),
                   other <= targets["first_other"] if "first_other" in targets else None),
            figure(f"extractive.{name}.retrieved_first", share("retrieved_first"), "share"),
            figure(f"extractive.{name}.refused", refused, "share", note="false refusals"),
        ]
        if with_ceiling and name != "samples":
            rows.append(figure(f"extractive.{name}.ceiling", ceiling(engine, qa_set), "share",
                               note="gold paragraph given, its sentences by plain cosine"))
    else:
        rows.append(figure(f"extractive.{name}.refused", refused, "share", note=note))
    rows += [figure(f"extractive.{name}.bullets", bullets, "per answer", _target(targets, "bullets", "<="),
                    bullets <= targets["bullets"] if "bullets" in targets else None),
             figure(f"extractive.{name}.ask_ms", 1000 * statistics.median(r["seconds"] for r in results), "ms p50")]
    if name == "samples":
        rows += [figure(f"extractive.samples.{i}", f"{r['first_doc'] or '(refused)'} | {r['answer'].splitlines()[0][:90]}",
                        note=r["question"]) for i, r in enumerate(results)]
    if dump is not None:
        for r in results:
            dump.write(json.dumps({"set": name, **r}, ensure_ascii=False) + "\n")
    engine.close()
    return rows


def _target(targets: dict, key: str, op: str) -> str:
    return f"{op} {targets[key]}" if key in targets else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default=SETS)
    parser.add_argument("--limit", type=int, default=150, help="questions sampled per set (seed %d)" % SEED)
    parser.add_argument("--xquad-en", type=Path, default=CACHE / "xquad.en.json",
                        help="xquad.en.json from github.com/google-deepmind/xquad (default: in the bench cache)")
    parser.add_argument("--cmrc", type=Path, default=CACHE / "cmrc2018_dev.json",
                        help="squad-style-data/cmrc2018_dev.json from github.com/ymcui/cmrc2018 (default: bench cache)")
    parser.add_argument("--ceiling", action="store_true", help="also the plain-cosine baseline on the gold paragraph")
    parser.add_argument("--dump", type=Path, help="write each question's answer as a JSON line here")
    parser.add_argument("--cost", action="store_true", help="also where sentence vectors are made (see above)")
    parser.add_argument("--dev", type=int, nargs="?", const=150, default=0, metavar="N",
                        help="N tuning questions a set (default 150), drawn (seed %d) from those the reported sample "
                             "(--limit) leaves out" % DEV_SEED)
    args = parser.parse_args(argv)
    qa_sets.dev = args.dev
    sets = build(args.sets.split(","), args.limit, args.xquad_en, args.cmrc)
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    try:
        rows = [row for qa_set in sets for row in rows_for(qa_set, args.ceiling, dump)]
        emit("extractive", rows + (sentence_cost(sets[0]) if args.cost else []))
    finally:
        if dump is not None:
            dump.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
