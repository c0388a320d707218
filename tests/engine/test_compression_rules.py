"""Context compression's rules (answer/compression.py), each on passages written so that one rule decides: the best
sentence brings the sentences on both sides of it (within its passage), a sentence matching nothing is never sent
on its own, rare question words weigh more, headings stay with a passage that sends something, the budget and the
"always" share, meaning mixed in by the dense weight, and how the prompt shows a focus."""

from __future__ import annotations

import pytest

from desktop_rag.engine.answer.compression import GAP, KEEP_SHARE, NOTHING, compress, sent_text, sentence_spans
from desktop_rag.engine.models.tokens import count_tokens
from desktop_rag.engine.store.values import Hit

FESTIVAL = ("The old town was founded by fishermen. It grew slowly along the river. "
            "The lantern festival opens at the north gate every spring. "
            "Stalls sell sweet rice balls until midnight. Parking is hard to find.")
BEFORE, BEST, AFTER = ("It grew slowly along the river.", "The lantern festival opens at the north gate every spring.",
                       "Stalls sell sweet rice balls until midnight.")
QUESTION = "Where does the lantern festival open?"


def hit(n: int, text: str) -> Hit:
    return Hit(n, 1.0 / n, f"/d/{n}.txt", None, "", text, file_id=n)


def _sent(h: Hit) -> list[str]:
    return [h.text[a:b] for a, b in sorted(h.focus)]


def test_the_best_sentence_brings_the_one_before_and_the_one_after():
    out = compress(QUESTION, [hit(1, FESTIVAL)], "always", 10_000)
    assert _sent(out[0]) == [BEFORE, BEST, AFTER]  # neither neighbour matches a question word


def test_neighbours_stay_inside_the_best_sentences_passage():
    first = hit(1, "Rice is planted in May. The harvest ends in October.")
    second = hit(2, "The lantern festival opens at the north gate. Stalls sell rice balls.")
    out = compress(QUESTION, [first, second], "always", 10_000)
    assert _sent(out[1]) == ["The lantern festival opens at the north gate.", "Stalls sell rice balls."]
    assert out[0].focus == NOTHING  # its last sentence is not the best one's neighbour
    last = hit(3, "Stalls sell rice balls. The lantern festival opens at the north gate.")
    assert _sent(compress(QUESTION, [last, first], "always", 10_000)[0]) == [
        "Stalls sell rice balls.", "The lantern festival opens at the north gate."]


def test_a_sentence_matching_nothing_is_sent_only_as_a_neighbour():
    text = ("Cats sleep on walls. The weather was mild. The lantern festival opens at the north gate. "
            "Buses stop at the river. Lanterns hang at the gate in spring. Dogs bark at night.")
    budget = count_tokens(text) - 1  # "auto" just over the budget: room for every sentence but one
    sent = _sent(compress(QUESTION, [hit(1, text)], "auto", budget)[0])
    assert sent == ["The weather was mild.", "The lantern festival opens at the north gate.",
                    "Buses stop at the river.", "Lanterns hang at the gate in spring."]


def test_rare_question_words_weigh_more_than_common_ones():
    """"festival" is in every sentence, "lantern" in one: that one is the best, whatever the order."""
    sentences = [f"The festival has stall number {n}." for n in range(6)]
    sentences.insert(4, "A lantern stands here.")
    out = compress("lantern festival", [hit(1, " ".join(sentences))], "always", 10_000)
    spans = sentence_spans(out[0].text)
    best = [out[0].text[a:b] for a, b in spans].index("A lantern stands here.")
    assert sorted(out[0].focus)[0] == spans[best - 1]  # the best one with its neighbours comes first
    assert spans[best] in out[0].focus and spans[best + 1] in out[0].focus


def test_headings_of_a_passage_that_sends_something_stay():
    text = ("# Spring events\n\nCats sleep on walls. Dogs bark at night. The lantern festival opens at the north "
            "gate. Birds sing early. Frogs croak late.\n\n# Winter\n\nThe lake freezes.")
    out = compress(QUESTION, [hit(1, text), hit(2, "# Other\n\nNothing of use here at all.")], "always", 10_000)
    assert _sent(out[0]) == ["# Spring events", "Dogs bark at night.", "The lantern festival opens at the north gate.",
                             "Birds sing early.", "# Winter"]  # the headings are no neighbours of the best one
    assert out[1].focus == NOTHING  # a passage that sends nothing keeps no heading either


def test_the_best_sentence_may_be_the_very_last_one():
    out = compress(QUESTION, [hit(1, "Cats sleep. Dogs bark."), hit(2, "Birds sing. The lantern festival opens.")],
                   "always", 10_000)
    assert _sent(out[1]) == ["Birds sing.", "The lantern festival opens."] and out[0].focus == NOTHING


def _auto_all_but_one(question: str, text: str, **kwargs) -> list[str]:
    """The sentences sent when the budget leaves room for all of them but a token: only the score decides."""
    return _sent(compress(question, [hit(1, text)], "auto", count_tokens(text) - 1, **kwargs)[0])


def test_a_word_every_sentence_shares_scores_nothing():
    text = ("The festival has food. The festival has music. The lantern festival opens at the gate. "
            "The festival has games. The festival has rides. The festival has a lantern parade.")
    assert _auto_all_but_one("lantern festival", text) == [
        "The festival has music.", "The lantern festival opens at the gate.", "The festival has games.",
        "The festival has a lantern parade."]


def test_a_question_matching_nothing_sends_the_first_sentence_and_its_neighbour():
    text = "Cats sleep on walls. Dogs bark at night. Birds sing early. Frogs croak late."
    assert _auto_all_but_one("Where does the lantern festival open?", text) == [
        "Cats sleep on walls.", "Dogs bark at night."]


def test_without_a_similarity_the_dense_weight_adds_nothing():
    text = ("Cats sleep on walls. Dogs bark at night. The lantern festival opens at the gate. Frogs croak late. "
            "Birds sing early. Owls hoot.")
    assert _auto_all_but_one(QUESTION, text, dense_weight=0.5) == _auto_all_but_one(QUESTION, text) == [
        "Dogs bark at night.", "The lantern festival opens at the gate.", "Frogs croak late."]


def test_the_similarity_is_not_asked_when_meaning_weighs_nothing():
    asked = []

    def similarity(question: str, sentences: list[str]) -> list[float]:
        asked.append(question)
        return [0.5] * len(sentences)

    compress(QUESTION, [hit(1, FESTIVAL)], "always", 10_000, similarity, dense_weight=0.0)
    assert asked == []
    compress(QUESTION, [hit(1, FESTIVAL)], "always", 10_000, similarity, dense_weight=0.3)
    assert asked == [QUESTION]


def test_keyword_and_meaning_are_each_scaled_before_they_are_mixed():
    """Half and half: the sentence meaning prefers wins over the one with the question's words, because both scores
    run from 0 to 1; unscaled word weights (idf sums above 1) would drown the meaning."""
    text = ("Stalls sell sweet rice balls. Lantern festival gate opens north every spring season. Cats sleep. "
            "Dogs bark. Frogs croak. Birds sing.")

    def similarity(question: str, sentences: list[str]) -> list[float]:
        return [1.0 if "rice" in s else 0.0 for s in sentences]

    out = compress("lantern festival gate north spring season rice", [hit(1, text)], "auto",
                   count_tokens("Stalls sell sweet rice balls. Lantern festival gate opens north every spring "
                                "season."), similarity, dense_weight=0.5)
    assert _sent(out[0]) == ["Stalls sell sweet rice balls.", "Lantern festival gate opens north every spring season."]


def test_shared_words_are_scaled_from_the_least_matching_sentence():
    """Every sentence says "festival"; only one says "lantern", and meaning leans a little to another sentence:
    scaled from its lowest to its highest, the word score still decides."""
    text = ("The festival has a lantern. The festival has music. The festival has food. The festival has games. "
            "The festival has rides. The festival has a choir.")

    def similarity(question: str, sentences: list[str]) -> list[float]:
        return [0.4 if "lantern" in s else 1.0 if "choir" in s else 0.0 for s in sentences]

    first = "The festival has a lantern. The festival has music."
    out = compress("lantern festival", [hit(1, text)], "auto", count_tokens(first), similarity, dense_weight=0.5)
    assert _sent(out[0]) == ["The festival has a lantern.", "The festival has music."]


def test_a_sentence_fits_when_it_fills_the_budget_exactly():
    best_group = count_tokens(BEFORE) + count_tokens(BEST) + count_tokens(AFTER)
    text = FESTIVAL + " The north gate has a lantern."
    budget = best_group + count_tokens("The north gate has a lantern.")
    assert "The north gate has a lantern." in _sent(compress(QUESTION, [hit(1, text)], "auto", budget)[0])
    assert "The north gate has a lantern." not in _sent(compress(QUESTION, [hit(1, text)], "auto", budget - 1)[0])


def test_a_sentence_too_long_for_the_rest_of_the_budget_is_passed_over_not_the_end():
    long = "The lantern festival gate " + "and the lantern gate " * 12 + "opens."
    short = "A lantern."
    text = f"Cats sleep. {BEST} Dogs bark. Frogs croak. {long} Birds sing. {short}"
    group = sum(count_tokens(s) for s in ("Cats sleep.", BEST, "Dogs bark."))
    out = _sent(compress(QUESTION, [hit(1, text)], "auto", group + count_tokens(short))[0])
    assert long not in out and short in out


def _fair(n: int) -> str:
    """Forty sentences, every other one about the question."""
    return " ".join(f"The festival has stall number {i} by the lantern gate." if i % 2 else
                    f"Rain fell on day {i} of the month." for i in range(n))


def test_always_keeps_at_most_its_share_of_the_tokens():
    text = _fair(40)
    before = count_tokens(text)
    out = compress("festival lantern stall", [hit(1, text)], "always", 10_000)
    sent = sum(count_tokens(s) for s in _sent(out[0]))
    assert 0.45 * before <= sent <= KEEP_SHARE * before
    assert all("festival" in s for s in _sent(out[0])[3:])  # the first match and its neighbours, then matches only


def test_auto_compresses_down_to_the_budget_and_off_or_under_it_leaves_the_passages():
    hits = [hit(1, _fair(40)), hit(2, FESTIVAL)]
    total = sum(count_tokens(h.text) for h in hits)
    assert compress(QUESTION, hits, "auto", total) == hits  # exactly at the budget: as given
    out = compress(QUESTION, hits, "auto", 100)
    assert sum(count_tokens(s) for h in out for s in _sent(h)) <= 100
    assert BEST in _sent(out[1])
    assert compress(QUESTION, hits, "off", 1) == hits
    assert compress(QUESTION, [], "always", 1) == []


def test_the_best_group_is_sent_even_over_the_budget():
    out = compress(QUESTION, [hit(1, FESTIVAL)], "auto", 1)
    assert _sent(out[0]) == [BEFORE, BEST, AFTER]


def test_passages_without_sentences_are_left_as_given():
    hits = [hit(1, "   "), hit(2, "")]
    assert compress(QUESTION, hits, "always", 1) == hits


def test_meaning_decides_in_the_proportion_of_the_dense_weight():
    """A similarity preferring the sentence about rice balls wins with weight 1 and loses with weight 0."""
    def similarity(question: str, sentences: list[str]) -> list[float]:
        return [1.0 if "rice balls" in s else 0.1 for s in sentences]

    meaning = compress(QUESTION, [hit(1, FESTIVAL)], "always", 10_000, similarity, dense_weight=1.0)
    assert sorted(meaning[0].focus)[1] == sentence_spans(FESTIVAL)[3]  # rice balls, with its neighbours
    assert "Parking is hard to find." in _sent(meaning[0])
    words = compress(QUESTION, [hit(1, FESTIVAL)], "always", 10_000, similarity, dense_weight=0.0)
    assert _sent(words[0]) == [BEFORE, BEST, AFTER]


def test_the_prompt_shows_the_focus_in_order_with_gaps_marked():
    text = "One. Two. Three. Four."
    spans = sentence_spans(text)
    shown = Hit(1, 1.0, "/d/a.txt", None, "", text, focus=(spans[3], spans[0]))
    assert sent_text(shown) == "One." + GAP + "Four."
    adjacent = Hit(1, 1.0, "/d/a.txt", None, "", text, focus=(spans[1], spans[0], (3, 3)))
    assert sent_text(adjacent) == "One. Two."  # a gap of spaces is kept as it is; an empty span adds nothing
    assert sent_text(Hit(1, 1.0, "/d/a.txt", None, "", text, focus=NOTHING)) == GAP.strip()
    assert sent_text(Hit(1, 1.0, "/d/a.txt", None, "", text)) == text


@pytest.mark.parametrize("text, sentences", [
    ("Hello world.  Second   one!\n\nThird?", ["Hello world.", "Second   one!", "Third?"]),
    ("第一句。第二句！第三句？", ["第一句。", "第二句！", "第三句？"]),
    ("", []),
])
def test_sentence_spans_are_found_in_the_raw_text(text, sentences):
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences


WORDS = {"a": "lantern", "b": "harbor", "c": "violin", "d": "copper"}


@pytest.mark.parametrize("sentences, best", [
    (["acd", "acd", "bd", "acd", "c", "ad", "acd", "a", "ac", "ac"], 2),
    (["d", "b", "bc", "cd", "ab", "bd", "c", "ab", "bd"], 4),
    (["a", "bc", "bc", "bc", "bc", "bc"], 1),
])
def test_word_weights_follow_how_few_sentences_hold_each_word(sentences, best):
    """Sentences holding the question's four words in these combinations: the weights log(1 + (n + 1) / (1 + df))
    pick this best sentence (found by a search for combinations where nearby weightings pick another)."""
    text = " ".join(f"Item {i} has " + " and ".join(WORDS[w] for w in held) + "." for i, held in enumerate(sentences))
    out = compress("lantern harbor violin copper", [hit(1, text)], "auto", 1)  # the best sentence and its neighbours
    spans = sentence_spans(text)
    assert [spans.index(span) for span in sorted(out[0].focus)] == [best - 1, best, best + 1]
