"""One file in an index run (issue 49): the reasons a file failed at a step after reading or for want of a
converter's component, and the notes on an indexed file whose reader left a part out (a slide, a sheet, a
chapter, a message, pages past the OCR limits, an attachment)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # a step of one file failed in a way no reader foresaw; {error}: the library's own words (type: message)
    "error.chunking_failed": {"en": "This file's text could not be cut into passages ({error}); the other files were "
                                    "indexed",
                              "zh": "此文件的文字无法切分成段落（{error}）；其他文件已正常索引"},
    "error.store_failed": {"en": "This file's passages could not be stored in the library ({error}); the other files "
                                 "were indexed",
                           "zh": "此文件的段落无法存入资料库（{error}）；其他文件已正常索引"},
    "error.file_not_granted": {"en": "This file is already in the library, in a collection your role may not see "
                                     "(ask the library's administrator); the other files were indexed",
                               "zh": "此文件已在资料库中，属于你的角色无权查看的知识库（请询问资料库管理员）；其他文件已正常索引"},
    "error.embedding_failed": {"en": "The embedding model could not take this file's passages ({error}); the other "
                                     "files were indexed",
                               "zh": "嵌入模型无法处理此文件的段落（{error}）；其他文件已正常索引"},
    # {name}: "an old PowerPoint presentation (.ppt)"; {component}: Writer or Impress; {present}: the components
    # installed ("Writer, Calc"); {package}: the Debian/Ubuntu package; {apps}: who saves it anew
    "error.libreoffice_component_missing": {
        "en": "This is {name}, which is read through LibreOffice {component}, and the LibreOffice installed here "
              "has no {component} (it has: {present}). Install LibreOffice {component} (on Debian and Ubuntu the "
              "package {package}), or open it in {apps} and save it as {target}, then index it again.",
        "zh": "这是{name}，需要通过 LibreOffice {component} 读取，但此处安装的 LibreOffice 没有 {component}（已有："
              "{present}）。请安装 LibreOffice {component}（Debian 和 Ubuntu 上的软件包为 {package}），或用{apps}打开并"
              "另存为 {target}，然后重新索引。"},
    # notes on an indexed file whose reader left a part out (ingest/loaders/left_out.py); {names}: numbers as ranges
    # ("3, 5-9") or the parts' own names (sheet names, chapter files), at most ten
    "note.left_out.page": {"en": "Page(s) {names} could not be read and were left out",
                           "zh": "第 {names} 页无法读取，已略去"},
    "note.left_out.slide": {"en": "Slide(s) {names} could not be read and were left out",
                            "zh": "第 {names} 张幻灯片无法读取，已略去"},
    "note.left_out.shape": {"en": "A shape on slide(s) {names} could not be read and was left out",
                            "zh": "第 {names} 张幻灯片上有形状无法读取，已略去"},
    "note.left_out.table": {"en": "Table(s) {names} could not be read and were left out",
                            "zh": "第 {names} 个表格无法读取，已略去"},
    "note.left_out.sheet": {"en": "Sheet(s) {names} could not be read and were left out",
                            "zh": "工作表 {names} 无法读取，已略去"},
    "note.left_out.chapter": {"en": "Chapter(s) {names} could not be read and were left out",
                              "zh": "章节 {names} 无法读取，已略去"},
    "note.left_out.message": {"en": "Message(s) {names} could not be read and were left out",
                              "zh": "第 {names} 封邮件无法读取，已略去"},
    "error.epub_damaged": {"en": "This e-book is damaged: none of its chapters could be read",
                           "zh": "此电子书已损坏：其中没有任何章节可以读取"},
    # pages of one file not sent to text recognition (ingest/loaders/ocr_quota.py); {names}: page numbers as ranges
    "note.ocr_over_pages": {"en": "Page(s) {names} were not read by text recognition (OCR): over the limit of {limit} "
                                  "pages a file (Settings)",
                            "zh": "第 {names} 页未经文字识别（OCR）读取：超过了每个文件 {limit} 页的上限（见“设置”）"},
    "note.ocr_over_time": {"en": "Page(s) {names} were not read by text recognition (OCR): the file's text recognition "
                                 "reached its limit of {minutes} minutes (Settings)",
                           "zh": "第 {names} 页未经文字识别（OCR）读取：此文件的文字识别已达到 {minutes} 分钟的上限"
                                 "（见“设置”）"},
    # an e-mail's attachments not read (ingest/loaders/email_notes.py); {names}: attachment names, at most five
    "note.attachments_over.per_message": {
        "en": "{n:attachment was|attachments were} not read: over the limit of {limit} attachments a message: "
              "{names}",
        "zh": "{n} 个附件未被读取：超过了每封邮件 {limit} 个附件的上限：{names}"},
    "note.attachments_over.per_file": {
        "en": "{n:attachment was|attachments were} not read: over the limit of {limit} attachments a file: "
              "{names}",
        "zh": "{n} 个附件未被读取：超过了每个文件 {limit} 个附件的上限：{names}"},
    "note.attachments_over.size": {
        "en": "{n:attachment was|attachments were} not read: larger than the limit of {limit} MB an attachment: "
              "{names}",
        "zh": "{n} 个附件未被读取：超过了每个附件 {limit} MB 的上限：{names}"},
    "note.attachments_over.total": {
        "en": "{n:attachment was|attachments were} not read: over the limit of {limit} MB of attachments a "
              "file: {names}",
        "zh": "{n} 个附件未被读取：超过了每个文件 {limit} MB 附件的上限：{names}"},
    "note.attachments_over.nesting": {
        "en": "{n:forwarded message was|forwarded messages were} not read: nested more than {limit} messages "
              "deep: {names}",
        "zh": "{n} 封转发的邮件未被读取：嵌套超过 {limit} 层：{names}"},
    "note.attachments_over.pictures": {
        "en": "{n:picture was|pictures were} not read: over the limit of {limit} pictures read by text "
              "recognition a file: {names}",
        "zh": "{n} 张图片未被读取：超过了每个文件用文字识别读取 {limit} 张图片的上限：{names}"},
    "note.attachments_over.time": {
        "en": "{n:attachment was|attachments were} not read: reading one took longer than the limit of {limit} "
              "seconds an attachment: {names}",
        "zh": "{n} 个附件未被读取：读取时间超过了每个附件 {limit} 秒的上限：{names}"},
    "note.attachments_over.time_total": {
        "en": "{n:attachment was|attachments were} not read: the file's attachments had taken the limit of "
              "{limit} minutes: {names}",
        "zh": "{n} 个附件未被读取：此文件的附件已用完 {limit} 分钟的上限：{names}"},
    "note.attachment_not_read": {"en": "The attachment {name} was not read: {reason}",  # {reason}: an error text
                                 "zh": "附件 {name} 未被读取：{reason}"},
    "note.attachments_not_read_more": {"en": "{n:more attachment|more attachments} could not be read",
                                       "zh": "另有 {n} 个附件无法读取"},
}
