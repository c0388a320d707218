"""The supported types said in words and as a file dialog's filter, from the engine's reader registry."""

from __future__ import annotations

from desktop_rag.engine import suffix_patterns, type_labels


def types_phrase(lang: str) -> str:
    """The supported formats for a sentence: "PDF, Word .docx, .md, .txt and images" (or in Chinese), from the
    engine's reader registry."""
    names = type_labels(lang)
    if lang == "zh":
        return "、".join(names[:-1]) + " 和" + names[-1]
    return ", ".join(names[:-1]) + " and " + names[-1]


def file_filter(documents: str, all_files: str) -> str:
    """A file dialog filter: every supported suffix under `documents`, then `all_files` (*)."""
    return f"{documents} ({suffix_patterns()});;{all_files} (*)"
