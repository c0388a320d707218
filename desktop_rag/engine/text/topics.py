"""What a question is about: its topic terms, the rarest content words it holds, in either language.

"绿茶用多少度的水？" is about 绿茶 (green tea), not about water or degrees; "泡龙井用什么温度的水？" about 龙井, the
temperature being what it asks. A passage that names none of a question's topic terms (the coffee guide for both)
is not about it, however close its words or its meaning come. The topic terms are the question's content words
(a Chinese question cut into the word list's headwords, English words and the word list's two- and three-word
phrases), less the words of asking (多少, 谁, how many, when) and the thing asked for ("什么温度", "what year"),
weighted by rarity: the inverse of how many of the library's passages name them (`frequency`, from the keyword
index), so "水" / "water" weigh little and "龙井" much. Each term carries its renderings in the other language
(the word list: 绿茶 -> green, tea; water -> 水), so a passage in either language can be found to name it.

Used by the extractive answer (answer/selection.py: a sentence from a passage naming none of the topic terms never
leads) and by the search's ranking (search/): a passage naming none of them ranks below one that names them unless
its meaning is far closer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from desktop_rag.engine.text.language import text_languages
from desktop_rag.engine.text.lexicon import MAX_PHRASE_WORDS, MAX_WORD, WORD, Lexicon, plain_forms
from desktop_rag.engine.text.terms import HAN_RUN, QUESTION_STOPWORDS, fold, stem

MAX_QUESTION_CHARS = 300  # a longer question is read by its beginning (lookups are per character)
RENDERINGS = 2  # other-language words kept per term: the word list's first ones (later ones drift: "大学" -> "great learning")
TOPIC_SHARE = 0.5  # the topic terms: content words at least this share of the rarest one's weight

# Chinese words of asking and grammar: their senses ("what", "is", "of") say nothing of a topic (search/gloss.py too)
CHINESE_FUNCTION_WORDS = frozenset(
    "什么 哪 哪个 哪些 哪里 哪儿 多少 几 谁 何 何时 怎么 怎样 如何 为什么 为何 是 的 了 在 和 与 有 被 把 吗 呢 么 个 "
    "这 那 其 他 她 它 他们 之 于 以 为 及 或 由 对 从 到 中 上 下 时".split()
)
_SINGLE_FUNCTION = frozenset("的了是在和与及或吗呢吧啊么个这那其之于以为由对从到中上下时把被给向跟比用将就也都还又很最更哪谁几什怎")
# more words that ask or frame a question rather than name its topic
_CHINESE_ASKING = frozenset(
    "哪一 哪一年 哪年 哪位 哪种 哪家 哪座 哪条 几个 几次 几年 多久 多长 多大 多高 多远 多重 什么样 怎么样 什么时候 "
    "何处 何人 应该 应当 可以 能够 需要 一般 通常 主要 哪些人 是否 是不是 有没有 叫做 称为 名字 名称 有时 关于 对于 之间 "
    "什么样的 哪一种 哪一位 哪一个 之一 其中 一些 有些 这些 那些 这个 那个 以及 因为 所以 但是 如果 目前 现在 当时 曾经 已经 "
    "意味着 包括 属于 成为 作为 通过 进行 发生 出现 提出 得到 具有 称作 被称为".split()
)
_ENGLISH_ASKING = frozenset(
    "name named called call kind type sort many much long old often far big large high tall hot cold "
    "year years date time day number amount percent percentage happen happened occur occurred make made use used "
    "get got give given take took say said mean means known term word best good better ideal main first last new making".split()
)
# "什么温度" / "哪一年" / "what temperature" / "which city": the word after these names what is asked, not the topic
_ASKED_AFTER_ZH = re.compile(r"(?:什么|哪一?个?|多少|几)([\u4e00-\u9fff]{1,4})")
_ASKED_AFTER_EN = re.compile(r"\b(?:what|which|how)\s+([a-z]+)", re.I)


@dataclass(frozen=True)
class Topic:
    """One topic term: the word as the question has it, its renderings in the other language, its weight."""

    word: str
    renderings: tuple[str, ...]
    weight: float

    def named_in(self, text: str, folded: str | None = None) -> bool:
        """Whether `text` names this term, as written or by a rendering (`folded`: `fold(text)`, when known)."""
        folded = fold(text) if folded is None else folded
        return any(_names(form, text, folded) for form in (self.word, *self.renderings))

    def judged_in(self, text: str) -> bool:
        """Whether `text` can tell: it is written in the term's language, or the term is Chinese and the word list
        gives its English (an English word's likeliest headwords are too often another sense, "start" -> 开, 端, so a
        Chinese passage is not judged on an English term)."""
        chinese = bool(HAN_RUN.search(self.word))
        written = text_languages(text)
        return ("zh" in written or bool(self.renderings)) if chinese else "en" in written


@dataclass(frozen=True)
class Topics:
    """A question's topic terms (rarest first); empty when nothing in the library names any of its words.
    `absent`: the share of its content words that no passage names in any form (an unanswerable question's sign)."""

    terms: tuple[Topic, ...] = ()
    absent: float = 0.0

    def coverage(self, text: str) -> float | None:
        """The weighted share (0..1) of the topic terms that `text` names, among those it names or can be judged
        on; None when there are none (no terms, or only terms in another language it does not name)."""
        folded = fold(text)
        named = [t.weight for t in self.terms if t.named_in(text, folded)]
        judged = sum(t.weight for t in self.terms if t.judged_in(text) or t.named_in(text, folded))
        return sum(named) / judged if judged else None

    def named_share(self, text: str) -> float:
        """The weighted share (0..1) of all the topic terms that `text` names: unlike `coverage`, a text naming one
        term of three counts a third even where it cannot be judged on the others (the rows of a Chinese table for
        "department manager" in English: "部门主管" names it, "区域总经理" only "manager")."""
        folded = fold(text)
        total = sum(t.weight for t in self.terms)
        return sum(t.weight for t in self.terms if t.named_in(text, folded)) / total if total else 0.0


def _names(form: str, text: str, folded: str) -> bool:
    if HAN_RUN.search(form):
        return form in text
    word = fold(form)
    return re.search(r"\b" + re.escape(stem(word)), folded) is not None


def content_words(question: str, lexicon: Lexicon | None) -> list[str]:
    """The question's words that may name its topic, in order, without repeats."""
    question = question[:MAX_QUESTION_CHARS]
    asked = {m.group(1) for m in _ASKED_AFTER_EN.finditer(question)}
    asked_zh = {m.group(1) for m in _ASKED_AFTER_ZH.finditer(question)}
    words: list[str] = []
    for run in HAN_RUN.findall(question):
        for word in _segment(run, lexicon):
            if len(word) > 1 and word not in CHINESE_FUNCTION_WORDS and word not in _CHINESE_ASKING \
                    and not any(a.startswith(word) for a in asked_zh):
                words.append(word)
    latin = WORD.findall(re.sub(HAN_RUN, " ", question).lower())
    skipped = {stem(w) for w in (*_ENGLISH_ASKING, *(a.lower() for a in asked))}
    words += [w for w in _english_phrases(latin, lexicon) if w not in QUESTION_STOPWORDS and stem(w) not in skipped]
    return list(dict.fromkeys(words))


def _segment(run: str, lexicon: Lexicon | None) -> list[str]:
    """A Chinese run cut into the word list's longest headwords, a run of characters it does not know as one word
    (a name: "李会晟"); without a word list, its character pairs."""
    if lexicon is None:
        return [a + b for a, b in zip(run, run[1:]) if a not in _SINGLE_FUNCTION and b not in _SINGLE_FUNCTION]
    out: list[str] = []
    unknown = ""
    i = 0
    while i < len(run):
        for n in range(min(MAX_WORD, len(run) - i), 1, -1):
            if lexicon.english(run[i:i + n]) is not None:
                out += [unknown, run[i:i + n]] if unknown else [run[i:i + n]]
                unknown = ""
                i += n
                break
        else:
            if run[i] in _SINGLE_FUNCTION:
                out += [unknown, run[i]] if unknown else [run[i]]
                unknown = ""
            else:
                unknown += run[i]
            i += 1
    return out + [unknown] if unknown else out


def _english_phrases(words: list[str], lexicon: Lexicon | None) -> list[str]:
    """English words, with the word list's two- and three-word phrases ("green tea") kept together (not one that
    begins or ends with a stopword: "do not", "want to")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 1, -1):
            phrase = " ".join(words[i:i + n])
            if words[i] in QUESTION_STOPWORDS or words[i + n - 1] in QUESTION_STOPWORDS:
                continue
            if lexicon is not None and lexicon.chinese(phrase) is not None:
                out.append(phrase)
                i += n
                break
        else:
            out.append(words[i])
            i += 1
    return out


def renderings(word: str, lexicon: Lexicon | None) -> tuple[str, ...]:
    """The word in the other language by the word list: a Chinese word's first English words, an English word's
    (or phrase's) likeliest Chinese headwords."""
    if lexicon is None:
        return ()
    if HAN_RUN.search(word):
        found = lexicon.english(word) or ""
        english = [w for w in found.split() if w not in QUESTION_STOPWORDS and len(w) > 2]
        return tuple(english[:RENDERINGS])
    found = next((c for form in plain_forms(word) if (c := lexicon.chinese(form))), "")
    return tuple(found.split())[:RENDERINGS]


def topics(question: str, lexicon: Lexicon | None, frequency: Callable[[str], int], passages: int) -> Topics:
    """The question's topic terms: its content words that some passage of the library names (as written or by a
    rendering), weighted by rarity (`frequency`: how many passages hold a word; `passages`: how many there are),
    those at least TOPIC_SHARE of the rarest one's weight kept, rarest first."""
    found: list[Topic] = []
    words = content_words(question, lexicon)
    for word in words:
        forms = renderings(word, lexicon)
        count = sum(frequency(form) for form in (word, *forms))
        if count > 0:
            found.append(Topic(word, forms, math.log(1.0 + passages / count)))
    absent = 1.0 - len(found) / len(words) if words else 0.0
    if not found:
        return Topics(absent=absent)
    top = max(t.weight for t in found)
    kept = sorted((t for t in found if t.weight >= TOPIC_SHARE * top), key=lambda t: -t.weight)
    return Topics(tuple(kept), absent)
