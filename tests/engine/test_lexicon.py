"""The Chinese-English word list (text/lexicon.py) and the dictionary gloss of a question (search/gloss.py)."""

from __future__ import annotations

import gzip
import os
import stat

import pytest

from desktop_rag.engine.search.gloss import gloss
from desktop_rag.engine.text import lexicon as lexicon_module
from desktop_rag.engine.text.lexicon import LEXICON_FORMAT, Lexicon, build_lexicon, open_lexicon

SMALL = """\
# CC-CEDICT
# a comment line
水 水 [shui3] /water/river/
溍 溍 [jin4] /water (literary)/
水温 水温 [shui3 wen1] /water temperature/
温度 温度 [wen1 du4] /temperature/
泡 泡 [pao4] /bubble/to steep/CL:個|个[ge4]/
沏 沏 [qi1] /to steep (tea)/
綠茶 绿茶 [lu:4 cha2] /green tea/
茶 茶 [cha2] /tea/tea plant/
茶水 茶水 [cha2 shui3] /tea/
什麼 什么 [shen2 me5] /what?/something/
城市 城市 [cheng2 shi4] /city/town/
亓 亓 [qi2] /variant of 其[qi2]/surname Qi/
not a dictionary line
"""


@pytest.fixture
def small(tmp_path) -> Lexicon:
    source = tmp_path / "small.txt.gz"
    with gzip.open(source, "wt", encoding="utf-8") as f:
        f.write(SMALL)
    path = tmp_path / "lexicon.sqlite3"
    build_lexicon(path, source)
    lexicon = Lexicon(path)
    yield lexicon
    lexicon.close()


def test_english_side_takes_the_first_senses_without_notes_or_cross_references(small):
    assert small.english("水") == "water river"
    assert small.english("泡") == "bubble to steep"  # the classifier note is not a sense
    assert small.english("溍") == "water"  # "(literary)" dropped
    assert small.english("亓") is None  # only a variant note and a surname
    assert small.english("不在") is None


def test_chinese_side_prefers_a_first_sense_and_the_commoner_headword(small):
    assert small.chinese("water") == "水 溍"  # 水 is inside three headwords, 溍 only in itself
    assert small.chinese("green tea") == "绿茶"
    assert small.chinese("tea").split()[0] == "茶"  # 茶 and 茶水 both say "tea" first; 茶 is in more words
    assert small.chinese("steep") == "沏 泡"  # 沏 gives it first, 泡 only second
    assert small.chinese("water temperature") == "水温"
    assert small.chinese("surname qi") is None and small.chinese("variant") is None


def test_gloss_into_chinese_takes_the_longest_phrase_and_plain_forms(small):
    assert gloss("What water temperature for green tea?", "zh", small) == "水温 绿茶"
    assert gloss("Cities", "zh", small) == "城市"  # "cities" -> "city"
    assert gloss("the of and", "zh", small) == ""  # stopwords only


def test_gloss_into_english_cuts_the_longest_headwords_and_keeps_names(small):
    assert gloss("绿茶的水温是什么？", "en", small) == "green tea water temperature"  # 的, 什么 say nothing
    assert gloss("NASA城市", "en", small) == "city town nasa"
    assert gloss("？？", "en", small) == ""


def test_the_packaged_dictionary_glosses_the_sample_questions(built_lexicon):
    real = Lexicon(built_lexicon)
    try:
        chinese = gloss("What is the ratio of coffee to water?", "zh", real).split()
        assert {"咖啡", "水", "比率"} <= set(chinese)
        english = gloss("冲咖啡时咖啡粉和水的比例是多少？", "en", real).split()
        assert {"coffee", "water", "proportion"} <= set(english)
    finally:
        real.close()


def test_a_missing_damaged_or_older_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicon_module, "build_lexicon", build_lexicon)  # the real build, not the suite's link
    path = tmp_path / "data" / "lexicon.sqlite3"
    first = open_lexicon(path)
    assert first.chinese("green tea").split()[0] == "绿茶"
    first.close()
    path.write_bytes(b"not a database at all" * 100)
    again = open_lexicon(path)
    assert again.english("绿茶").startswith("green tea")
    again.close()
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = 'old' WHERE key = 'format'")
    db.close()
    with pytest.raises(ValueError, match=f"format {LEXICON_FORMAT}"):
        Lexicon(path)
    rebuilt = open_lexicon(path)
    assert rebuilt.chinese("water").split()[0] == "水"
    rebuilt.close()
    assert [p.name for p in path.parent.iterdir()] == ["lexicon.sqlite3"]  # no temporary file left
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600  # owner-only, as every file of the data folder


def test_a_huge_question_is_glossed_by_its_beginning_in_bounded_time(small):
    import time

    started = time.perf_counter()
    assert gloss("绿茶" + "龘" * 200_000, "en", small) == "green tea"
    assert gloss("green tea " * 50_000, "zh", small) == "绿茶"
    assert time.perf_counter() - started < 2.0
