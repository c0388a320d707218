"""A file that could not be read: the reason stored on a failed file (ingest/loaders/, ingest/parsing.py,
ingest/scanning.py), and the viewer's (document/)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "error.disk_full": {  # {where}: the library's folder
        "en": "The disk holding your library ({where}) is full, so indexing stopped. Nothing is lost: every file "
              "indexed before this point is saved and intact. Free some disk space, then run the index again; it "
              "continues where it stopped.",
        "zh": "资料库所在的磁盘（{where}）已满，索引已停止。没有丢失任何内容：此前已索引的文件都已保存且完好。"
              "请释放一些磁盘空间，然后重新运行索引，它会从停止处继续。",
    },
    # reading a file (ingest/loaders/, ingest/parsing.py): the reason stored on a failed file
    "error.file_vanished": {"en": "The file was moved or deleted while it was being read",
                            "zh": "读取过程中文件被移动或删除"},
    "error.file_unreadable": {"en": "The file could not be read ({reason})",  # {reason}: the system's words
                              "zh": "无法读取该文件（{reason}）"},
    "error.not_regular_file": {"en": "This is not a regular file", "zh": "这不是普通文件"},
    "error.file_too_large": {"en": "{name} is {mb} MB, larger than the limit of {limit} MB (Settings)",
                             "zh": "{name} 大小为 {mb} MB，超过了 {limit} MB 的上限（见“设置”）"},
    "error.type_not_supported": {"en": "Files of type '{suffix}' are not supported",
                                 "zh": "不支持“{suffix}”类型的文件"},
    "error.permission_denied": {"en": "Permission denied: this file cannot be opened for reading",
                                "zh": "权限不足：无法打开此文件进行读取"},
    "error.no_memory": {"en": "Not enough memory to read this file", "zh": "内存不足，无法读取此文件"},
    "error.too_deeply_nested": {"en": "This file is too deeply nested to be read", "zh": "此文件嵌套层级过深，无法读取"},
    "error.reader_failed": {"en": "The reader failed on this file ({error})",  # {error}: the library's words
                            "zh": "读取此文件时出错（{error}）"},
    "error.no_text_left": {"en": "The file contains no text (only spaces or blank lines)",
                           "zh": "文件中没有文字（只有空格或空行）"},
    "error.not_docx": {"en": "Not a Word .docx file (it may be an old .doc renamed; save it as .docx)",
                       "zh": "这不是 Word .docx 文件（可能是改了扩展名的旧版 .doc；请另存为 .docx）"},
    "error.docx_damaged": {"en": "This Word file is damaged and could not be read", "zh": "此 Word 文件已损坏，无法读取"},
    "error.docx_no_text": {"en": "This Word document contains no text", "zh": "此 Word 文档中没有文字"},
    "error.not_pptx": {"en": "Not a PowerPoint .pptx file (it may be an old .ppt renamed; save it as .pptx)",
                       "zh": "这不是 PowerPoint .pptx 文件（可能是改了扩展名的旧版 .ppt；请另存为 .pptx）"},
    "error.pptx_damaged": {"en": "This PowerPoint file is damaged and could not be read",
                           "zh": "此 PowerPoint 文件已损坏，无法读取"},
    "error.pptx_no_text": {"en": "This presentation contains no text", "zh": "此演示文稿中没有文字"},
    "phrase.word_document": {"en": "Word document", "zh": "Word 文档"},
    "phrase.powerpoint_presentation": {"en": "PowerPoint presentation", "zh": "PowerPoint 演示文稿"},
    "error.zip_damaged": {"en": "This {kind} file is damaged or not a {kind} file (it is not a valid zip package), so "
                                "it could not be read",  # {kind}: the file's suffix (".epub") or "zip"
                          "zh": "此 {kind} 文件已损坏或不是 {kind} 文件（不是有效的 zip 包），无法读取"},
    "error.zip_too_many_parts": {"en": "This {kind} holds {n:,} parts, more than the limit of {limit:,}; it looks like "
                                       "a zip bomb and was not opened",
                                 "zh": "此 {kind} 包含 {n:,} 个部件，超过了 {limit:,} 的上限；它看起来像 zip 炸弹，未被打开"},
    "error.zip_bomb": {"en": "This {kind} looks like a zip bomb (it would expand to {mb} MB from {kb} KB); it was not "
                             "opened",
                       "zh": "此 {kind} 看起来像 zip 炸弹（会从 {kb} KB 解压成 {mb} MB），未被打开"},
    "error.zip_too_large": {"en": "This {kind} is too large when unpacked ({mb} MB; the limit is {limit} MB), so it was "
                                  "not opened",
                            "zh": "此 {kind} 解压后过大（{mb} MB；上限为 {limit} MB），未被打开"},
    "error.part_missing": {"en": "A part of this file is missing ({name})", "zh": "此文件缺少一个部件（{name}）"},
    "error.part_damaged": {"en": "A part of this file is damaged ({name}) and could not be read",
                           "zh": "此文件的一个部件已损坏（{name}），无法读取"},
    "error.part_too_large": {"en": "A part of this file ({name}) is larger than the limit of {limit} MB; it was not "
                                   "read",
                             "zh": "此文件的一个部件（{name}）超过了 {limit} MB 的上限，未被读取"},
    "error.office_xml_too_large": {"en": "This {kind} is too large when unpacked (its text and layout take {mb} MB; the "
                                         "limit is {limit} MB), so it was not opened",
                                   "zh": "此 {kind} 解压后过大（文字和版式占 {mb} MB；上限为 {limit} MB），未被打开"},
    "error.zip_not_office": {"en": "This zip file is not a {what} (there is no {part} inside)",
                             "zh": "此 zip 文件不是{what}（其中没有 {part}）"},
    "error.email_too_many_parts": {"en": "This e-mail has more than {n:,} parts (attachments or alternatives); it looks "
                                         "crafted and was not read",
                                   "zh": "此邮件包含超过 {n:,} 个部分（附件或替代内容），看起来是刻意构造的，未被读取"},
    "error.email_empty": {"en": "The e-mail file is empty", "zh": "邮件文件为空"},
    "error.email_no_text": {"en": "This e-mail contains no text", "zh": "此邮件中没有文字"},
    "error.attachment_gone": {"en": "The message no longer holds the attachment {name}; index it again",
                              "zh": "邮件中已没有附件 {name}；请重新索引"},
    "error.not_mbox": {"en": "Not an mbox mailbox (it does not start with a \"From \" line)",
                       "zh": "这不是 mbox 邮箱文件（开头不是“From ”行）"},
    "error.mbox_too_many": {"en": "This mailbox holds {n:,} messages, more than the limit of {limit:,}; split it into "
                                  "smaller mailboxes",
                            "zh": "此邮箱包含 {n:,} 封邮件，超过了 {limit:,} 的上限；请拆分成较小的邮箱"},
    "error.mbox_no_text": {"en": "This mailbox contains no text", "zh": "此邮箱中没有文字"},
    "error.not_epub": {"en": "Not an EPUB e-book (it is not a zip package; was another file renamed .epub?)",
                       "zh": "这不是 EPUB 电子书（不是 zip 包；是否把别的文件改成了 .epub？）"},
    "error.epub_no_container": {"en": "This EPUB has no META-INF/container.xml, so its chapters cannot be found",
                                "zh": "此 EPUB 没有 META-INF/container.xml，无法找到其章节"},
    "error.epub_no_package": {"en": "This EPUB's container.xml names no package file, so its chapters cannot be found",
                              "zh": "此 EPUB 的 container.xml 没有指明包文件，无法找到其章节"},
    "error.epub_too_many_chapters": {"en": "This EPUB lists {n:,} chapters, more than the limit of {limit:,}",
                                     "zh": "此 EPUB 列出了 {n:,} 个章节，超过了 {limit:,} 的上限"},
    "error.epub_no_spine": {"en": "This EPUB's reading order (spine) lists no chapters",
                            "zh": "此 EPUB 的阅读顺序（spine）中没有章节"},
    "error.epub_too_much_text": {"en": "This EPUB's chapters hold more than {mb} MB of text; it was not read",
                                 "zh": "此 EPUB 的章节文字超过 {mb} MB，未被读取"},
    "error.epub_no_text": {"en": "This EPUB contains no text (its chapters are empty or only pictures)",
                           "zh": "此 EPUB 中没有文字（章节为空或只有图片）"},
    "phrase.epub_container": {"en": "The e-book's container.xml", "zh": "电子书的 container.xml"},
    "phrase.epub_ncx": {"en": "The e-book's table of contents (NCX)", "zh": "电子书的目录（NCX）"},
    "phrase.epub_package": {"en": "The e-book's package file", "zh": "电子书的包文件"},
    "error.xml_entities": {"en": "{what} declares XML entities or external references (as a billion-laughs or "
                                 "external-entity attack does); it was not read",
                           "zh": "{what}中声明了 XML 实体或外部引用（“十亿笑”或外部实体攻击的手法），未被读取"},
    "error.xml_damaged": {"en": "{what} is damaged (not well-formed XML), so it could not be read",
                          "zh": "{what}已损坏（不是格式正确的 XML），无法读取"},
    "error.html_too_deep": {"en": "This web page is nested more than {n:,} levels deep (no real page is); it looks "
                                  "crafted and was not read",
                            "zh": "此网页嵌套超过 {n:,} 层（真实网页不会如此），看起来是刻意构造的，未被读取"},
    "error.html_empty": {"en": "The web page is empty", "zh": "网页为空"},
    "error.html_no_text": {"en": "This web page contains no text (only markup, scripts or pictures)",
                           "zh": "此网页中没有文字（只有标记、脚本或图片）"},
    "error.not_image": {"en": "This file is not a readable image (it may be damaged, or another kind of file renamed)",
                        "zh": "此文件不是可读取的图片（可能已损坏，或是改了扩展名的其他文件）"},
    "error.image_ocr_off": {"en": "This is an image; text recognition (OCR) is turned off in Settings, so there is "
                                  "nothing to index",
                            "zh": "这是一张图片；“设置”中已关闭文字识别（OCR），因此没有可索引的内容"},
    "error.image_no_text": {"en": "No text was recognised in this image", "zh": "未在此图片中识别出文字"},
    "error.scan_damaged": {"en": "The scanned picture of this page is damaged and could not be decoded",
                           "zh": "此页的扫描图片已损坏，无法解码"},
    "error.ocr_unavailable": {"en": "Text recognition (OCR) is not available in this installation (the "
                                    "rapidocr-onnxruntime package is missing)",
                              "zh": "此安装中没有文字识别（OCR）功能（缺少 rapidocr-onnxruntime 软件包）"},
    "error.image_too_big": {"en": "This image is too large to read ({mp:,.0f} megapixels; the limit is {limit:,.0f})",
                            "zh": "此图片太大，无法读取（{mp:,.0f} 百万像素；上限为 {limit:,.0f}）"},
    "error.no_libreoffice": {"en": "This is {name}, which is read only through LibreOffice, and LibreOffice is not "
                                   "installed. Open it in {apps} and save it as {target}, or install LibreOffice "
                                   "(libreoffice.org) and index the folder again.",
                             "zh": "这是{name}，只能通过 LibreOffice 读取，但未安装 LibreOffice。请用{apps}打开并另存为 "
                                   "{target}，或安装 LibreOffice（libreoffice.org）后重新索引该文件夹。"},
    "error.libreoffice_timeout": {"en": "LibreOffice did not finish converting this file within {seconds} seconds",
                                  "zh": "LibreOffice 未能在 {seconds} 秒内完成此文件的转换"},
    "error.libreoffice_failed": {"en": "LibreOffice could not convert this file; it may be damaged or not really {name}",
                                 "zh": "LibreOffice 无法转换此文件；它可能已损坏，或并不是{name}"},
    "phrase.legacy.doc": {"en": "an old Word document (.doc)", "zh": "旧版 Word 文档（.doc）"},
    "phrase.legacy.ppt": {"en": "an old PowerPoint presentation (.ppt)", "zh": "旧版 PowerPoint 演示文稿（.ppt）"},
    "phrase.legacy_app.doc": {"en": "Word or LibreOffice Writer", "zh": " Word 或 LibreOffice Writer "},
    "phrase.legacy_app.ppt": {"en": "PowerPoint or LibreOffice Impress", "zh": " PowerPoint 或 LibreOffice Impress "},
    "error.not_odt": {"en": "Not an OpenDocument .odt file (it is not a zip package; was another file renamed .odt?)",
                      "zh": "这不是 OpenDocument .odt 文件（不是 zip 包；是否把别的文件改成了 .odt？）"},
    "error.odt_no_content": {"en": "This zip file is not an OpenDocument document (there is no content.xml inside)",
                             "zh": "此 zip 文件不是 OpenDocument 文档（其中没有 content.xml）"},
    "error.odt_not_text": {"en": "This OpenDocument file holds no text document (is it a spreadsheet or a presentation "
                                 "renamed .odt?)",
                           "zh": "此 OpenDocument 文件不包含文本文档（是否是改成 .odt 的电子表格或演示文稿？）"},
    "error.odt_no_text": {"en": "This OpenDocument text contains no text", "zh": "此 OpenDocument 文本中没有文字"},
    "phrase.odt_content": {"en": "This document's content.xml", "zh": "此文档的 content.xml"},
    "error.not_rtf": {"en": "Not an RTF document (it does not start with {{\\rtf; was another file renamed .rtf?)",
                      "zh": "这不是 RTF 文档（开头不是 {{\\rtf；是否把别的文件改成了 .rtf？）"},
    "error.rtf_no_text": {"en": "This RTF document contains no text", "zh": "此 RTF 文档中没有文字"},
    "error.binary_text": {"en": "This file looks like binary data, not text (is it another format renamed .txt?)",
                          "zh": "此文件看起来是二进制数据而不是文本（是否是改成 .txt 的其他格式？）"},
    "error.file_empty": {"en": "The file is empty", "zh": "文件为空"},
    "error.not_xlsx": {"en": "Not an Excel .xlsx file (it may be an old .xls renamed; save it as .xlsx)",
                       "zh": "这不是 Excel .xlsx 文件（可能是改了扩展名的旧版 .xls；请另存为 .xlsx）"},
    "error.sheet_damaged": {"en": "This spreadsheet is damaged and could not be read", "zh": "此电子表格已损坏，无法读取"},
    "error.sheet_too_many_cells": {"en": "This spreadsheet holds more than {cells:,} filled cells, the limit for one "
                                         "file; it was not indexed (split it into smaller files, or save the part you "
                                         "need as its own file)",
                                   "zh": "此电子表格包含超过 {cells:,} 个非空单元格（单个文件的上限），未被索引"
                                         "（请拆分成较小的文件，或把需要的部分另存为单独的文件）"},
    "error.sheet_too_wide": {"en": "The sheet “{sheet}” spans {rows:,} rows x {cols:,} columns, more than the limit of "
                                   "{area:,} cells; the file was not indexed (delete the far-away cells, or split it)",
                             "zh": "工作表“{sheet}”跨 {rows:,} 行 x {cols:,} 列，超过了 {area:,} 个单元格的上限；"
                                   "文件未被索引（请删除远处的单元格，或拆分文件）"},
    # (a failed file's English stays as older versions stored it: an archive's reasons are read back from the English)
    "error.sheet_too_large": {"en": "This spreadsheet is too large to read ({detail}); it was not indexed",
                              "zh": "此电子表格太大，无法读取，未被索引：它声明的单元格范围超出了读取器的上限。请删除远处多余的"
                                    "行、列或格式，或把它拆分成较小的文件（{detail}）"},
    "error.sheet_no_text": {"en": "This spreadsheet contains no text", "zh": "此电子表格中没有文字"},
    "error.csv_unreadable": {"en": "This {suffix} file could not be read as a table ({detail}; the largest field read "
                                   "is {mb} MB)",
                             "zh": "无法把此 {suffix} 文件读作表格：它的行格式有误，或某个字段超过了 {mb} MB 的上限。请用表格软件"
                                   "打开它，重新另存为 {suffix} 文件后再索引（{detail}）"},
    "error.not_pdf": {"en": "This file is not a PDF (it has no PDF header); it may be another kind of file renamed .pdf",
                      "zh": "此文件不是 PDF（没有 PDF 文件头）；可能是改成 .pdf 的其他文件"},
    "error.pdf_damaged": {"en": "This PDF is damaged or is not a valid PDF file, so it could not be read",
                          "zh": "此 PDF 已损坏或不是有效的 PDF 文件，无法读取"},
    "error.pdf_truncated": {"en": "This PDF is incomplete (cut off before its end); it may not have finished "
                                  "downloading or copying",
                            "zh": "此 PDF 不完整（在结尾之前被截断）；可能尚未下载或复制完成"},
    "error.pdf_password": {"en": "This PDF is password-protected: give its password to index it (the app asks for the "
                                 "password when it finds the file (Re-index the file to be asked again); on the "
                                 "command line run: desktop-rag index --password PASSWORD \"FILE\")",
                           "zh": "此 PDF 受密码保护：提供密码后才能索引（应用发现该文件时会询问密码，“重新索引”该文件可再次"
                                 "询问；在命令行中运行：`desktop-rag index --password 密码 \"文件\"`）",
                           "window.en": "This PDF is password-protected: give its password to index it (the app asks "
                                        "for it when it finds the file; Re-index the file to be asked again)",
                           "window.zh": "此 PDF 受密码保护：提供密码后才能索引（应用发现该文件时会询问密码，“重新索引”该文件可"
                                        "再次询问）"},
    "error.pdf_wrong_password": {"en": "This PDF is password-protected and the password given was not accepted (the app "
                                       "asks for the password when it finds the file (Re-index the file to be asked "
                                       "again); on the command line run: desktop-rag index --password PASSWORD "
                                       "\"FILE\")",
                                 "zh": "此 PDF 受密码保护，提供的密码不正确（应用发现该文件时会询问密码，“重新索引”该文件可"
                                       "再次询问；在命令行中运行：`desktop-rag index --password 密码 \"文件\"`）",
                                 "window.en": "This PDF is password-protected and the password given was not accepted "
                                              "(Re-index the file to be asked again)",
                                 "window.zh": "此 PDF 受密码保护，提供的密码不正确（“重新索引”该文件可再次询问）"},
    "error.pdf_no_pages": {"en": "This PDF has no pages", "zh": "此 PDF 没有页面"},
    "error.pdf_security": {"en": "This PDF is protected by a security handler other than the standard one, so it "
                                 "cannot be read",
                           "zh": "此 PDF 使用非标准的安全处理程序加密，无法读取"},
    "error.pdf_needs_cryptography": {"en": "This PDF uses an encryption method that needs the 'cryptography' package to "
                                           "read",
                                     "zh": "此 PDF 使用的加密方式需要“cryptography”软件包才能读取"},
    "error.pdf_no_text": {"en": "This PDF has no text layer and no scanned page images, so there is nothing to index",
                          "zh": "此 PDF 既没有文字层也没有扫描页面图像，没有可索引的内容"},
    "error.pdf_no_text_ocr_off": {"en": "This PDF has no text layer (its pages are scanned images) and text recognition "
                                        "(OCR) is turned off in Settings, so there is nothing to index",
                                  "zh": "此 PDF 没有文字层（页面是扫描图像），且“设置”中已关闭文字识别（OCR），没有可索引的内容"},
    "error.pdf_no_text_recognised": {"en": "This PDF has no text layer, and text recognition (OCR) found no readable "
                                           "text on its scanned pages",
                                     "zh": "此 PDF 没有文字层，文字识别（OCR）也未在扫描页面上找到可读的文字"},
    "error.pdf_broken": {"en": "This PDF's text layer is unreadable ({reason}: its fonts do not say which characters "
                               "they draw), and text recognition (OCR) found no text on its pages, so it was not indexed",
                         "zh": "此 PDF 的文字层无法读取（{reason}：其字体没有说明所绘制的是哪些字符），文字识别（OCR）"
                               "也未在页面上找到文字，因此未被索引"},
    "error.pdf_broken_ocr_off": {"en": "This PDF's text layer is unreadable ({reason}: its fonts do not say which "
                                       "characters they draw) and text recognition (OCR) is turned off in Settings, so "
                                       "it was not indexed (turn OCR on to read its pages as images)",
                                 "zh": "此 PDF 的文字层无法读取（{reason}：其字体没有说明所绘制的是哪些字符），且“设置”中已"
                                       "关闭文字识别（OCR），因此未被索引（打开 OCR 即可把页面当作图像读取）"},
    "error.reader_crashed": {"en": "The reader crashed on this file (it may be damaged); it was skipped",
                             "zh": "读取此文件时读取程序崩溃（文件可能已损坏），已跳过"},
    "error.out_of_memory": {"en": "Reading this file needs more memory than the limit of {mb:,} MB for one file; it was "
                                  "skipped",
                            "zh": "读取此文件所需的内存超过了单个文件 {mb:,} MB 的上限，已跳过"},
    "error.too_much_text": {"en": "This file holds more text than the limit of {chars:,} characters for one file; it "
                                  "was not indexed (split it into smaller files)",
                            "zh": "此文件的文字超过了单个文件 {chars:,} 个字符的上限，未被索引（请拆分成较小的文件）"},
    "error.reader_not_started": {"en": "The document reader could not be started", "zh": "无法启动文档读取程序"},
    "error.read_timeout": {"en": "Reading this file took longer than {budget}; it was skipped",
                           "zh": "读取此文件的时间超过了 {budget}，已跳过"},
    "phrase.seconds": {"en": "{n} s", "zh": "{n} 秒"},
    "phrase.ocr_budget": {"en": "{budget} s ({base} s, plus {page} s a page for {total:page|pages} to "
                                "recognise)",
                          "zh": "{budget} 秒（{base} 秒，另加需识别的 {total} 页每页 {page} 秒）"},
    "error.no_text_extracted": {"en": "No text could be extracted from this file", "zh": "无法从此文件中提取文字"},
    "error.file_changed": {"en": "The file changed while it was being read; it will be read again on the next scan",
                           "zh": "读取过程中文件发生了变化，下次扫描时会重新读取"},
    "error.dimension_changed": {"en": "The embedding model {model} now gives {now}-dimensional vectors, but the library "
                                      "holds {held}-dimensional ones; vectors of two models are never mixed. Re-index "
                                      "the library (`desktop-rag index --reindex`, or Re-index in Settings) to use it.",
                                "zh": "嵌入模型 {model} 现在生成 {now} 维向量，而资料库中是 {held} 维向量；两种模型的向量"
                                      "不能混用。请重新索引资料库（`desktop-rag index --reindex`，或在“设置”中重新索引）"
                                      "后再使用它。",
                                "window.en": "The embedding model {model} now gives {now}-dimensional vectors, but the "
                                             "library holds {held}-dimensional ones; vectors of two models are never "
                                             "mixed. Re-index the library (Re-index in Settings) to use it.",
                                "window.zh": "嵌入模型 {model} 现在生成 {now} 维向量，而资料库中是 {held} 维向量；两种模型的"
                                             "向量不能混用。请重新索引资料库（在“设置”中重新索引）后再使用它。"},
    "error.bad_file_name": {"en": "The file name is not valid text (UTF-8), so it cannot be stored; rename the file to "
                                  "index it.",
                            "zh": "文件名不是有效文本（UTF-8），无法保存；请重命名该文件后再索引。"},
    "error.link_outside": {"en": "A link to something outside the folder you chose: links are not followed, so nothing "
                                 "outside your chosen folders is read.",
                           "zh": "这是指向所选文件夹之外的链接：链接不会被跟随，因此不会读取所选文件夹之外的任何内容。"},
    "error.unsupported_type": {"en": "Not a supported file type ({types})", "zh": "不支持的文件类型（{types}）"},
    "error.not_regular_skipped": {"en": "Not a regular file (a pipe, device or socket is never read)",
                                  "zh": "不是普通文件（管道、设备或套接字永远不会被读取）"},
    "error.source_missing": {"en": "Not found (a drive or network share not connected, or moved or deleted): what was "
                                   "indexed from it is kept. Connect it again, or remove it from the library.",
                             "zh": "找不到（驱动器或网络共享未连接，或已被移动或删除）：从中索引的内容会保留。请重新连接，"
                                   "或将其从资料库中移除。"},
    "error.folder_unreadable": {"en": "This folder could not be read ({reason}): the files indexed from it are kept "
                                      "until it can be read again.",
                                "zh": "无法读取此文件夹（{reason}）：从中索引的文件会保留，直到可以再次读取它。"},
    # the viewer (document/); a page's reasons only say why, after "Page 2 cannot be drawn: " or a file's frame
    "error.page_no_size": {"en": "the page has no usable size (its width or height is zero, negative or endless)",
                           "zh": "页面没有可用的尺寸（宽或高为零、负数或无穷大）"},
    "error.page_bad_size": {"en": "the page is too large or too thin ({width} x {height} points)",
                            "zh": "页面太大或太窄（{width} x {height} 点）"},
    "error.document_closed": {"en": "the document was closed", "zh": "文档已关闭"},
    "error.view_page_failed": {"en": "the viewer's PDF reader crashed, ran out of time or reached its memory limit on "
                                     "the page (it may be damaged or built to exhaust memory)",
                               "zh": "查看器的 PDF 读取程序在该页面上崩溃、超时或达到内存上限"
                                     "（该页面可能已损坏或被刻意构造以耗尽内存）"},
    "error.view_password": {"en": "This PDF is password-protected, so it cannot be shown here; use Open in default app",
                            "zh": "此 PDF 受密码保护，无法在这里显示；请用“用默认程序打开”"},
    "error.view_vanished": {"en": "The file was moved or deleted since it was indexed", "zh": "该文件在索引后被移动或删除了"},
    "error.view_damaged": {"en": "This PDF is damaged or is not a valid PDF file, so it cannot be shown",
                           "zh": "此 PDF 已损坏或不是有效的 PDF 文件，无法显示"},
    "error.view_unopenable": {"en": "This PDF could not be opened ({detail})", "zh": "无法打开此 PDF（{detail}）"},
    # notes on an indexed file, stored like a failed file's reason ("; "-joined when there are several)
    "note.pdf_recovered": {"en": "{n} page(s) with an unreadable text layer were read by text recognition (OCR)",
                           "zh": "{n} 页文字层无法读取的页面已通过文字识别（OCR）读取"},
    "note.pdf_left_out": {"en": "{n} page(s) with an unreadable text layer were left out",
                          "zh": "{n} 页文字层无法读取的页面被略过"},
}
