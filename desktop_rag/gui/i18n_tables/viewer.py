"""The in-app document viewer's texts (views/viewer/strings.py says them by their `viewer.*` keys)."""

from __future__ import annotations

TEXT: dict[str, tuple[str, str]] = {
    # the in-app document viewer
    "viewer.title": ("{name} — Desktop RAG viewer", "{name} — Desktop RAG 查看器"),
    "viewer.prev_passage": ("◀ Previous passage", "◀ 上一段"),
    "viewer.next_passage": ("Next passage ▶", "下一段 ▶"),
    "viewer.passage_of": ("Passage [{n}] · {i} of {count}", "段落 [{n}] · 第 {i} / {count} 段"),
    "viewer.prev_page": ("◀", "◀"),
    "viewer.next_page": ("▶", "▶"),
    "viewer.page_of": ("Page {page} of {count}", "第 {page} / {count} 页"),
    "viewer.zoom_in": ("Zoom in", "放大"),
    "viewer.zoom_out": ("Zoom out", "缩小"),
    "viewer.open_default": ("Open in default app", "用默认程序打开"),
    "viewer.find": ("Find in document…", "在文档中查找…"),
    "viewer.find_next": ("Next", "下一个"),
    "viewer.find_prev": ("Previous", "上一个"),
    "viewer.find_none": ("Not found", "未找到"),
    "viewer.find_at": ("Found on page {page}", "在第 {page} 页找到"),
    "viewer.back_to_passage": ("Back to passage", "回到引用段落"),
    "viewer.back_tip": ("Show the cited passage again, highlighted ({shortcut})", "重新显示并高亮引用的段落（{shortcut}）"),
    "viewer.window": (
        "Shown: a part of this long document; {before} lines before it and {after} after it are not shown here, "
        "but Find searches them too. Open in default app shows the whole document.",
        "此处只显示这份长文档的一部分，前面 {before} 行、后面 {after} 行未在此显示，但查找也会搜索这些行。"
        "点击“用默认程序打开”可查看整份文档。"),
    "viewer.loading": ("Opening {name}…", "正在打开 {name}…"),
    "viewer.rendering": ("Rendering page {page}…", "正在渲染第 {page} 页…"),
    "viewer.reindex": ("Re-index this file", "重新索引此文件"),
    "viewer.reindex_started": (
        "Re-indexing started; open the citation again when it has finished.",
        "已开始重新索引；完成后请重新打开此引用。"),
    "viewer.changed_found": (
        "This file changed since it was indexed. The passage was found again in the current file and is "
        "highlighted, but the answer was based on the old version. Re-index to bring the library up to "
        "date.",
        "此文件在建立索引后已被修改。已在当前文件中重新找到该段落并高亮显示，但回答依据的是旧版本。请重新索引以更新资料库。"),
    "viewer.changed_lost": (
        "This file changed since it was indexed and the cited passage is no longer in it, so nothing is "
        "highlighted. The passage as it was indexed is shown beside. Re-index to update the library.",
        "此文件在建立索引后已被修改，且当前文件中已找不到所引用的段落，因此不做高亮。旁边显示的是索引时的段落。请重新索引以更新资料库。"),
    "viewer.missing": ("The file was moved or deleted since it was indexed: {path}", "文件在建立索引后已被移动或删除：{path}"),
    "viewer.missing_stored": (
        "The file was moved or deleted since it was indexed: {path}. It is shown from the text the library stored "
        "when it was indexed (without its pages, pictures or layout).",
        "文件在建立索引后已被移动或删除：{path}。这里显示的是建立索引时资料库保存的文本（不含页面、图片和版式）。"),
    "viewer.recognised": (
        "The text recognised in this picture (OCR) when it was indexed. Open in default app shows the picture.",
        "这是建立索引时从此图片中识别出的文字（OCR）。点击“用默认程序打开”可查看图片本身。"),
    "viewer.recognised_changed": (
        "This picture changed since it was indexed. Shown is the text recognised in it then (OCR); the answer was "
        "based on it. Re-index to read the picture again.",
        "此图片在建立索引后已被修改。这里显示的是当时从中识别出的文字（OCR），回答也依据这些文字。请重新索引以再次识别此图片。"),
    "viewer.unread": (
        "This file cannot be read now: {reason}. It is shown from the text the library stored when it was indexed "
        "(without its layout).",
        "现在无法读取此文件：{reason}。这里显示的是建立索引时资料库保存的文本（不含版式）。"),
    "viewer.unread_changed": (
        "This file changed since it was indexed and cannot be read now: {reason}. Shown is the text the library "
        "stored when it was indexed; the answer was based on it. Re-index to read the file again.",
        "此文件在建立索引后已被修改，现在无法读取：{reason}。这里显示的是建立索引时资料库保存的文本，回答也依据这些文字。"
        "请重新索引以再次读取此文件。"),
    "viewer.unmatched": (
        "The passage's exact position on this page could not be matched (the PDF's text layer differs "
        "from the indexed text). The page is shown with the passage beside it.",
        "无法在此页上匹配段落的确切位置（PDF 的文字层与索引文本不同）。下面显示该页，段落显示在旁边。"),
    "viewer.unmatched_scan": (
        "This page is a scan: its text was recognised from the picture (OCR), so there is no text on the page to "
        "highlight. The page is shown with the passage beside it.",
        "此页是扫描图片：其文字是通过文字识别（OCR）得到的，页面上没有可高亮的文字。下面显示该页，段落显示在旁边。"),
    "viewer.beside_elsewhere": (
        "The text beside is the cited passage, from page {page}, where its position could not be marked; nothing "
        "is highlighted on this page.",
        "旁边显示的是所引用的段落，出自第 {page} 页，但无法在该页上标出其位置；此页上没有高亮。"),
    "viewer.recognised_lines": (
        "This page is a scan: the highlight marks the lines recognised on it (OCR) when it was indexed.",
        "此页是扫描图片：高亮标出的是建立索引时在此页上识别（OCR）出的文字行。"),
    "viewer.partial": (
        "Only the beginning and end of the passage matched the file's text; the highlight spans them.",
        "只有段落的开头和结尾与文件文本相符；高亮覆盖两者之间的内容。"),
    "viewer.not_found_text": (
        "The passage could not be found in this file's text. It is shown beside.",
        "在此文件的文本中找不到该段落。段落显示在旁边。"),
    "viewer.passage_gone": (
        "The cited passage is no longer in this document: the file was edited and indexed again after this answer "
        "was given, so nothing is highlighted. The passage as it was is shown beside; ask again to be answered "
        "from the current text.",
        "所引用的段落已不在此文档中：此回答给出后，文件已被修改并重新索引，因此不做高亮。旁边显示的是当时的段落；"
        "请重新提问，以根据当前内容作答。"),
    "viewer.error": ("This file cannot be shown here: {reason}", "无法在此显示此文件：{reason}"),
    "viewer.page_error": ("Page {page} cannot be drawn: {reason}", "第 {page} 页无法显示：{reason}"),
    "viewer.unknown": (
        "This file is not in the library any more; the passage may not match it.",
        "此文件已不在资料库中；段落可能与之不符。"),
    "viewer.passage_heading": ("The cited passage (as indexed)", "所引用的段落（索引时）"),
    "viewer.no_open": ("The system could not open {path}", "系统无法打开 {path}"),
    "viewer.not_handed": ("{path} is not handed to another app: only documents of a supported type that are on "
                          "this computer (not a network path, not in a source that is not linked) are opened.",
                          "{path} 不会交给其他应用打开：只打开本机上受支持类型的文档"
                          "（不含网络路径，也不含尚未关联的来源中的文件）。"),
    "dialog.error": ("Desktop RAG", "Desktop RAG"),
}
