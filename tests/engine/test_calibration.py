"""The question's vector centred on its language: the right passage in the other language beats a same-language
passage about something else; one-language models and failing embedders are left alone."""

from __future__ import annotations

import numpy as np

from desktop_rag.engine.search.calibration import REFERENCE_QUESTIONS, centred_query
from desktop_rag.engine.text.language import text_languages


class TwoLanguageEmbedder:
    """A toy multilingual model: each vector = its language's direction + 0.6 x its topic's (coffee, tea)."""

    model_id = "toy"
    dimension = 4
    speed = 1000.0

    def __init__(self, languages=None, fail: bool = False) -> None:
        self.languages = languages
        self.fail = fail
        self.query_batches = 0

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(4, dtype=np.float32)
        v[0 if "en" in text_languages(text) else 1] = 1.0
        if "coffee" in text.lower() or "咖啡" in text:
            v[2] = 0.6
        if "tea" in text.lower() or "茶" in text:
            v[3] = 0.6
        return v / np.linalg.norm(v)

    def embed(self, texts, batch_size: int = 64) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts])

    def embed_queries(self, texts) -> np.ndarray:
        if self.fail and len(texts) > 1:
            raise RuntimeError("server down")
        self.query_batches += 1
        return self.embed(texts)


PASSAGES = ["Brew green tea with water at eighty degrees.", "咖啡粉和水的比例是一比十六。"]


def ranked(embedder, question: str, centre: bool = True) -> list[str]:
    q = embedder.embed_queries([question])[0]
    if centre:
        q = centred_query(question, q, embedder)
    scores = embedder.embed(PASSAGES) @ q
    return [PASSAGES[i] for i in np.argsort(-scores)]


def test_the_other_language_answer_outranks_a_same_language_passage_on_another_topic():
    embedder = TwoLanguageEmbedder()
    question = "What ratio of coffee to water?"
    assert ranked(embedder, question, centre=False)[0] == PASSAGES[0]  # the language bias, uncorrected
    assert ranked(embedder, question)[0] == PASSAGES[1]
    assert ranked(embedder, "绿茶用多少度的水？")[0] == PASSAGES[0]  # and the other way round
    vector = centred_query(question, embedder.embed_queries([question])[0], embedder)
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_reference_questions_are_embedded_once_per_embedder_and_language():
    embedder = TwoLanguageEmbedder()
    for _ in range(3):
        ranked(embedder, "What ratio of coffee to water?")
    assert embedder.query_batches == 3 + 1  # three questions, one batch of reference questions
    assert all(len(REFERENCE_QUESTIONS[lang]) >= 20 for lang in ("en", "zh"))


def test_one_language_models_languageless_questions_and_failures_are_left_alone():
    question = "What ratio of coffee to water?"
    for embedder in (TwoLanguageEmbedder(languages=frozenset({"en"})), TwoLanguageEmbedder(fail=True)):
        vector = embedder.embed_queries([question])[0]
        assert np.array_equal(centred_query(question, vector, embedder), vector)
    embedder = TwoLanguageEmbedder()
    vector = embedder.embed_queries(["12345"])[0]
    assert np.array_equal(centred_query("12345", vector, embedder), vector)  # no language: nothing to take out


def test_a_bag_of_words_hash_is_not_centred():
    from desktop_rag.engine.models.embedding import HashEmbedder

    embedder = HashEmbedder(48)
    vector = embedder.embed_queries(["topic3 fact2"])[0]
    assert np.array_equal(centred_query("topic3 fact2", vector, embedder), vector)
