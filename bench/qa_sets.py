"""Question sets with gold answers and gold paragraphs for the extractive-answer bench (bench/extractive.py).

Each set is a library (a data dir indexed through the CLI, cached under the bench cache, never in the repository)
and questions sampled with a stated seed. The sets:

- ``xquad-zh`` / ``xquad-en2zh``: ../shared/data (Chinese and English questions over the Chinese paragraphs).
- ``split-zh`` / ``split-en``: a bilingual library without parallel text: each of XQuAD's 240 paragraphs kept in
  ONE language (English or Chinese, half each, by the seed), asked in Chinese and in English; the gold answer is
  the kept paragraph's (XQuAD's English file, github.com/google-deepmind/xquad, CC BY-SA 4.0, for the English).
- ``xquad-en``: XQuAD's English questions over its English paragraphs (an English library: "auto" picks MiniLM).
- ``cmrc-zh``: CMRC 2018's dev set (github.com/ymcui/cmrc2018, squad-style-data/cmrc2018_dev.json, CC BY-SA 4.0):
  848 Chinese Wikipedia paragraphs, 3,219 questions.
- ``samples``: the bundled samples (resources/samples) and the questions a newcomer asks of them.
- ``unanswerable-zh`` / ``unanswerable-en``: questions about XQuAD articles held out of the library (the Chinese
  paragraphs of the other articles): nothing there answers them, so the right answer is to say so.

The fetched files are read from the bench cache (``xquad.en.json``, ``cmrc2018_dev.json``); bench/README.md says
how to put them there.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

from bench.common import CACHE, DATA, REPO, indexed, library, load_beir

SEED = 50  # the number: every sample of every set is drawn with random.Random(SEED)
HELD_OUT_ARTICLES = 8  # XQuAD articles (5 paragraphs each) left out of the unanswerable sets' library


@dataclass(frozen=True)
class QA:
    question: str
    answers: tuple[str, ...]  # any of them, case ignored, in a bullet counts as the answer
    gold: str  # the gold paragraph's document (a file name without its suffix); "" for an unanswerable question


@dataclass(frozen=True)
class QASet:
    name: str
    home: Path  # the library's data dir
    questions: list[QA]
    answerable: bool = True


DEV_SEED = 7  # `--dev`: questions drawn with this seed from those the SEED sample left out (for tuning)
dev = 0  # bench.extractive --dev N sets it: N tuning questions a set, never from the reported sample


def _sample(rows: list, n: int) -> list:
    """The reported sample: `n` rows drawn with SEED (a set no larger is used whole); with `dev`, that many rows
    drawn with DEV_SEED from those the reported sample leaves out instead."""
    if len(rows) <= n:
        return rows
    picked = random.Random(SEED).sample(range(len(rows)), n)
    if not dev:
        return [rows[i] for i in picked]
    rest = sorted(set(range(len(rows))) - set(picked))
    return [rows[i] for i in random.Random(DEV_SEED).sample(rest, min(dev, len(rest)))]


def _qa_rows(name: str) -> list[dict]:
    with open(DATA / name / "qa.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _english_xquad(path: Path) -> tuple[dict[str, str], dict[str, list[str]], dict[str, str]]:
    """XQuAD's English file: doc id -> "title\\n\\nparagraph", question id -> English answers, question id ->
    English question (doc ids are XQuAD-zh's, matched through the question ids both releases share)."""
    context_of = {r["id"]: r["context_id"] for r in _qa_rows("xquad-zh")}
    paragraphs: dict[str, str] = {}
    answers: dict[str, list[str]] = {}
    questions: dict[str, str] = {}
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answers[qa["id"]] = [a["text"] for a in qa["answers"]]
                questions[qa["id"]] = qa["question"]
                if qa["id"] in context_of:
                    paragraphs[context_of[qa["id"]]] = f"{article['title']}\n\n{paragraph['context']}"
    return paragraphs, answers, questions


def _write_folder(folder: Path, files: dict[str, str]) -> Path:
    """`folder` holding one file per (relative name -> text), rebuilt unless complete with the same files."""
    done = folder / ".complete"
    stamp = json.dumps(sorted(files), ensure_ascii=False)
    if done.exists() and done.read_text(encoding="utf-8") == stamp:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    done.write_text(stamp, encoding="utf-8")  # hidden: the scanner skips it
    return folder


def xquad(name: str, n: int) -> QASet:
    rows = _sample(_qa_rows(name), n)
    return QASet(name, library(name), [QA(r["question"], tuple(r["answers"]), r["context_id"]) for r in rows])


def split_bilingual(language: str, n: int, xquad_en: Path) -> QASet:
    """The bilingual library without parallel text, asked in `language` ("zh" or "en")."""
    english, english_answers, _ = _english_xquad(xquad_en)
    chinese = load_beir("xquad-zh").corpus
    ids = sorted(chinese)
    kept_english = set(random.Random(SEED).sample(ids, len(ids) // 2))
    files = {f"{'en' if d in kept_english else 'zh'}/{d}.txt": english[d] if d in kept_english else chinese[d]
             for d in ids}
    home = indexed(CACHE / "xquad-split-home-auto", _write_folder(CACHE / "xquad-split-docs", files))
    rows = _sample(_qa_rows("xquad-zh" if language == "zh" else "xquad-en2zh"), n)
    questions = []
    for r in rows:
        # the kept paragraph's language decides which answer text can be quoted; both count
        answers = tuple(r["answers"]) + tuple(english_answers.get(r["id"], ()))
        questions.append(QA(r["question"], answers, r["context_id"]))
    return QASet(f"split-{language}", home, questions)


def xquad_english(n: int, xquad_en: Path) -> QASet:
    english, english_answers, english_questions = _english_xquad(xquad_en)
    folder = _write_folder(CACHE / "xquad-en-docs-flat", {f"{d}.txt": text for d, text in english.items()})
    home = indexed(CACHE / "xquad-en-home-auto", folder)
    rows = _sample(_qa_rows("xquad-zh"), n)
    return QASet("xquad-en", home, [QA(english_questions[r["id"]], tuple(english_answers[r["id"]]), r["context_id"])
                                    for r in rows])


def cmrc(n: int, path: Path) -> QASet:
    files: dict[str, str] = {}
    rows: list[QA] = []
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            doc = paragraph["id"] if "id" in paragraph else article["id"]
            files[f"{doc}.txt"] = f"{article.get('title', '')}\n\n{paragraph['context']}".strip()
            rows += [QA(qa["question"], tuple(dict.fromkeys(a["text"] for a in qa["answers"])), doc)
                     for qa in paragraph["qas"]]
    home = indexed(CACHE / "cmrc-dev-home-auto", _write_folder(CACHE / "cmrc-dev-docs", files))
    return QASet("cmrc-zh", home, _sample(rows, n))


# The bundled samples: (question, the file that answers it, words the answer must hold)
SAMPLE_QUESTIONS = (
    ("绿茶用多少度的水？", "绿茶冲泡指南", ("八十度",)),
    ("泡龙井用什么温度的水？", "绿茶冲泡指南", ("八十度",)),
    ("绿茶要用多少度的水泡？", "绿茶冲泡指南", ("八十度",)),
    ("绿茶的水温应该是多少？", "绿茶冲泡指南", ("八十度",)),
    ("How hot should the water be when making green tea?", "绿茶冲泡指南", ("八十度",)),
    ("一杯绿茶放多少茶叶？", "绿茶冲泡指南", ("三克",)),
    ("绿茶怎么保存？", "绿茶冲泡指南", ("密封",)),
    ("What water temperature is best for brewing coffee?", "coffee-brewing-guide", ("90 and 96",)),
    ("How long does a French press steep?", "coffee-brewing-guide", ("four minutes",)),
    ("How much coffee per gram of water?", "coffee-brewing-guide", ("sixteen grams",)),
    ("新办公室在哪里？", "办公室搬迁通知", ("三号楼",)),
    ("什么时候搬迁？", "办公室搬迁通知", ("十五日",)),
    ("有问题找谁？", "办公室搬迁通知", ("王老师",)),
    ("How do I add documents to the library?", "getting-started", ("folder",)),
)


def samples() -> QASet:
    home = indexed(CACHE / "samples-home-auto", REPO / "resources" / "samples")
    return QASet("samples", home, [QA(q, a, doc) for q, doc, a in SAMPLE_QUESTIONS])


def unanswerable(language: str, n: int) -> QASet:
    """Questions about XQuAD articles held out of the library: the Chinese paragraphs of the other 40 articles."""
    rows = [json.loads(line) for line in open(DATA / "xquad-zh" / "corpus.jsonl", encoding="utf-8")]
    titles = sorted({r["title"] for r in rows})
    held = set(random.Random(SEED).sample(titles, HELD_OUT_ARTICLES))
    files = {f"{r['_id']}.txt": f"{r['title']}\n\n{r['text']}" for r in rows if r["title"] not in held}
    home = indexed(CACHE / "xquad-heldout-home-auto", _write_folder(CACHE / "xquad-heldout-docs", files))
    held_docs = {r["_id"] for r in rows if r["title"] in held}
    asked = [r for r in _qa_rows("xquad-zh" if language == "zh" else "xquad-en2zh") if r["context_id"] in held_docs]
    return QASet(f"unanswerable-{language}", home, [QA(r["question"], tuple(r["answers"]), "")
                                                    for r in _sample(asked, n)], answerable=False)


def build(names: list[str], n: int, xquad_en: Path, cmrc_dev: Path) -> list[QASet]:
    makers = {
        "xquad-zh": lambda: xquad("xquad-zh", n), "xquad-en2zh": lambda: xquad("xquad-en2zh", n),
        "split-zh": lambda: split_bilingual("zh", n, xquad_en), "split-en": lambda: split_bilingual("en", n, xquad_en),
        "xquad-en": lambda: xquad_english(n, xquad_en), "cmrc-zh": lambda: cmrc(n, cmrc_dev),
        "samples": samples,
        "unanswerable-zh": lambda: unanswerable("zh", n // 2), "unanswerable-en": lambda: unanswerable("en", n // 2),
    }
    return [makers[name]() for name in names]
