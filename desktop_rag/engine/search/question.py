"""The question as one search sees it, worked out once and passed along: its normalised text, its languages and
script shares, its translations by a language model (translation.py) and its dictionary glosses (gloss.py).

Every stage reads what it needs from here (the translator which languages to ask for, calibration which
language to centre on, retrieval which passages are "other language", fusion the dense weight), so a question's
language is decided once per search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from desktop_rag.engine.search.fusion import script_shares
from desktop_rag.engine.search.gloss import gloss
from desktop_rag.engine.search.translation import Completer, translations
from desktop_rag.engine.store.languages import library_languages
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.language import text_languages
from desktop_rag.engine.text.lexicon import Lexicon
from desktop_rag.engine.text.topics import Topics

# a question is searched by its first this many characters (after white space is collapsed): the embedding model
# reads about 512 tokens of it anyway, and each further 2,000 characters of a pasted page cost it about a quarter
# of a second here, the keyword search a term each (a 120,000-character question took 55 s under load)
SEARCHED_CHARS = 2000


@dataclass(frozen=True)
class Version:
    """The question in one language, as searched: its text, languages and script shares."""

    text: str
    languages: frozenset[str]
    shares: Mapping[str, float] = field(compare=False, hash=False)

    @classmethod
    def of(cls, text: str) -> Version:
        return cls(text, frozenset(text_languages(text)), script_shares(text))


@dataclass(frozen=True)
class Question:
    """`asked`: the question (normalised: runs of white space made one space); `translations`: (language, text)
    by a language model; `others`: those translations as searched; `glosses`: the question's words in each library
    language that neither it nor a translation is written in (keyword evidence only); `topics`: its topic terms in
    the library (text/topics.py; the search's topic signal, signals.py)."""

    text: str
    asked: Version
    translations: tuple[tuple[str, str], ...] = ()
    others: tuple[Version, ...] = ()
    glosses: tuple[str, ...] = ()
    topics: Topics = Topics()

    @property
    def normalised(self) -> str:
        return self.asked.text

    @property
    def versions(self) -> tuple[Version, ...]:
        """The question, then each translation."""
        return (self.asked, *self.others)

    @property
    def languages(self) -> frozenset[str]:
        """Every language the question is searched in (as asked and translated)."""
        return frozenset().union(*(v.languages for v in self.versions))


def plain(text: str) -> Question:
    """A question searched as asked (by its first SEARCHED_CHARS characters): no translation, no gloss."""
    return Question(text, Version.of(searched_text(text)))


def searched_text(text: str) -> str:
    """What of a question is searched and compared with sentences: white space collapsed, at most SEARCHED_CHARS."""
    return " ".join(text.split())[:SEARCHED_CHARS]


def question(text: str, store: Store, translator: Completer | None = None, cancel: threading.Event | None = None,
             lexicon: Callable[[], Lexicon | None] | None = None) -> Question:
    """The question with its translations (`translator`: a language model, or None; `cancel` stops waiting for it)
    and, with a word list, its glosses into the library's languages it is not written in."""
    asked = plain(text)
    translated = tuple(translations(asked.normalised, store, translator, cancel, asked.asked.languages))
    found = Question(text, asked.asked, translated, tuple(Version.of(t) for _, t in translated))
    words = lexicon() if lexicon is not None and found.languages else None
    if words is None:
        return found
    missing = sorted(library_languages(store) - found.languages)
    glosses = tuple(g for g in (gloss(found.normalised, lang, words) for lang in missing) if g)
    return Question(text, found.asked, found.translations, found.others, glosses)
