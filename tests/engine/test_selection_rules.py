"""The extractive answer's selection rules one by one (answer/selection.py): which neighbour follows the lead, how
many bullets, the topic rule when nothing names a topic term, each language's cosines weighed among themselves,
the model-free knowledge boundary at its edges, the order a model reads the passages in, and the lead quoted with
the sentence that continues it."""

from __future__ import annotations

import math

import pytest

from desktop_rag.engine.answer.extractive import (MAX_SENTENCE_CHARS, best_sentences, extractive_answer,
                                                  ordered_passages, quoted_answer)
from desktop_rag.engine.answer.sentences import Sentence, continues, joined
from desktop_rag.engine.store.values import Hit
from desktop_rag.engine.text.topics import Topic, Topics


def hit(n: int, text: str, score: float = 1.0) -> Hit:
    return Hit(chunk_id=n, score=score, path=f"/docs/{n}.txt", page=None, heading="", text=text)


def cosines(table: dict[str, float]):
    """A stand-in for the model: each sentence's cosine by a word it holds (0.5 for the others)."""
    def similarity(question: str, sentences: list[str]) -> list[float]:
        return [next((v for k, v in table.items() if k in s), 0.5) for s in sentences]

    return similarity


def test_a_neighbour_holding_asked_words_the_lead_lacks_follows_it():
    text = "Parking is free for staff. Visitors pay at the gate."
    assert extractive_answer("Is parking free for visitors?", [hit(1, text)]).splitlines() == [
        "- Parking is free for staff. [1]", "- Visitors pay at the gate. [1]"]


def test_a_neighbour_that_adds_nothing_is_left_out_anywhere_in_the_passage():
    text = "The office opens at nine. Leave is 25 days a year. Leave is 25 days per year for staff."
    assert extractive_answer("How many days of leave?", [hit(1, text)]).splitlines() == [
        "- Leave is 25 days a year. [1]"]


def test_at_most_three_bullets_by_default_and_the_limit_asked_for():
    five = [hit(i, f"Leave rule {i} applies to staff.") for i in range(1, 6)]
    assert len(best_sentences("leave rule", five)) == 3
    assert len(extractive_answer("leave rule", five).splitlines()) == 3
    assert len(quoted_answer("leave rule", five)[0].splitlines()) == 3
    assert len(best_sentences("leave rule", five, max_sentences=4)) == 4
    assert extractive_answer("leave rule", five, max_sentences=1) == "- Leave rule 1 applies to staff. [1]"


def test_when_no_passage_names_a_topic_term_the_topic_rule_excludes_nothing():
    # the library names "cafeteria" elsewhere; the passages found do not: they still answer
    cafeteria = Topics((Topic("cafeteria", (), 1.0),))
    assert extractive_answer("When is lunch served?", [hit(1, "Lunch is served from noon to two.")],
                             topics_of=lambda _: cafeteria) == "- Lunch is served from noon to two. [1]"


def test_the_sentence_naming_the_topic_leads_a_tie_in_its_passage():
    green_tea = Topics((Topic("绿茶", ("green", "tea"), 2.0),))
    text = "Coffee beans keep for a month. Green tea keeps best in a sealed tin."
    picked = best_sentences("绿茶怎么保存？", [hit(1, text)], similarity=cosines({}),
                            topics_of=lambda _: green_tea)
    assert [s.text for s in picked] == ["Green tea keeps best in a sealed tin."]


def test_with_a_model_meaning_outweighs_repeating_the_questions_words():
    text = "Staff may reset a password at the help desk. Forgotten sign-ins are handled by the IT office."
    meaning = cosines({"IT office": 0.83, "help desk": 0.81})
    picked = best_sentences("Where do staff reset a password?", [hit(1, text)], similarity=meaning,
                            topics_of=lambda _: Topics())
    assert picked[0].text == "Forgotten sign-ins are handled by the IT office."


def test_each_languages_cosines_are_weighed_among_themselves():
    """The model gives the question's language higher cosines: the Chinese passage's best sentence is judged against
    the Chinese sentences, and is quoted beside the English best."""
    english = hit(1, "The kitchen is on the second floor. The kitchen closes at six.")
    chinese = hit(2, "会议室在三楼。会议室晚上关闭。")
    meaning = cosines({"second floor": 0.90, "closes": 0.80, "三楼": 0.80, "晚上": 0.74})
    lines = extractive_answer("Which rooms are upstairs?", [english, chinese], similarity=meaning,
                              topics_of=lambda _: Topics()).splitlines()
    assert sorted(lines) == ["- The kitchen is on the second floor. [1]", "- 会议室在三楼。 [2]"]  # each language's best


PANTHERS = "How many points did the Panthers defense give up?"


def test_without_measured_floors_half_the_words_absent_refuses_a_passage_naming_no_topic_term():
    half_absent = Topics((Topic("panthers", (), 2.0),), absent=0.5)
    off_topic = [hit(1, "The Broncos defense gave up 308 points.")]
    answer = extractive_answer(PANTHERS, off_topic, similarity=cosines({}), topics_of=lambda _: half_absent)
    assert answer == "The documents don't seem to contain the answer to this question."


def test_without_measured_floors_a_passage_that_cannot_be_judged_on_the_topic_still_answers():
    half_absent = Topics((Topic("panthers", (), 2.0),), absent=0.5)  # an English name says nothing of Chinese text
    chinese = [hit(1, "黑豹队的防守只丢了308分。")]
    answer = extractive_answer(PANTHERS, chinese, similarity=cosines({}), topics_of=lambda _: half_absent)
    assert answer == "- 黑豹队的防守只丢了308分。 [1]"


def test_the_model_reads_the_passages_naming_the_topic_first_whatever_their_rank():
    green_tea = Topics((Topic("green tea", (), 1.0),))
    coffee = hit(1, "Coffee water should be 96 degrees, hotter than tea water.", 1.0)
    tea = hit(2, "Green tea wants cooler water.", 0.5)
    other = hit(3, "The shop opens at nine.", 0.2)
    ordered = ordered_passages("How hot should green tea water be?", [coffee, tea, other],
                               topics_of=lambda _: green_tea)
    assert [h.chunk_id for h in ordered] == [2, 1, 3]


# ---- the lead quoted with the sentence that continues it -----------------------------------------------------------

BOARD = "The board met in Lyon in May. It chose Ann Lee as its chair. Parking at the venue is free."
CLOSE = cosines({"Lyon": 0.84, "Ann Lee": 0.83})  # the continuation is near the lead by meaning


def test_a_sentence_continuing_the_lead_is_quoted_with_it_in_one_bullet():
    answer, focused = quoted_answer("What did the board do in May?", [hit(1, BOARD)], similarity=CLOSE,
                                    topics_of=lambda _: Topics())
    assert answer.splitlines()[0] == "- The board met in Lyon in May. It chose Ann Lee as its chair. [1]"
    start, end = focused[0].focus[0]
    assert BOARD[start:end] == "The board met in Lyon in May. It chose Ann Lee as its chair."


def test_in_chinese_the_continuation_follows_without_a_space():
    text = "董事会五月在里昂开会。它选出了李安为主席。会场停车免费。"
    lines = extractive_answer("董事会在哪里开会？", [hit(1, text)], similarity=cosines({"里昂": 0.84, "李安": 0.83}),
                              topics_of=lambda _: Topics()).splitlines()
    assert lines[0] == "- 董事会五月在里昂开会。它选出了李安为主席。 [1]"


def test_a_next_sentence_that_does_not_refer_back_stays_a_bullet_of_its_own():
    text = BOARD.replace("It chose", "Members chose")
    lines = extractive_answer("What did the board do in May?", [hit(1, text)], similarity=CLOSE,
                              topics_of=lambda _: Topics()).splitlines()
    assert lines[0] == "- The board met in Lyon in May. [1]"


def test_a_continuation_far_weaker_than_the_lead_is_not_joined():
    far = cosines({"Lyon": 0.90, "Ann Lee": 0.70, "Parking": 0.70})
    lines = extractive_answer("What did the board do in May?", [hit(1, BOARD)], similarity=far,
                              topics_of=lambda _: Topics()).splitlines()
    assert lines == ["- The board met in Lyon in May. [1]"]


def test_only_the_sentence_right_after_the_lead_in_its_passage_continues_it():
    text = "The board met in Lyon in May. Parking at the venue is free. It chose Ann Lee as its chair."
    lines = extractive_answer("What did the board do in May?", [hit(1, text)], similarity=CLOSE,
                              topics_of=lambda _: Topics()).splitlines()
    assert lines[0] == "- The board met in Lyon in May. [1]"


@pytest.mark.parametrize("text, refers_back", [
    ("It chose a chair.", True), ("However, it rained.", True), ("这项规定自五月起生效。", True),
    ("它位于河边。", True), ("但他没有来。", True), ("Italy won.", False), ("Thessaloniki is a city.", False),
    ("但丁写了神曲。", False), ("那不勒斯在意大利。", False), ("The board met.", False),
])
def test_which_sentences_refer_back(text, refers_back):
    assert continues(Sentence(text, 0, 1, frozenset())) is refers_back
    assert not continues(Sentence(text, 0, 1, frozenset(), span=(0, 5)))  # a table row never does


def test_a_joined_quote_is_clipped_at_two_sentences_length():
    long_lead = "The board met in Lyon " + "and talked " * 20 + "in May."
    long_next = "It chose Ann Lee " + "after a vote " * 30 + "as its chair."
    lines = extractive_answer("What did the board do in May?", [hit(1, f"{long_lead} {long_next}")], similarity=CLOSE,
                              topics_of=lambda _: Topics()).splitlines()
    quote = lines[0][2:-4]
    assert quote.startswith(long_lead + " It chose") and quote.endswith("…")
    assert len(quote) == 2 * MAX_SENTENCE_CHARS


def test_the_continuation_is_not_quoted_again_as_a_bullet_of_its_own():
    text = "The board met in Lyon. It chose Ann Lee in May. Parking at the venue is free."
    lines = extractive_answer("When did the board meet in Lyon?", [hit(1, text)],  # only the continuation has a time
                              similarity=cosines({"Lyon": 0.90, "Ann Lee": 0.70}), topics_of=lambda _: Topics())
    assert lines.splitlines() == ["- The board met in Lyon. It chose Ann Lee in May. [1]"]


def test_the_continuation_holding_a_word_the_lead_lacks_is_not_quoted_again():
    text = "The board met in Lyon. It named Ann Lee chair. Parking at the venue is free."
    lines = extractive_answer("board chair Lyon", [hit(1, text)], similarity=CLOSE, topics_of=lambda _: Topics())
    assert lines.splitlines() == ["- The board met in Lyon. It named Ann Lee chair. [1]"]


def test_a_lead_that_continues_the_sentence_before_it_is_quoted_after_that_one():
    text = "Parking at the venue is free. The board met in Lyon in May. It chose Ann Lee as its chair."
    lines = extractive_answer("Who did the board choose as chair?", [hit(1, text)],
                              similarity=cosines({"Lyon": 0.83, "Ann Lee": 0.86}), topics_of=lambda _: Topics())
    assert lines.splitlines()[0] == "- The board met in Lyon in May. It chose Ann Lee as its chair. [1]"


def test_three_sentences_continuing_each_other_around_the_lead_are_one_quote():
    text = "The board met in Lyon in May. It chose Ann Lee as its chair. She takes office in June. Parking is free."
    lines = extractive_answer("What did the board decide about its chair?", [hit(1, text)],
                              similarity=cosines({"Lyon": 0.84, "Ann Lee": 0.86, "June": 0.84}),
                              topics_of=lambda _: Topics())
    assert lines.splitlines() == ["- The board met in Lyon in May. It chose Ann Lee as its chair. She takes office in "
                                  "June. [1]"]


@pytest.mark.parametrize("first, then, quote", [
    ("董事会在里昂开会。", "它选出了主席。", "董事会在里昂开会。它选出了主席。"),
    ("董事会在里昂开会", "它选出了主席。", "董事会在里昂开会它选出了主席。"),  # a Chinese line without its full stop
    ("会议共 3 天", "它在里昂召开。", "会议共 3 天它在里昂召开。"),  # only its last character decides
    ("The board met in Lyon.", "It chose a chair.", "The board met in Lyon. It chose a chair."),
    ("董事会在 Lyon", "It chose a chair.", "董事会在 Lyon It chose a chair."),
])
def test_two_sentences_join_with_a_space_only_after_latin_text(first, then, quote):
    one = joined(Sentence(first, 0, 3, frozenset({"board"})), Sentence(then, 0, 4, frozenset({"chair"})))
    assert (one.text, one.position, one.parts, one.terms) == (quote, 3, 2, frozenset({"board", "chair"}))


def test_the_passage_holding_the_questions_distinctive_words_leads_a_near_tie_in_rank():
    """Two sentences alike (the mill closed, a year): the one whose passage also names the rest of what is asked (the
    Avon river) leads, though ranked a little lower; coverage weighs each term by its rarity among the passages."""
    question = "When did the mill on the Avon river close?"
    common = hit(1, "The mill closed in 1950. Bakers bought flour elsewhere.", score=1.0)
    named = "The Avon river turned the wheel of a second mill. The second mill closed in 1962."
    picked = best_sentences(question, [common, hit(2, named, score=0.9)], similarity=cosines({}),
                            topics_of=lambda _: Topics())
    assert (picked[0].hit_index, picked[0].text) == (1, "The second mill closed in 1962.")
    # far below in rank, it does not
    picked = best_sentences(question, [common, hit(2, named, score=0.4)], similarity=cosines({}),
                            topics_of=lambda _: Topics())
    assert (picked[0].hit_index, picked[0].text) == (0, "The mill closed in 1950.")


def test_coverage_weighs_rare_terms_more_and_ignores_terms_no_passage_holds():
    from desktop_rag.engine.answer.selection import _coverage

    common, rare = _coverage(frozenset({"mill", "avon", "unheard"}), [frozenset({"mill"}), frozenset({"mill", "avon"})])
    assert rare == pytest.approx(1.0)  # "unheard" is in no passage: no clue either way
    # "mill" is in both passages, "avon" in one: idf log(1 + 3/3) against log(1 + 3/2)
    assert common == pytest.approx(math.log(2) / (math.log(2) + math.log(2.5)), rel=1e-6)
    assert _coverage(frozenset({"mill"}), [frozenset({"mill"}), frozenset({"mill"})]) == [1.0, 1.0]
    assert _coverage(frozenset({"unheard"}), [frozenset({"mill"})]) == [0.0]


def test_coverage_is_judged_against_the_best_passage_in_the_questions_language_only():
    from desktop_rag.engine.answer.selection import _relative_coverage

    english, full, part = _relative_coverage("磨坊何时关闭？", ["The mill closed in 1950.", "磨坊于1962年关闭。", "磨坊很旧。"])
    assert english == 0.0  # another language: not judged on the question's words
    assert full == 0.0  # the best in the question's language
    assert part < 0.0


def test_a_sentence_of_another_document_follows_only_nearer_the_lead_when_weighed_by_meaning():
    """With a model, a sentence of another document follows within FOLLOW_OTHER_MARGIN of the lead's score, one of
    the lead's document (its passage or another) within FOLLOW_MARGIN; without a model (words weigh for meaning)
    every one within FOLLOW_MARGIN."""
    from desktop_rag.engine.answer.selection import (FOLLOW_MARGIN, FOLLOW_OTHER_MARGIN, WORDS, Evidence,
                                                     choose)

    gap = (FOLLOW_MARGIN + FOLLOW_OTHER_MARGIN) / 2  # between the two margins

    def evidence(passage: int, document: str, word: str, score: float, words_weight: float) -> Evidence:
        sentence = Sentence(f"{word} sentence.", passage, 0 if word == "lead" else 5, frozenset({word}))
        return Evidence(sentence, 0.9, 0.0, False, 1.0, score / 5.0 - 0.2, words_weight=words_weight,
                        matched=frozenset({word}), document=document)

    for weight, other_follows in ((WORDS, False), (WORDS + 1.0, True)):
        lead = evidence(0, "/a.txt", "lead", 5.0, weight)
        same = evidence(0, "/a.txt", "same", 5.0 - gap, weight)
        sibling = evidence(3, "/a.txt", "sibling", 5.0 - gap, weight)  # another passage of the lead's document
        other = evidence(1, "/b.txt", "other", 5.0 - gap, weight)
        near = evidence(2, "/c.txt", "near", 5.0 - FOLLOW_OTHER_MARGIN + 0.05, weight)
        picked = [e.sentence.text for e in choose([lead, near, same, sibling, other], max_bullets=5)]
        expected = ["lead sentence.", "near sentence.", "same sentence.", "sibling sentence."]
        assert picked == expected + (["other sentence."] if other_follows else []), weight
