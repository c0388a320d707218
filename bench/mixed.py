"""A bilingual library: XQuAD's parallel paragraphs in English AND Chinese side by side, every question relevant
to both versions. Reports, per question language, Recall@10 of the same-language and of the other-language
version and nDCG@10 (two relevant passages), plus Chinese questions over the English paragraphs alone (zh->en).

The Chinese paragraphs are ../shared/data/xquad-zh; the English ones come from XQuAD's public release
(google-deepmind/xquad, xquad.en.json, CC BY-SA 4.0), given with --xquad-en and written to the bench cache
(never into the repository). Paragraphs are matched through the question ids both files share.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from bench.common import CACHE, DATA, emit, figure, indexed, load_beir, model_label, ndcg_at

MODELS = {"auto": None, "e5": "bundled:multilingual-e5-small", "minilm": "bundled:all-MiniLM-L6-v2"}
TARGETS = {"other_recall@10": 0.85, "zh2en.ndcg@10": 0.88}


def english_paragraphs(xquad_en: Path) -> dict[str, str]:
    """XQuAD-zh doc id -> the same paragraph in English (title, blank line, text: as the Chinese corpus)."""
    context_of = {}
    with open(DATA / "xquad-zh" / "qa.jsonl", encoding="utf-8") as fh:
        for d in map(json.loads, fh):
            context_of[d["id"]] = d["context_id"]
    out = {}
    for article in json.loads(xquad_en.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            ids = {context_of[q["id"]] for q in paragraph["qas"] if q["id"] in context_of}
            if len(ids) == 1:
                out[ids.pop()] = f"{article['title']}\n\n{paragraph['context']}"
    return out


def build_folders(xquad_en: Path) -> Path:
    """CACHE/xquad-mixed-docs/{zh,en}/<doc id>.txt (reused when complete)."""
    folder = CACHE / "xquad-mixed-docs"
    done = folder / ".complete"
    if done.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    english = english_paragraphs(xquad_en)
    chinese = load_beir("xquad-zh").corpus
    missing = chinese.keys() - english.keys()
    if missing:
        raise SystemExit(f"{len(missing)} Chinese paragraphs have no English version in {xquad_en}")
    for language, corpus in (("zh", chinese), ("en", english)):
        (folder / language).mkdir(parents=True)
        for doc_id, text in corpus.items():
            (folder / language / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    done.write_text(str(len(chinese)))
    return folder


def ranked_versions(engine, question: str) -> list[str]:
    """"zh/<id>" / "en/<id>" documents ranked by their best passage among Engine.search's top 100."""
    best: dict[str, float] = {}
    for hit in engine.search(question, 100):
        doc = f"{Path(hit.path).parent.name}/{Path(hit.path).stem}"
        best[doc] = max(best.get(doc, float("-inf")), hit.score)
    return sorted(best, key=best.__getitem__, reverse=True)


def score(engine, queries: dict[str, str], qrels: dict[str, set[str]], asked: str, versions: tuple[str, ...]):
    """Mean nDCG@10 and Recall@10 of each language version (and how often the asked language's is first)."""
    totals = {"ndcg@10": 0.0, "first_same": 0.0, **{f"{v}_recall@10": 0.0 for v in versions}}
    for qid, text in queries.items():
        doc = next(iter(qrels[qid]))
        ranked = ranked_versions(engine, text)[:10]
        relevant = {f"{v}/{doc}" for v in versions}
        totals["ndcg@10"] += ndcg_at(ranked, relevant, 10)
        totals["first_same"] += bool(ranked) and ranked[0] == f"{asked}/{doc}"
        for v in versions:
            totals[f"{v}_recall@10"] += f"{v}/{doc}" in ranked
    return {k: v / len(queries) for k, v in totals.items()}


def bench(xquad_en: Path, model: str | None) -> list[dict]:
    from desktop_rag.engine.engine import open_engine

    folder = build_folders(xquad_en)
    label = model_label(model)
    sets = {"en": load_beir("xquad-en2zh"), "zh": load_beir("xquad-zh")}
    rows = []
    mixed = open_engine(indexed(CACHE / f"xquad-mixed-home-{label}", folder, model))
    for asked, beir in sets.items():
        other = "zh" if asked == "en" else "en"
        s = score(mixed, beir.queries, beir.qrels, asked, (asked, other))
        name = f"mixed.{asked}_questions"
        rows += [figure(f"{name}.ndcg@10", s["ndcg@10"], note=f"{len(beir.queries)} questions; model {mixed.index_model}"),
                 figure(f"{name}.same_language_recall@10", s[f"{asked}_recall@10"]),
                 figure(f"{name}.other_language_recall@10", s[f"{other}_recall@10"], "",
                        f">= {TARGETS['other_recall@10']}", s[f"{other}_recall@10"] >= TARGETS["other_recall@10"]),
                 figure(f"{name}.same_language_first", s["first_same"])]
    mixed.close()
    # Chinese questions over the English paragraphs alone; e5 for `auto`, which would give an English library MiniLM
    zh2en_model = model or MODELS["e5"]
    english = open_engine(indexed(CACHE / f"xquad-en-home-{model_label(zh2en_model)}", folder / "en", zh2en_model))
    s = score(english, sets["zh"].queries, sets["zh"].qrels, "zh", ("en",))
    rows += [figure("zh2en.ndcg@10", s["ndcg@10"], "", f">= {TARGETS['zh2en.ndcg@10']}",
                    s["ndcg@10"] >= TARGETS["zh2en.ndcg@10"], note=f"model {english.index_model}"),
             figure("zh2en.recall@10", s["en_recall@10"])]
    english.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--xquad-en", type=Path, default=CACHE / "xquad.en.json",
                        help="xquad.en.json from github.com/google-deepmind/xquad (default: in the bench cache)")
    parser.add_argument("--models", default="auto", help=f"comma-separated: {', '.join(MODELS)}")
    args = parser.parse_args(argv)
    rows = []
    for label in args.models.split(","):
        rows += bench(args.xquad_en, MODELS[label])
    emit("mixed", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
