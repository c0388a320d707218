"""Is a question asking for the gist of one document? ("总结一下 X", "what is X about", "summarise X")

Two steps, both required: the question has the shape of a summary request (SHAPES: an imperative "summarise /
sum up / give an overview of / 总结 / 概括 / 归纳 X", or "what is X about / what does X say / X 讲了什么 / X 的主要
内容"), and its target names one document: the file in scope for a deictic target ("this document", "it", "这份
报告", or nothing), else the one library file whose name holds every word of the target (Chinese: the target
inside the name, or the name inside the target), the one with the fewest other words when several do; a tie is
no match. Anything else is an ordinary question (top-k passages).

Cases that fooled the first rule (shape alone), now answered as questions: "What is photosynthesis about?" (no
file of that name), "Summarise what the report says about costs" and "总结一下报告中的预算部分" (a part of a
document: `FOCUSED`), "what does the guide say about grinding?" (the shape ends at "say", not at a topic), and
"summarise the meeting" where two files are named "meeting" (ambiguous).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from desktop_rag.engine.store import passages
from desktop_rag.engine.store.scope import Restriction
from desktop_rag.engine.store.library import Store
from desktop_rag.engine.text.terms import has_han

_EN_SHAPES = (
    re.compile(r"^(?:please\s+|can you\s+|could you\s+)?(?:summari[sz]e|sum up|recap|give me (?:a |an )?(?:summary|"
               r"overview|gist) of|(?:a |an )?(?:summary|overview|tl;?dr) of)(?:\s+(?P<target>.*?))?[\s.?!]*$", re.I),
    re.compile(r"^what(?:'s| is| are)\s+(?:the\s+)?(?:gist|summary|main points?|point) of\s+(?P<target>.+?)[\s.?!]*$",
               re.I),
    re.compile(r"^what(?:'s| is| are)\s+(?P<target>.+?)\s+(?:all\s+)?about[\s.?!]*$", re.I),
    re.compile(r"^what does\s+(?P<target>.+?)\s+say[\s.?!]*$", re.I),
)
_ZH_SHAPES = (
    re.compile(r"^(?:请|请你|麻烦|帮我|请帮我)*(?:总结|概括|归纳|概述|摘要)(?:一下|下)?(?P<target>.+?)[\s。？?！!]*$"),
    re.compile(r"^(?P<target>.+?)(?:讲了什么|说了什么|讲的是什么|讲什么|写了什么|是关于什么的?|主要内容是什么|的主要内容|的要点|"
               r"的概要|的摘要)[\s。？?！!]*$"),
)
# a part of a document, not its gist
FOCUSED = re.compile(r"\b(?:about|regarding|on the topic of)\b.+|\bwhat\b.+\bsays?\b|中的|里的|里面的|关于|部分|章节|第.+[章节]",
                     re.I)
_DEICTIC = re.compile(r"^(?:(?:this|the|that|current|open)\s+)?(?:document|file|paper|report|pdf|text|it|one)?$|"
                      r"^(?:这|那|本|此|该)(?:份|个|篇|本)?(?:文档|文件|报告|论文|资料|文章|材料)?$", re.I)
_EN_FILLER = re.compile(r"\b(?:the|a|an|this|that|my|our|document|file|doc|pdf|please)\b", re.I)
_ZH_FILLER = re.compile(r"^(?:一下|下)|(?:这|那|本|此|该)(?:份|个|篇|本)|(?:文档|文件)$")
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+")


def summary_target(question: str, names: Iterable[str], scoped: str | None = None) -> str | None:
    """The path (from `names`, the library's files in scope) whose summary the question asks for, or None."""
    target = _target(question)
    if target is None:
        return None
    if _DEICTIC.match(target.strip(" \"'“”‘’「」《》")):
        return scoped
    return _named(target, names)


def summary_shaped(question: str) -> bool:
    """The question has a summary request's shape (cheap, no library read): a front end asks the engine for the
    summary's plan, to show its estimate first, only then."""
    return _target(question) is not None


def question_language(question: str, target: str) -> str:
    """The summary's language: the question's own ("zh" when it has Chinese beside the file's name), else "en"."""
    return "zh" if has_han(question.replace(os.path.splitext(os.path.basename(target))[0], "")) else "en"


def _target(question: str) -> str | None:
    """The document a summary-shaped question names (maybe "this document"), or None for another question."""
    text = " ".join(question.split())
    for shape in (*_EN_SHAPES, *_ZH_SHAPES):
        found = shape.match(text)
        if found:
            target = (found.group("target") or "").strip()
            return None if FOCUSED.search(target) else target
    return None


def _named(target: str, names: Iterable[str]) -> str | None:
    """The one file whose name holds the target's words (fewest others wins; a tie is None)."""
    cleaned = re.sub(r"\.[a-z0-9]{1,5}$", "", target.strip(" \"'“”‘’「」《》").lower())  # a typed extension
    cleaned = _ZH_FILLER.sub("", _EN_FILLER.sub(" ", cleaned)).strip()
    wanted = _WORD.findall(cleaned)
    if not wanted:
        return None
    best: list[tuple[int, str]] = []
    for path in names:
        stem = os.path.splitext(os.path.basename(path))[0].lower()
        words = _WORD.findall(stem.replace("_", " ").replace("-", " "))
        if all(_has(words, stem, w) for w in wanted):
            best.append((len(words) - len(wanted), path))
    best.sort()
    if not best or (len(best) > 1 and best[0][0] == best[1][0]):
        return None
    return best[0][1]


def _has(words: list[str], stem: str, wanted: str) -> bool:
    """A target word is in the file name: the same word, or (Chinese) inside the name or holding it."""
    if wanted in words:
        return True
    if re.match(r"[\u4e00-\u9fff]", wanted):
        return wanted in stem or any(len(w) >= 2 and w in wanted for w in words if re.match(r"[\u4e00-\u9fff]", w))
    return len(wanted) >= 4 and any(w.startswith(wanted) or wanted.startswith(w) and len(w) >= 4 for w in words)


def asked_summary(store: Store, question: str, within: Restriction) -> tuple[str, str] | None:
    """(the library's file, the summary's language) when `question` asks for the summary of one document in
    `within` (`Engine.ask` then writes that summary), else None."""
    target = summary_target(question, passages.files_with_text(store, within),
                            within.files[0] if len(within.files) == 1 else None)
    return None if target is None else (target, question_language(question, target))
