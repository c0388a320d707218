"""Extractive answers: relevant sentences, right citations, labels in the question's language."""

from __future__ import annotations

from desktop_rag.engine.answer.citations import clean_citations
from desktop_rag.engine.answer.extractive import extractive_answer, split_sentences
from desktop_rag.engine.store.values import Hit


def cited(text: str) -> list[int]:
    """Every cited number in order of first use (clean_citations' second part, all numbers valid)."""
    return clean_citations(text, 10_000)[1]


def hit(n: int, text: str) -> Hit:
    return Hit(chunk_id=n, score=1.0, path=f"/docs/{n}.txt", page=None, heading="", text=text)


HITS = [
    hit(1, "The office opens at 9 am. Parking is free for staff. The cafeteria serves lunch from noon."),
    hit(2, "Employees get 25 days of annual leave per year.\nLeave requests go to your manager."),
    hit(3, "员工每年享有十五天带薪年假。年假需要提前一周申请。公司食堂中午十二点开饭。"),
    hit(4, "新办公室位于科技园区三号楼五层。新办公室提供免费停车位。"),
]


def test_english_question_cites_the_right_passage():
    answer = extractive_answer("How many days of annual leave do employees get?", HITS)
    assert "language model" not in answer  # the one notice is the DoneEvent's (answering.py)
    assert "Employees get 25 days of annual leave per year. [2]" in answer
    assert cited(answer) == [2]
    assert "cafeteria" not in answer and "员工" not in answer


def test_chinese_question_cites_the_right_passage_and_label_is_chinese():
    answer = extractive_answer("员工有多少天年假？", HITS)
    assert "语言模型" not in answer
    assert "员工每年享有十五天带薪年假。 [3]" in answer
    assert cited(answer) == [3]


def test_chinese_where_question():
    answer = extractive_answer("新办公室在哪里？", HITS)
    assert "三号楼" in answer and cited(answer)[0] == 4


def test_citation_is_position_in_hits():
    answer = extractive_answer("When does the cafeteria serve lunch?", HITS[::-1])
    assert "The cafeteria serves lunch from noon. [4]" in answer


def test_nothing_relevant():
    assert "don't seem to contain" in extractive_answer("What is quantum chromodynamics?", HITS)
    assert "没有" in extractive_answer("量子色动力学是什么？", HITS[:2])
    assert "don't seem to contain" in extractive_answer("What?", [])


def test_max_sentences_and_no_duplicates():
    many = [hit(1, "Leave is 25 days. Leave needs approval. Leave carries over. Leave is paid.")]
    lines = [ln for ln in extractive_answer("leave", many, max_sentences=2).splitlines() if ln.startswith("- ")]
    assert len(lines) == 2 and len(set(lines)) == 2
    # Overlapping chunks repeat a sentence (here in another case): without the filter the repeat is the
    # second-best sentence and would be quoted twice, once per passage.
    dup = [hit(1, "Leave is 25 days."), hit(2, "leave is 25 days. Leave needs approval.")]
    assert sorted(extractive_answer("leave days approval", dup, max_sentences=3).splitlines()) == [
        "- Leave is 25 days. [1]", "- Leave needs approval. [2]"]


def test_sentence_splitting():
    assert split_sentences("他说：“好的。”然后走了！真的吗？") == ["他说：“好的。”", "然后走了！", "真的吗？"]
    assert split_sentences("See e.g. the docs. Next one!\nwrapped\nline.") == ["See e.g. the docs.", "Next one!", "wrapped line."]
    assert split_sentences("# Title\n- item one\n- item two") == ["# Title", "- item one", "- item two"]


def test_a_passage_in_another_language_is_quoted_by_meaning_and_the_topic_decides_which():
    from desktop_rag.engine.answer.extractive import best_sentences
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.engine.text.topics import Topic, Topics

    tea = Hit(1, 0.7, "绿茶.md", None, "", "绿茶是中国最常见的茶类之一。冲泡绿茶的水温一般在八十度左右。绿茶应当密封保存。")
    coffee = Hit(2, 1.0, "coffee.txt", None, "", "The ideal water temperature for brewing is 90 to 96 degrees.")
    asked: list[list[str]] = []

    def similarity(question: str, sentences: list[str]) -> list[float]:
        asked.append(sentences)
        return [0.9 if "八十度" in s else 0.95 if "96" in s else 0.5 for s in sentences]

    question = "How hot should the water be when making green tea?"
    green_tea = Topics((Topic("green tea", ("绿茶",), 2.0),))  # the runtime's, by the word list (text/topics.py)
    picked = best_sentences(question, [coffee, tea], similarity=similarity, topics_of=lambda _: green_tea)
    assert picked[0].text == "冲泡绿茶的水温一般在八十度左右。" and picked[0].hit_index == 1 and asked
    # the coffee passage ranks first and its sentence is closer in meaning, but it names no green tea
    assert all("degrees" not in s.text for s in picked)
