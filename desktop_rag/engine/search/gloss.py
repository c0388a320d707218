"""A question's words in the library's other language, by dictionary (text/lexicon.py): keyword evidence for
passages in that language, with no language model.

Not a translation: English words become the Chinese headwords CC-CEDICT gives them (longest phrase first, two
headwords per phrase), and a Chinese question, cut into the longest headwords it holds, becomes the English words
of their first senses. Searched as keywords (BM25 over the same FTS5 index), such a bag of words finds the
passage that says the same thing in the other language much better than its meaning alone does (measured in
fusion.py's docstring); wrong senses mostly match nothing.
"""

from __future__ import annotations

from desktop_rag.engine.text.lexicon import MAX_PHRASE_WORDS, MAX_WORD, WORD, Lexicon, plain_forms
from desktop_rag.engine.text.terms import ENGLISH_STOPWORDS, HAN_RUN
from desktop_rag.engine.text.topics import CHINESE_FUNCTION_WORDS

MAX_GLOSS_CHARS = 500  # a long question is glossed by its beginning only (lookups are per character)
MAX_GLOSS_WORDS = 64


def gloss(question: str, language: str, lexicon: Lexicon) -> str:
    """The question's words in `language` ("zh" or "en"), space-separated; "" when none are known."""
    question = question[:MAX_GLOSS_CHARS]
    words = _into_chinese(question, lexicon) if language == "zh" else _into_english(question, lexicon)
    return " ".join(dict.fromkeys(words))


def _into_chinese(question: str, lexicon: Lexicon) -> list[str]:
    words = WORD.findall(question.lower())[:MAX_GLOSS_WORDS]
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            found = _phrase(words[i:i + n], lexicon)
            if found:
                out.extend(found.split())
                i += n
                break
        else:
            i += 1
    return out


def _phrase(words: list[str], lexicon: Lexicon) -> str | None:
    """Headwords for a phrase of several words, or for one word that is not a stopword (or its plain form)."""
    if len(words) > 1:
        return lexicon.chinese(" ".join(words))
    word = words[0]
    if word in ENGLISH_STOPWORDS:
        return None
    return next((found for form in plain_forms(word) if (found := lexicon.chinese(form))), None)


def _into_english(question: str, lexicon: Lexicon) -> list[str]:
    out: list[str] = []
    for run in HAN_RUN.findall(question):
        i = 0
        while i < len(run) and len(out) < MAX_GLOSS_WORDS:
            for n in range(min(MAX_WORD, len(run) - i), 0, -1):
                english = lexicon.english(run[i:i + n])
                if english is not None:
                    if run[i:i + n] not in CHINESE_FUNCTION_WORDS:
                        out.extend(w for w in english.split() if w not in ENGLISH_STOPWORDS)
                    i += n
                    break
            else:
                i += 1
    out.extend(w for w in WORD.findall(question.lower()) if w not in ENGLISH_STOPWORDS)  # names, numbers as asked
    return out
