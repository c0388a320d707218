"""The answer without a language model: the sentences that answer, best first, each cited; or, when the passages
cannot answer, a sentence saying so.

Which sentences, and in what order, is answer/selection.py's choice over the passages' sentences
(answer/sentences.py: a table row is quoted under its header). The app's own help text (the bundled
getting-started.md) is quoted only when it is the best passage or the question names the app.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from desktop_rag.config import resource_path
from desktop_rag.engine.answer.selection import MEANING_FLOORS, Boundary, Similarity, choose, passage_order, weigh
from desktop_rag.engine.answer.sentences import MAX_SENTENCE_CHARS, Sentence, candidates, split_sentences, terms
from desktop_rag.engine.document.locate import find_passage, keyed
from desktop_rag.engine.messages import message
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.terms import has_han
from desktop_rag.engine.text.topics import Topic, Topics, topics

__all__ = ["MAX_SENTENCE_CHARS", "Similarity", "TopicsOf", "best_sentences", "extractive_answer", "ordered_passages",
           "quoted_answer", "split_sentences", "terms"]

TopicsOf = Callable[[str], Topics]  # a question -> its topic terms in the library (the runtime's, by its word list)

_MARKDOWN_ACTIVE = re.compile(r"([\\`<\[\]])")


def _as_markdown_text(sentence: str) -> str:
    """A document's sentence as literal Markdown text: it cannot open a link, an image, HTML or a code span."""
    return _MARKDOWN_ACTIVE.sub(r"\\\1", sentence)


def _clip(sentence: Sentence) -> str:
    """A quote's text, at most MAX_SENTENCE_CHARS for each sentence it holds."""
    limit = MAX_SENTENCE_CHARS * sentence.parts
    text = sentence.text
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# The app's own help text (a bundled sample) answers questions about the app, not about the user's documents.
_HELP_TEXT = ("samples", "getting-started.md")
_ABOUT_APP = re.compile(r"desktop[\s-]?rag|\b(this|the) (app|application|program|software)\b|本(应用|软件|程序)|这个(应用|软件|程序)",
                        re.I)


@functools.cache
def _help_text_path() -> Path:
    return resource_path(*_HELP_TEXT).resolve()


def _help_text(path: str) -> bool:
    try:
        return Path(path).resolve() == _help_text_path()
    except (OSError, ValueError):
        return False


def _quotable(question: str, hits: Sequence[Hit]) -> list[int]:
    """Positions of the passages an answer may quote: the app's help text only when it is the best passage or
    the question names the app."""
    about_app = bool(_ABOUT_APP.search(question))
    return [i for i, hit in enumerate(hits) if i == 0 or about_app or not _help_text(hit.path)]


def hits_topics(question: str, hits: Sequence[Hit]) -> Topics:
    """The question's topic terms judged by the passages alone (no word list, rarity among them): what an answer
    made without the library's runtime uses."""
    texts = [f"{h.heading}\n{h.text}" for h in hits]

    def frequency(word: str) -> int:
        probe = Topic(word, (), 1.0)
        return sum(probe.named_in(text) for text in texts)


    return topics(question, None, frequency, max(len(hits), 1))


def best_sentences(question: str, hits: Sequence[Hit], max_sentences: int = 3, similarity: Similarity | None = None,
                   topics_of: TopicsOf | None = None, model: str = "") -> list[Sentence]:
    """The sentences that answer, best first ([] when the passages cannot answer): answer/selection.py's choice
    (`model`: the embedding model behind `similarity`, whose measured cosine floors mark the knowledge boundary)."""
    sentences = candidates(hits, _quotable(question, hits), question)
    found = topics_of(question) if topics_of is not None else hits_topics(question, hits)
    evidence = weigh(question, hits, sentences, similarity, found)
    measured = any(e.meaning for e in evidence)  # (no cosines while the vectors load: the model-free boundary)
    boundary = Boundary(found.absent, has_han(question), MEANING_FLOORS.get(model) if measured else None)
    return [e.sentence for e in choose(evidence, max_sentences, boundary)]


def ordered_passages(question: str, hits: Sequence[Hit], similarity: Similarity | None = None,
                     topics_of: TopicsOf | None = None) -> list[Hit]:
    """The hits in the order their best sentences answer the question (the passage the extractive answer would
    lead with first): the order a model reads them in."""
    sentences = candidates(hits, range(len(hits)), question)
    found = topics_of(question) if topics_of is not None else hits_topics(question, hits)
    return [hits[i] for i in passage_order(weigh(question, hits, sentences, similarity, found), len(hits))]


def extractive_answer(question: str, hits: Sequence[Hit], max_sentences: int = 3, similarity: Similarity | None = None,
                      topics_of: TopicsOf | None = None, model: str = "") -> str:
    """The answer's text alone (see `quoted_answer`)."""
    return quoted_answer(question, hits, max_sentences, similarity, topics_of, model)[0]


def quoted_answer(question: str, hits: Sequence[Hit], max_sentences: int = 3, similarity: Similarity | None = None,
                  topics_of: TopicsOf | None = None, model: str = "") -> tuple[str, list[Hit]]:
    """The sentences that answer, best first, each followed by `[n]` (no label: the answer's notice says what it
    is), and the hits with `focus` set to the spans of the sentences quoted from each.

    `n` is the 1-based position of the sentence's passage in `hits`. When nothing answers, the "the documents do
    not say" message in the question's language (Chinese or English).
    """
    picked = best_sentences(question, hits, max_sentences, similarity, topics_of, model)
    if not picked:
        return message("no_answer_in_documents", "zh" if has_han(question) else "en"), list(hits)
    lines = [f"- {_as_markdown_text(_clip(s))} [{s.hit_index + 1}]" for s in picked]
    return "\n".join(lines), _focused(hits, picked)


def _focused(hits: Sequence[Hit], picked: Sequence[Sentence]) -> list[Hit]:
    """Each hit with the character spans (in its text) of the sentences quoted from it."""
    spans: dict[int, list[tuple[int, int]]] = {}
    keys: dict[int, tuple[str, list[int]]] = {}  # each passage's keyed form, made once (a passage may be long)
    for s in picked:
        text = hits[s.hit_index].text
        if s.span is not None:  # a table row: its line
            spans.setdefault(s.hit_index, []).append(s.span)
            continue
        if s.text not in text and s.hit_index not in keys:
            keys[s.hit_index] = keyed(text)
        found = find_passage(text, s.text, keys=keys.get(s.hit_index))
        if found is not None:
            spans.setdefault(s.hit_index, []).append((found[0], found[1]))
    return [dataclasses.replace(hit, focus=tuple(sorted(spans[i]))) if i in spans else hit
            for i, hit in enumerate(hits)]
