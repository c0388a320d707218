"""The extractive answer's rules one by one: sentences, headings, stemming, scoring, clipping, other languages."""

from __future__ import annotations

import random

from desktop_rag.engine.answer import extractive
from desktop_rag.engine.answer.extractive import (best_sentences, extractive_answer, ordered_passages,
                                                  split_sentences, terms)
from desktop_rag.engine.answer.sentences import is_heading_like
from desktop_rag.engine.ingest.tables import table_sections
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.topics import Topic, Topics


def hit(n: int, text: str) -> Hit:
    return Hit(chunk_id=n, score=1.0, path=f"/docs/{n}.txt", page=None, heading="", text=text)


def quoted(question: str, *texts: str, **kwargs) -> list[str]:
    """The answer's lines for these passages (hit n is texts[n-1])."""
    return extractive_answer(question, [hit(i + 1, t) for i, t in enumerate(texts)], **kwargs).splitlines()


# ---- sentences ------------------------------------------------------------------


def test_abbreviations_and_initials_do_not_end_a_sentence():
    assert split_sentences("We saw it e.g. twice. Then J. Smith left. It was over.") == [
        "We saw it e.g. twice.", "Then J. Smith left.", "It was over."]
    assert split_sentences("Ends with a dot.\nNext") == ["Ends with a dot.", "Next"]


def test_wrapped_chinese_joins_without_a_space_and_paragraphs_stay_apart():
    assert split_sentences("员工每年享有\n十五天年假。") == ["员工每年享有十五天年假。"]
    assert split_sentences("Version\n三号楼") == ["Version 三号楼"]
    assert split_sentences("三号楼\nVersion") == ["三号楼 Version"]
    assert split_sentences("Room 三\n号A栋") == ["Room 三号A栋"]  # only the two characters at the break count
    assert split_sentences("First paragraph\n\nsecond paragraph") == ["First paragraph", "second paragraph"]


def test_headings_and_short_titles_are_never_quoted():
    heading_like = is_heading_like
    assert heading_like("# Leave")
    assert heading_like("Annual leave policy for all staff members")  # 7 words, no end mark
    assert not heading_like("Annual leave policy for all staff members of the whole company")  # 11 words
    assert heading_like("one two three four five six seven eight nine")  # 9 words
    assert not heading_like("one two three four five six seven eight nine ten")  # 10 words: a sentence
    assert not heading_like("Leave policy 2024")  # a number: content, not a title
    assert not heading_like("Leave policy:")
    assert heading_like("员工年假政策说明文件一")  # 11 CJK characters, no end mark
    assert not heading_like("员工年假政策说明文件一二")  # 12
    lines = quoted("annual leave", "# Annual leave\n\nAnnual leave is 25 days a year.")
    assert lines == ["- Annual leave is 25 days a year. [1]"]  # the heading matches best, and is skipped


def test_a_heading_line_does_not_swallow_the_next_line():
    assert quoted("annual leave", "# Annual leave\nAnnual leave is 25 days a year.") == [
        "- Annual leave is 25 days a year. [1]"]
    assert split_sentences("## Leave\nStaff get 25\ndays a year.") == ["## Leave", "Staff get 25 days a year."]


def test_terms_are_stemmed_folded_words_without_stopwords_or_request_words():
    assert terms("Meetings ARE Booked") == frozenset({"meeting", "book"})  # one suffix off, lower case
    assert terms("Please tell me before the Café opens") == frozenset({"cafe", "open"})
    assert terms("Cells") == terms("cell") == frozenset({"cell"})  # the keyword search's stemmer (terms.py)


def test_chinese_terms_skip_function_characters():
    assert terms("茶") == frozenset({"茶"})
    assert terms("的") == frozenset()
    assert terms("绿茶的") == frozenset({"绿茶", "茶的"})
    assert terms("我们") == frozenset()


# ---- scoring ------------------------------------------------------------------


def test_rare_query_words_outweigh_common_ones():
    common = "The policy covers leave. The policy covers travel. The policy covers meals."
    assert quoted("parking policy", common, "Parking is free.", max_sentences=1) == ["- Parking is free. [2]"]


def test_shorter_sentence_wins_when_both_match_the_same_words():
    long = ("Leave requests submitted through the internal portal by staff members are reviewed weekly by "
            "regional human resources coordinators together with finance auditors and payroll clerks.")
    assert quoted("leave", long, "Leave is paid.", max_sentences=1) == ["- Leave is paid. [2]"]


def test_earlier_passage_wins_a_tie():
    assert quoted("leave", "Leave is granted yearly.", "Leave is approved monthly.", max_sentences=1) == [
        "- Leave is granted yearly. [1]"]


def test_a_number_answers_how_many():
    assert quoted("How many leave days?", "Leave days are planned with your manager.", "Leave is 25 days.",
                  max_sentences=1) == ["- Leave is 25 days. [2]"]


def test_default_is_at_most_three_sentences_and_long_ones_are_clipped():
    many = " ".join(f"Leave rule {i} applies." for i in range(6))
    assert len(quoted("leave rule", many)) == 3
    sentence = "Leave " + "x" * 400 + "."
    line = quoted("leave", sentence)[0]
    assert line == "- Leave " + "x" * (extractive.MAX_SENTENCE_CHARS - 7) + "… [1]"
    exact = "Leave " + "y" * (extractive.MAX_SENTENCE_CHARS - 7) + "."  # MAX_SENTENCE_CHARS long: kept whole
    assert quoted("leave", exact) == [f"- {exact} [1]"]
    spaced = "Leave is " + "z " * 200 + "end."  # cut right after a space: no trailing blank before the ellipsis
    assert quoted("leave", spaced)[0] == "- " + spaced[: extractive.MAX_SENTENCE_CHARS - 2] + "… [1]"


def test_markdown_in_a_quoted_sentence_stays_text():
    assert quoted("link", "See [the link](http://x) or `code` <b>link</b>.") == [
        "- See \\[the link\\](http://x) or \\`code\\` \\<b>link\\</b>. [1]"]


# ---- other languages ------------------------------------------------------------


def _always_a_tie(asked: list[str]):
    def similarity(question: str, sentences: list[str]) -> list[float]:
        asked.append(question)
        return [0.5] * len(sentences)  # a tie everywhere: only the rules below decide

    return similarity


def test_other_language_passages_without_a_model_are_still_matched_word_by_word():
    assert quoted("What GPU does the server use?", "服务器使用GPU型号A100，显存八十GB，用于训练模型。") == [
        "- 服务器使用GPU型号A100，显存八十GB，用于训练模型。 [1]"]


def test_by_meaning_the_question_is_asked_and_a_number_breaks_a_tie():
    asked: list[str] = []
    tea = "绿茶是中国很常见的茶类。冲泡绿茶的水温在八十度左右。"  # only the second has a number
    picked = best_sentences("How hot should the water be?", [hit(1, tea)], similarity=_always_a_tie(asked))
    assert picked[0].text == "冲泡绿茶的水温在八十度左右。" and asked == ["How hot should the water be?"]


def test_by_meaning_the_first_sentence_wins_a_tie():
    tea = "绿茶是中国最常见的茶类之一。绿茶应当密封保存在阴凉处。"
    picked = best_sentences("Tell me about green tea", [hit(1, tea)], similarity=_always_a_tie([]))
    assert picked[0].text == "绿茶是中国最常见的茶类之一。"


def test_an_other_language_passage_competes_by_meaning_not_by_its_rank_alone():
    hits = [hit(1, "Tea water should be hot, the guide says."), hit(2, "绿茶的水温在八十度左右。")]

    def similarity(question: str, sentences: list[str]) -> list[float]:
        return [0.9 if "八十度" in s else 0.6 for s in sentences]

    lines = extractive_answer("How hot should tea water be?", hits, similarity=similarity).splitlines()
    assert lines[0] == "- 绿茶的水温在八十度左右。 [2]"  # a number, as asked, and closer in meaning


def test_sentences_keep_every_non_space_character_in_order():
    """The extractive answer and compression find each sentence in its passage by this (one pass, not a search per
    sentence): the sentences' non-space characters, joined, are the passage's."""
    pieces = [*"ab.!?。！？；”’」』）)#-*•·1(（、 ", "中", "文", "e.g.", "Dr.", "approx.", "\n", "\n\n", "\r\n", "\u3000",
              "\x85", "\u2028", "\x0c", "\t", "\xa0", "# ", "## ", "- ", "12. "]
    rng = random.Random(35)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 80)))
        assert "".join("".join(s.split()) for s in split_sentences(text)) == "".join(text.split()), repr(text)


# ---- the passages a model reads first, wide table rows, the boundary while the model loads ---------------------

TEA_FOR_ENGLISH = [hit(1, "The ideal water temperature for brewing coffee is 90 to 96 degrees."),
                   hit(2, "冲泡绿茶的水温一般在八十度左右。")]


def test_the_passage_order_follows_the_runtimes_topic_terms_or_else_the_passages_own():
    question = "How hot should the water be for green tea?"
    green_tea = Topics((Topic("green tea", ("绿茶",), 2.0),))  # the runtime's, by the word list
    by_runtime = ordered_passages(question, TEA_FOR_ENGLISH, topics_of=lambda _: green_tea)
    assert [h.chunk_id for h in by_runtime] == [2, 1]  # only the Chinese passage names green tea
    by_passages = ordered_passages(question, TEA_FOR_ENGLISH)  # no word list: the coffee passage names "water"
    assert [h.chunk_id for h in by_passages] == [1, 2]


def test_the_passage_order_weighs_meaning_when_a_model_is_there():
    hits = [hit(1, "Staff may reset a password at the help desk."),
            hit(2, "Forgotten sign-ins are handled by the IT office.")]

    def meaning(question: str, sentences: list[str]) -> list[float]:
        return [0.9 if "IT office" in s else 0.8 for s in sentences]

    question, neutral = "Where do staff reset a password?", (lambda _: Topics())
    assert [h.chunk_id for h in ordered_passages(question, hits, topics_of=neutral)] == [1, 2]  # by the words
    assert [h.chunk_id for h in ordered_passages(question, hits, meaning, neutral)] == [2, 1]


def _wide_table() -> str:
    header = ["Name", *(f"Column {c}" for c in range(1, 30)), "Parking permit"]
    row = ["Ann Lee", *(f"value {c} for this cell" for c in range(1, 30)), "P-4471"]
    (table,) = table_sections([header, row], max_chars=5000, heading_path=("Sheet1",))
    return table.text


def test_a_wide_table_row_is_quoted_by_its_first_cell_and_the_cells_asked_about():
    question = "Which parking permit does Ann Lee have?"
    assert [s.text for s in best_sentences(question, [hit(1, _wide_table())])] == [
        "Name: Ann Lee; Parking permit: P-4471; …"]
    prose = hit(1, "Ann Lee has a parking permit for the north garage behind the library, number P-4471.")
    ordered = ordered_passages(question, [prose, hit(2, _wide_table())])
    assert [h.chunk_id for h in ordered] == [2, 1]  # its row as quoted: shorter than the prose, the same words


def test_while_the_model_loads_the_model_free_boundary_decides():
    """The runtime's similarity gives zeros until the vectors are loaded: the model's cosine floors do not refuse
    a lead that has no cosine yet."""
    loading = lambda q, s: [0.0] * len(s)  # noqa: E731
    some_absent = Topics((Topic("parking", (), 1.0),), absent=0.4)
    parking = [hit(1, "Visitor parking is behind gate B.")]
    picked = best_sentences("Where is visitor parking, by the tram depot?", parking, similarity=loading,
                            topics_of=lambda _: some_absent, model="bundled:multilingual-e5-small")
    assert [s.text for s in picked] == ["Visitor parking is behind gate B."]


def test_a_passage_whose_path_cannot_be_resolved_is_an_ordinary_document():
    odd = Hit(chunk_id=2, score=1.0, path="/docs/a\x00b.txt", page=None, heading="", text="Parking is free for staff.")
    assert extractive_answer("Is parking free?", [hit(1, "The office opens at nine."), odd]) == (
        "- Parking is free for staff. [2]")
