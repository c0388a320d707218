"""The demo's lines (`desktop-rag demo`, `--self-test`, and the window's place on a computer without a display), in
English and Chinese: one table, said in the locale's language by `say`. The self-test sits below the command line,
so its lines are its own table, filled by the engine's formatter (`worded`) as `cli/texts.py`'s are."""

from __future__ import annotations

from desktop_rag.engine import locale_language, worded

TEXTS: dict[str, dict[str, str]] = {
    "indexing": {"en": "Indexing the sample documents in {samples} into a temporary library ({home}) ...",
                 "zh": "正在把 {samples} 中的示例文档索引到一个临时资料库（{home}）..."},
    "indexed": {"en": "  {counts} embedded with {model} in {seconds:.1f} s",  # {counts}: "6 files, 12 chunks"
                "zh": "  {counts}，已用 {model} 嵌入，用时 {seconds:.1f} 秒"},
    "search": {"en": "Search: {question}\n  top passage from {file} (score {score:.3f})",
               "zh": "搜索：{question}\n  最佳段落来自 {file}（得分 {score:.3f}）"},
    "answer": {"en": "  answer: {answer}", "zh": "  回答：{answer}"},
    "scanned": {"en": "Scanned page: {file} read by OCR in {seconds:.1f} s\n  search: {question}\n  top passage: {text}",
                "zh": "扫描页：{file} 已通过文字识别（OCR）读取，用时 {seconds:.1f} 秒\n  搜索：{question}\n  最佳段落：{text}"},
    "passed": {"en": "Self-test passed.", "zh": "自检通过。"},
    "failed": {"en": "SELF-TEST FAILED: {why}", "zh": "自检失败：{why}"},
    # {why} of "failed"; a {question} is quoted as “…”
    "no_samples": {"en": "sample documents not found at {folder}", "zh": "在 {folder} 找不到示例文档"},
    "no_scanned": {"en": "the scanned sample page was not found at {folder}", "zh": "在 {folder} 找不到扫描的示例页"},
    "file_failed": {"en": "indexing {path} failed: {why}", "zh": "索引 {path} 失败：{why}"},  # {why}: its reason
    "too_few": {"en": "only {added} of the sample documents were indexed", "zh": "只有 {added} 个示例文档被索引"},
    "scanned_not_read": {"en": "the scanned sample page was not indexed", "zh": "扫描的示例页没有被索引"},
    "found_other": {"en": "the search for “{question}” found {found}, expected {expected}",
                    "zh": "搜索“{question}”找到的是 {found}，应为 {expected}"},
    "found_nothing": {"en": "nothing", "zh": "空结果"},
    "not_recognised": {"en": "the recognised text of {file}", "zh": "{file} 经文字识别得到的文本"},
    "answer_failed": {"en": "answering “{question}” failed: {why}", "zh": "回答“{question}”失败：{why}"},
    "answer_wrong": {"en": "the extractive answer to “{question}” is wrong: {answer}",
                     "zh": "“{question}”的摘录式回答不对：{answer}"},
}


def say(key: str, /, **values: object) -> str:
    """The line `key` of the table in the locale's language, with `values` filled in (a `Localised` value, such as
    a failed file's reason, in the same language)."""
    return worded(TEXTS[key], locale_language(), **values)
