"""Does a text shown in Chinese still hold an English sentence? Values it quotes (file names in “…”, commands in
`…`, paths, product names) are not sentences."""

from __future__ import annotations

import re

_QUOTED = re.compile(r"“[^”]*”|`[^`]*`|'[^']*'|\"[^\"]*\"|\S*[/\\]\S*")
_NAMES = re.compile(r"LibreOffice( \w+)?|OpenDocument|PowerPoint|Microsoft Word|Word|Excel|Desktop RAG|Ollama|LM Studio")
_NOT_WORDS = re.compile(r"[^A-Za-z'\u3000-\u9fff\uff00-\uffef]+")  # Chinese and its punctuation end a run
_KEPT = {"recall", "precision", "nDCG", "N", "P", "Esc", "JSON", "Lines", "Desktop", "RAG"}  # names, keys, metrics
_SENTENCE = re.compile(r"[A-Za-z']+(?: [A-Za-z']+){3,}")  # four words or more in a row


def english_sentence(text: str) -> str | None:
    """The first run of four or more English words in `text` outside quoted values and names, else None."""
    found = _SENTENCE.search(_NOT_WORDS.sub(" ", _NAMES.sub(" ", _QUOTED.sub(" ", text))))
    return found.group(0) if found else None


def english_words(text: str) -> set[str]:
    """Every English word in `text` (a Chinese text should have none), but the names, keys and metrics kept as they
    are (recall, nDCG, Esc, JSON, Desktop RAG, ...)."""
    return set(re.findall(r"[A-Za-z]+", text)) - _KEPT
