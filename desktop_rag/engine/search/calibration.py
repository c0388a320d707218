"""Language-fair dense scores for a multilingual model, with no language model and for any embedder.

A multilingual embedder places a question nearer to passages in its own language than to the right passage
in another: every vector carries a direction that says "this is English" or "this is Chinese".
:func:`centred_query` takes it out: the question's vector minus ``CENTRING`` times the mean vector of a fixed
set of ordinary questions in its language (:data:`REFERENCE_QUESTIONS`, embedded once per embedder by the model
in use), renormalised. What is left is what the question asks rather than which language asks it; the right
passage in the other language then competes with same-language passages on meaning (measured, with the
options that did not win, in fusion.py's docstring).

Only multilingual models (``Embedder.languages`` None) are corrected; an English-only model searching an
English library keeps its plain cosines, and so does an embedder whose ``language_direction`` is False (the
test suite's bag-of-words hash, whose centroid would only be noise). The reference questions were written for
this module (not taken from any benchmark set).
"""

from __future__ import annotations

import logging
import threading
import weakref

import numpy as np

from desktop_rag.engine.models.embedding import Embedder
from desktop_rag.engine.text.language import text_languages

log = logging.getLogger(__name__)

CENTRING = 0.75  # share of the language centroid taken out (0.5 and 1.0 measured worse across directions)

REFERENCE_QUESTIONS: dict[str, tuple[str, ...]] = {
    "en": (
        "How do I reset my password?", "What is the capital of Australia?", "When was the company founded?",
        "Who wrote the report on climate change?", "How much does the annual subscription cost?",
        "What are the side effects of this medicine?", "Where is the nearest train station?",
        "Why did the project miss its deadline?", "How long should the bread bake?", "Which team won the final?",
        "What does the contract say about termination?", "How many employees work in the Berlin office?",
        "What is the boiling point of water at high altitude?", "Who is responsible for approving expenses?",
        "When does the library open on Sundays?", "What caused the decline of the Roman Empire?",
        "How does photosynthesis work?", "What is the recommended dose for children?",
        "Which programming language is the backend written in?", "What were the main findings of the study?",
        "How can I export my data?", "What is the difference between a virus and a bacterium?",
        "Where was the treaty signed?", "How fast can the train travel?",
    ),
    "zh": (
        "如何重置我的密码？", "澳大利亚的首都是哪里？", "这家公司是什么时候成立的？", "关于气候变化的报告是谁写的？",
        "年度订阅需要多少钱？", "这种药有哪些副作用？", "最近的火车站在哪里？", "项目为什么没有按时完成？",
        "面包应该烤多长时间？", "哪支球队赢得了决赛？", "合同中关于终止的条款是怎么说的？", "柏林办公室有多少名员工？",
        "高海拔地区水的沸点是多少？", "谁负责审批报销？", "图书馆星期天几点开门？", "罗马帝国衰落的原因是什么？",
        "光合作用是如何进行的？", "儿童的推荐剂量是多少？", "后端是用哪种编程语言写的？", "这项研究的主要发现是什么？",
        "我怎样才能导出我的数据？", "病毒和细菌有什么区别？", "条约是在哪里签署的？", "这列火车的速度能有多快？",
    ),
}

_centroids: weakref.WeakKeyDictionary[Embedder, dict[str, np.ndarray | None]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _centroid(embedder: Embedder, language: str) -> np.ndarray | None:
    """The mean query vector of the reference questions in `language` (once per embedder; None on failure)."""
    with _lock:
        cached = _centroids.setdefault(embedder, {})
        if language in cached:
            return cached[language]
    try:
        vectors = np.asarray(embedder.embed_queries(list(REFERENCE_QUESTIONS[language])), dtype=np.float32)
        centroid = vectors.mean(axis=0) if vectors.ndim == 2 and len(vectors) else None
    except Exception as exc:  # noqa: BLE001 - a correction, not a requirement: search goes on uncorrected
        log.warning("Language centroid unavailable: %s", exc)
        centroid = None
    with _lock:
        _centroids.setdefault(embedder, {})[language] = centroid
    return centroid


def centred_query(query: str, vector: np.ndarray, embedder: Embedder,
                  languages: frozenset[str] | None = None) -> np.ndarray:
    """The question's vector with its language's direction taken out (unchanged for a one-language model);
    `languages`: the question's languages when already known (search/question.py), else worked out here."""
    languages = text_languages(query) if languages is None else languages
    language = next(iter(languages)) if len(languages) == 1 else None
    multilingual = embedder.languages is None and getattr(embedder, "language_direction", True)
    if not multilingual or language not in REFERENCE_QUESTIONS:
        return vector
    centroid = _centroid(embedder, language)
    if centroid is None or centroid.shape != np.shape(vector):
        return vector
    centred = np.asarray(vector, dtype=np.float32) - CENTRING * centroid
    norm = float(np.linalg.norm(centred))
    return centred / norm if norm > 1e-6 else vector
