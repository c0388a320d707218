"""The viewer's texts in English and Simplified Chinese (follows the app's current language)."""

from __future__ import annotations

from desktop_rag.gui import i18n

_TEXT: dict[str, tuple[str, str]] = {
    "title": ("{name} — Desktop RAG viewer", "{name} — Desktop RAG 查看器"),
    "prev_passage": ("◀ Previous passage", "◀ 上一段"),
    "next_passage": ("Next passage ▶", "下一段 ▶"),
    "passage_of": ("Passage [{n}] · {i} of {count}", "段落 [{n}] · 第 {i} / {count} 段"),
    "prev_page": ("◀", "◀"),
    "next_page": ("▶", "▶"),
    "page_of": ("Page {page} of {count}", "第 {page} / {count} 页"),
    "zoom_in": ("Zoom in", "放大"),
    "zoom_out": ("Zoom out", "缩小"),
    "open_default": ("Open in default app", "用默认程序打开"),
    "find": ("Find in document…", "在文档中查找…"),
    "find_next": ("Next", "下一个"),
    "find_prev": ("Previous", "上一个"),
    "find_none": ("Not found", "未找到"),
    "find_at": ("Found on page {page}", "在第 {page} 页找到"),
    "loading": ("Opening {name}…", "正在打开 {name}…"),
    "rendering": ("Rendering page {page}…", "正在渲染第 {page} 页…"),
    "reindex": ("Re-index this file", "重新索引此文件"),
    "reindex_started": ("Re-indexing started; open the citation again when it has finished.",
                        "已开始重新索引；完成后请重新打开此引用。"),
    "changed_found": ("This file changed since it was indexed. The passage was found again in the current file "
                      "and is highlighted, but the answer was based on the old version. Re-index to bring the "
                      "library up to date.",
                      "此文件在建立索引后已被修改。已在当前文件中重新找到该段落并高亮显示，但回答依据的是旧版本。"
                      "请重新索引以更新资料库。"),
    "changed_lost": ("This file changed since it was indexed and the cited passage is no longer in it, so nothing "
                     "is highlighted. The passage as it was indexed is shown beside. Re-index to update the library.",
                     "此文件在建立索引后已被修改，且当前文件中已找不到所引用的段落，因此不做高亮。旁边显示的是索引时的段落。"
                     "请重新索引以更新资料库。"),
    "missing": ("The file was moved or deleted since it was indexed: {path}",
                "文件在建立索引后已被移动或删除：{path}"),
    "unmatched": ("The passage's exact position on this page could not be matched (the PDF's text layer differs "
                  "from the indexed text). The page is shown with the passage beside it.",
                  "无法在此页上匹配段落的确切位置（PDF 的文字层与索引文本不同）。下面显示该页，段落显示在旁边。"),
    "partial": ("Only the beginning and end of the passage matched the file's text; the highlight spans them.",
                "只有段落的开头和结尾与文件文本相符；高亮覆盖两者之间的内容。"),
    "not_found_text": ("The passage could not be found in this file's text. It is shown beside.",
                       "在此文件的文本中找不到该段落。段落显示在旁边。"),
    "error": ("This file cannot be shown here: {reason}", "无法在此显示此文件：{reason}"),
    "unknown": ("This file is not in the library any more; the passage may not match it.",
                "此文件已不在资料库中；段落可能与之不符。"),
    "passage_heading": ("The cited passage (as indexed)", "所引用的段落（索引时）"),
    "no_open": ("The system could not open {path}", "系统无法打开 {path}"),
}


def tr(key: str, **values: object) -> str:
    """The text for `key` in the app's current language."""
    en, zh = _TEXT[key]
    text = zh if i18n.language() == "zh" else en
    return text.format(**values) if values else text
