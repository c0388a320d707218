"""The texts of the errors the engine raises to a front end, in English and Chinese (the table `messages.TEXTS`
includes them): "error.<code>" for `SomeError.coded(code, **values)` (errors.py), and the phrases such a text
quotes ("phrase.<name>", given as `messages.Phrase` values).

Values are plain text a file, a server or a model may supply; a text names each of its values in a comment when
the name does not say it.
"""

from __future__ import annotations

ERROR_TEXTS: dict[str, dict[str, str]] = {
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
    "phrase.legacy.xls": {"en": "an old Excel workbook (.xls)", "zh": "旧版 Excel 工作簿（.xls）"},
    "phrase.legacy_app.doc": {"en": "Word or LibreOffice Writer", "zh": " Word 或 LibreOffice Writer "},
    "phrase.legacy_app.ppt": {"en": "PowerPoint or LibreOffice Impress", "zh": " PowerPoint 或 LibreOffice Impress "},
    "phrase.legacy_app.xls": {"en": "Excel or LibreOffice Calc", "zh": " Excel 或 LibreOffice Calc "},
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
    "error.sheet_too_large": {"en": "This spreadsheet is too large to read ({detail}); it was not indexed",
                              "zh": "此电子表格太大，无法读取（{detail}），未被索引"},
    "error.sheet_no_text": {"en": "This spreadsheet contains no text", "zh": "此电子表格中没有文字"},
    "error.csv_unreadable": {"en": "This {suffix} file could not be read as a table ({detail}; the largest field read "
                                   "is {mb} MB)",
                             "zh": "无法把此 {suffix} 文件读作表格（{detail}；可读取的最大字段为 {mb} MB）"},
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
                                 "询问；在命令行中运行：`desktop-rag index --password 密码 \"文件\"`）"},
    "error.pdf_wrong_password": {"en": "This PDF is password-protected and the password given was not accepted (the app "
                                       "asks for the password when it finds the file (Re-index the file to be asked "
                                       "again); on the command line run: desktop-rag index --password PASSWORD "
                                       "\"FILE\")",
                                 "zh": "此 PDF 受密码保护，提供的密码不正确（应用发现该文件时会询问密码，“重新索引”该文件可"
                                       "再次询问；在命令行中运行：`desktop-rag index --password 密码 \"文件\"`）"},
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
    "phrase.ocr_budget": {"en": "{budget} s ({base} s, plus {page} s for each of the {total} pages to recognise)",
                          "zh": "{budget} 秒（{base} 秒，另加需识别的 {total} 页每页 {page} 秒）"},
    "error.no_text_extracted": {"en": "No text could be extracted from this file", "zh": "无法从此文件中提取文字"},
    "error.file_changed": {"en": "The file changed while it was being read; it will be read again on the next scan",
                           "zh": "读取过程中文件发生了变化，下次扫描时会重新读取"},
    "error.dimension_changed": {"en": "The embedding model {model} now gives {now}-dimensional vectors, but the library "
                                      "holds {held}-dimensional ones; vectors of two models are never mixed. Re-index "
                                      "the library (`desktop-rag index --reindex`, or Re-index in Settings) to use it.",
                                "zh": "嵌入模型 {model} 现在生成 {now} 维向量，而资料库中是 {held} 维向量；两种模型的向量"
                                      "不能混用。请重新索引资料库（`desktop-rag index --reindex`，或在“设置”中重新索引）"
                                      "后再使用它。"},
    "error.bad_file_name": {"en": "The file name is not valid text (UTF-8), so it cannot be stored; rename the file to "
                                  "index it.",
                            "zh": "文件名不是有效文本（UTF-8），无法保存；请重命名该文件后再索引。"},
    "error.link_outside": {"en": "A link to something outside the folder you chose: links are not followed, so nothing "
                                 "outside your chosen folders is read.",
                           "zh": "这是指向所选文件夹之外的链接：链接不会被跟随，因此不会读取所选文件夹之外的任何内容。"},
    "error.unsupported_type": {"en": "Not a supported file type ({types})", "zh": "不支持的文件类型（{types}）"},
    "error.not_regular_skipped": {"en": "Not a regular file (a pipe, device or socket is never read)",
                                  "zh": "不是普通文件（管道、设备或套接字永远不会被读取）"},
    # embedding models (models/)
    "error.native_panic": {"en": "{what} failed inside a native library ({detail}).",  # {what}: a phrase or a name
                           "zh": "{what}在原生库内部失败（{detail}）。"},
    "error.bundled_model_failed": {"en": "The bundled multilingual model could not be loaded on this computer "
                                         "({detail}). Choose another embedding model in Settings.",
                                   "zh": "无法在这台电脑上加载内置的多语言模型（{detail}）。请在“设置”中选择其他嵌入模型。"},
    "error.api_model_form": {"en": "An endpoint embedding model is written api:MODEL@BASE_URL (e.g. "
                                   "api:bge-m3@http://localhost:11434/v1), not {model}.",
                             "zh": "服务端嵌入模型的写法是 api:模型@基础地址（例如 api:bge-m3@http://localhost:11434/v1），"
                                   "而不是 {model}。"},
    "error.endpoint_unreachable": {"en": "The embedding endpoint {url} could not be reached: {detail}",
                                   "zh": "无法连接嵌入服务 {url}：{detail}"},
    "error.endpoint_refused": {"en": "The embedding endpoint {url} refused the request (HTTP {status}); check the model "
                                     "name {model} and the key.",
                               "zh": "嵌入服务 {url} 拒绝了请求（HTTP {status}）；请检查模型名称 {model} 和密钥。"},
    "error.endpoint_count": {"en": "The embedding endpoint returned {got} vectors for {sent} texts.",
                             "zh": "嵌入服务为 {sent} 段文字返回了 {got} 个向量。"},
    "error.endpoint_malformed": {"en": "The embedding endpoint returned malformed vectors.",
                                 "zh": "嵌入服务返回的向量格式不正确。"},
    "error.endpoint_dimension": {"en": "The embedding endpoint changed dimension ({before} -> {now}); vectors of two "
                                       "models are never mixed: re-embed the library.",
                                 "zh": "嵌入服务的向量维度变了（{before} -> {now}）；两种模型的向量不能混用：请重新嵌入资料库。"},
    "error.pickle_only": {"en": "{model} has its weights only as PyTorch pickle files (pytorch_model.bin, .pt, .pth, "
                                ".ckpt), which can run code on this computer when they are loaded; this app loads "
                                "safetensors weights only. Choose another model (most have model.safetensors), or "
                                "convert this one to safetensors.",
                          "zh": "{model} 的权重只有 PyTorch pickle 文件（pytorch_model.bin、.pt、.pth、.ckpt），加载时可能在"
                                "这台电脑上执行代码；本应用只加载 safetensors 权重。请选择其他模型（大多数模型都有 "
                                "model.safetensors），或把此模型转换为 safetensors。"},
    "error.model_load_failed": {"en": "Could not load the embedding model {model}: {detail}. Pick a model folder on this "
                                      "computer in Settings, or go back to the bundled default.",
                                "zh": "无法加载嵌入模型 {model}：{detail}。请在“设置”中选择这台电脑上的模型文件夹，或改回内置"
                                      "的默认模型。"},
    "error.bad_repo_id": {"en": "“{repo_id}” is not a model name of the form organisation/name.",
                          "zh": "“{repo_id}”不是“组织/名称”形式的模型名称。"},
    "error.bad_hub_address": {"en": "The hub address “{endpoint}” is not an http(s) URL such as {default}.",
                              "zh": "模型仓库地址“{endpoint}”不是 http(s) 网址（例如 {default}）。"},
    "error.tokenizer_too_large": {"en": "The embedding model's tokenizer {path} ({mb} MB) is larger than any real one "
                                        "({limit} MB); it is not loaded.",
                                  "zh": "嵌入模型的分词器 {path}（{mb} MB）比任何真实的分词器都大（{limit} MB），未被加载。"},
    "error.tokenizer_unreadable": {"en": "The embedding model's tokenizer {path} cannot be read: {detail}",
                                   "zh": "无法读取嵌入模型的分词器 {path}：{detail}"},
    "error.tokenizer_pattern": {"en": "The embedding model's tokenizer {path} uses a regular expression this app does "
                                      "not run ({pattern}): an unknown pattern can hang or crash the tokenizer. Choose "
                                      "another model in Settings, or go back to the bundled default.",
                                "zh": "嵌入模型的分词器 {path} 使用了本应用不会运行的正则表达式（{pattern}）：未知的表达式可能"
                                      "让分词器卡死或崩溃。请在“设置”中选择其他模型，或改回内置的默认模型。"},
    "error.model_folder_unloadable": {"en": "The embedding model in {folder} cannot be loaded: {detail}",
                                      "zh": "无法加载 {folder} 中的嵌入模型：{detail}"},
    "error.model_weights_missing": {"en": "The embedding model in {folder} does not hold the weights its config.json "
                                          "declares ({wrong} of {total}, e.g. {example}); it is not loaded, so nothing "
                                          "runs with made-up weights. Download the model again, or choose another one.",
                                    "zh": "{folder} 中的嵌入模型没有 config.json 所声明的权重（{total} 个中有 {wrong} 个，例如 "
                                          "{example}）；为了不用虚构的权重运行，它未被加载。请重新下载模型，或选择其他模型。"},
    "error.model_custom_code": {"en": "The embedding model in {folder} needs its own Python code to load (config.json's "
                                      "auto_map); this app never runs code from a model folder. Choose another model "
                                      "in Settings, or go back to the bundled default.",
                                "zh": "{folder} 中的嵌入模型需要运行它自带的 Python 代码才能加载（config.json 的 auto_map）；"
                                      "本应用从不运行模型文件夹中的代码。请在“设置”中选择其他模型，或改回内置的默认模型。"},
    "phrase.loading_model": {"en": "Loading the embedding model {model}", "zh": "加载嵌入模型 {model}"},
    "phrase.the_model": {"en": "The embedding model {model}", "zh": "嵌入模型 {model}"},
    "phrase.the_tokenizer": {"en": "The embedding model {model}'s tokenizer", "zh": "嵌入模型 {model} 的分词器"},
    # model downloads (models/download.py, hub_http.py, hub_listing.py)
    "error.download_cancelled": {"en": "Download of {repo_id} cancelled. Starting it again resumes where it stopped.",
                                 "zh": "已取消下载 {repo_id}。再次开始时会从停止处继续。"},
    "error.bad_revision": {"en": "“{revision}” is not a valid revision.", "zh": "“{revision}”不是有效的版本。"},
    "error.connection_failed": {"en": "The connection to {endpoint} failed ({detail}). Try again; the download resumes.",
                                "zh": "与 {endpoint} 的连接失败（{detail}）。请重试，下载会继续。"},
    "error.not_a_hub": {"en": "{endpoint} did not answer like a model hub (no JSON file listing). Check the hub address "
                              "in Settings.",
                        "zh": "{endpoint} 的回应不像模型仓库（没有 JSON 文件列表）。请在“设置”中检查仓库地址。"},
    "error.no_weights": {"en": "{repo_id} has no model weights in a format this app reads (safetensors); choose another "
                               "model.",
                         "zh": "{repo_id} 没有本应用可读取格式（safetensors）的模型权重；请选择其他模型。"},
    "error.model_too_large": {"en": "{repo_id} is larger than {gb} GB; refused.", "zh": "{repo_id} 超过 {gb} GB，已拒绝。"},
    "error.no_revision": {"en": "{repo_id} has no such revision on {endpoint}.", "zh": "{endpoint} 上的 {repo_id} 没有这个版本。"},
    "error.not_on_hub": {"en": "{what} was not found on {endpoint}. Check the name; private repositories cannot be "
                               "downloaded here.",
                         "zh": "在 {endpoint} 上找不到 {what}。请检查名称；这里无法下载私有仓库。"},
    "error.hub_rate_limit": {"en": "{endpoint} is limiting requests (HTTP 429). Wait a few minutes and try again.",
                             "zh": "{endpoint} 正在限制请求（HTTP 429）。请等几分钟再试。"},
    "error.hub_no_resume": {"en": "{endpoint} refused to resume “{path}” (HTTP 416).",
                            "zh": "{endpoint} 拒绝继续下载“{path}”（HTTP 416）。"},
    "error.hub_http": {"en": "{endpoint} answered HTTP {status} for {what}. Try again later, or another hub.",
                       "zh": "{endpoint} 对 {what} 返回了 HTTP {status}。请稍后再试，或换一个模型仓库。"},
    "error.gated": {"en": "{repo_id} is gated on {endpoint}: its licence must be accepted while signed in. Choose another "
                          "model, or download it yourself and pick its folder with Folder….",
                    "zh": "{repo_id} 在 {endpoint} 上受访问限制：需要登录并接受其许可。请选择其他模型，或自行下载后用"
                          "“文件夹…”选择其文件夹。"},
    "error.download_disk_full": {"en": "The disk is full. Free some space and try again; the download resumes.",
                                 "zh": "磁盘已满。请释放一些空间后重试，下载会继续。"},
    "error.hub_timeout": {"en": "{endpoint} stopped answering (timed out). Check the connection, or choose a mirror "
                                "such as {mirror} as the hub address.",
                          "zh": "{endpoint} 停止了响应（超时）。请检查网络连接，或选择镜像（例如 {mirror}）作为仓库地址。"},
    "error.hub_unreachable": {"en": "Cannot reach {endpoint} ({detail}). Check the internet connection, or choose a "
                                    "mirror such as {mirror} as the hub address.",
                              "zh": "无法连接 {endpoint}（{detail}）。请检查网络连接，或选择镜像（例如 {mirror}）作为仓库地址。"},
    "error.download_failed": {"en": "The download failed: {detail}", "zh": "下载失败：{detail}"},
    "error.download_no_space": {"en": "Not enough disk space: the model needs {need} MB more, {free} MB are free in "
                                      "{where}.",
                                "zh": "磁盘空间不足：模型还需要 {need} MB，{where} 中只有 {free} MB 可用。"},
    "error.outside_folder": {"en": "“{path}” would be written outside the model folder; refused.",
                             "zh": "“{path}”会被写到模型文件夹之外，已拒绝。"},
    "error.bad_resume": {"en": "The hub resumed “{path}” at the wrong place; try again.",
                         "zh": "模型仓库从错误的位置继续传输“{path}”；请重试。"},
    "error.larger_than_listed": {"en": "“{path}” is larger than the hub's listing says; refused.",
                                 "zh": "“{path}”比模型仓库列表中所说的大，已拒绝。"},
    "error.checksum": {"en": "“{path}” did not match the hub's checksum and was deleted. Try again; if it happens again, "
                             "try another hub address.",
                       "zh": "“{path}”与模型仓库的校验和不符，已删除。请重试；如果再次发生，请换一个仓库地址。"},
    "error.bad_redirect": {"en": "The hub redirected to a non-HTTPS or non-HTTP address; refused.",
                           "zh": "模型仓库重定向到了非 HTTP(S) 地址，已拒绝。"},
    "error.too_many_redirects": {"en": "The hub redirected too many times.", "zh": "模型仓库重定向次数过多。"},
    "error.answer_too_large": {"en": "The hub's answer is larger than expected; refused.",
                               "zh": "模型仓库的回应比预期的大，已拒绝。"},
    "error.invalid_file_name": {"en": "The hub listed an invalid file name: {name}", "zh": "模型仓库列出了无效的文件名：{name}"},
    "error.unsafe_file_name": {"en": "The hub listed an unsafe file name ({name}); download refused.",
                               "zh": "模型仓库列出了不安全的文件名（{name}），已拒绝下载。"},
    "error.not_a_listing": {"en": "The hub's answer is not a model file listing.", "zh": "模型仓库的回应不是模型文件列表。"},
    "error.too_many_files": {"en": "The repository lists {n} files; refusing more than {limit}.",
                             "zh": "该仓库列出了 {n} 个文件；超过 {limit} 个的一律拒绝。"},
    "error.listing_malformed": {"en": "The hub's file listing is malformed.", "zh": "模型仓库的文件列表格式不正确。"},
    "error.listed_twice": {"en": "The hub listed “{path}” twice; download refused.",
                           "zh": "模型仓库把“{path}”列了两次，已拒绝下载。"},
    "error.no_sha256": {"en": "The hub sent no valid sha256 for “{path}”.", "zh": "模型仓库没有为“{path}”提供有效的 sha256。"},
    "error.no_size": {"en": "The hub sent no valid size for “{path}”.", "zh": "模型仓库没有为“{path}”提供有效的大小。"},
    "error.file_too_large_hub": {"en": "“{path}” is {gb} GB; refusing files over {limit} GB.",
                                 "zh": "“{path}”有 {gb} GB；超过 {limit} GB 的文件一律拒绝。"},
    "phrase.file_of": {"en": "“{path}” of {repo_id}", "zh": "{repo_id} 的“{path}”"},
    # the library (store/)
    "error.library_busy": {"en": "The library is being updated by another Desktop RAG window or process (an index run, "
                                 "or a source being removed). Wait until it has finished, then try again.",
                           "zh": "另一个 Desktop RAG 窗口或进程正在更新资料库（正在索引，或正在移除某个来源）。请等它完成后再试。"},
    "error.unknown_collection": {"en": "There is no collection called “{name}”. The collections are: {names} "
                                       "(`desktop-rag collections create NAME` makes a new one).",
                                 "zh": "没有名为“{name}”的合集。现有的合集是：{names}（`desktop-rag collections create 名称` "
                                       "可新建一个）。"},
    "error.collection_no_name": {"en": "A collection needs a name.", "zh": "合集需要一个名称。"},
    "error.collection_name_long": {"en": "A collection name can have at most {n} characters.",
                                   "zh": "合集名称最多只能有 {n} 个字符。"},
    "error.collection_name_controls": {"en": "A collection name cannot contain control or invisible characters.",
                                       "zh": "合集名称不能包含控制字符或不可见字符。"},
    "error.collection_exists": {"en": "A collection called “{name}” already exists.", "zh": "名为“{name}”的合集已存在。"},
    "error.collection_gone": {"en": "That collection no longer exists.", "zh": "该合集已不存在。"},
    "error.unknown_type": {"en": "Unknown file type “{kind}”: choose one of {types}.",
                           "zh": "未知的文件类型“{kind}”：请从 {types} 中选择。"},
    "error.too_many_folders": {"en": "A search can be limited to at most {n} folders.", "zh": "一次搜索最多只能限定 {n} 个文件夹。"},
    "error.empty_folder_name": {"en": "An empty folder name was given; name a folder of the library.",
                                "zh": "给出的文件夹名称为空；请指定资料库中的一个文件夹。"},
    "error.bad_folder_path": {"en": "“{path}” is not a usable folder path ({detail}).",
                              "zh": "“{path}”不是可用的文件夹路径（{detail}）。"},
    "error.unknown_folder": {"en": "Nothing in the library is in the folder “{folder}”. The library's folders are: "
                                   "{folders}.",
                             "zh": "资料库中没有任何内容位于文件夹“{folder}”中。资料库的文件夹是：{folders}。"},
    "error.unknown_folder_none": {"en": "Nothing in the library is in the folder “{folder}”. The library has no folders "
                                        "yet.",
                                  "zh": "资料库中没有任何内容位于文件夹“{folder}”中。资料库中还没有文件夹。"},
    "error.too_many_files_scope": {"en": "A search can be limited to at most {n} files.", "zh": "一次搜索最多只能限定 {n} 个文件。"},
    "error.empty_file_name": {"en": "An empty file name was given; name a file of the library.",
                              "zh": "给出的文件名为空；请指定资料库中的一个文件。"},
    "error.bad_file_path": {"en": "“{path}” is not a usable file path ({detail}).", "zh": "“{path}”不是可用的文件路径（{detail}）。"},
    "error.not_a_library_file": {"en": "“{path}” is not a file of the library (see `desktop-rag status`; a folder is "
                                       "limited with --folder).",
                                 "zh": "“{path}”不是资料库中的文件（见 `desktop-rag status`；限定文件夹请用 --folder）。"},
    "error.library_newer_schema": {"en": "This library was written by a newer Desktop RAG (schema {version}); please "
                                         "update the app.",
                                   "zh": "此资料库由更新版本的 Desktop RAG 写入（schema {version}）；请更新应用。"},
    "error.not_a_library": {"en": "{path} is not a Desktop RAG library ({detail}).",
                            "zh": "{path} 不是 Desktop RAG 资料库（{detail}）。"},
    "error.library_newer": {"en": "This library was written by a newer Desktop RAG; please update the app.",
                            "zh": "此资料库由更新版本的 Desktop RAG 写入；请更新应用。"},
    "error.library_older": {"en": "This library was written by an older Desktop RAG; open it once with the app (or run "
                                  "`desktop-rag status`) to upgrade it.",
                            "zh": "此资料库由较旧版本的 Desktop RAG 写入；请用应用打开一次（或运行 `desktop-rag status`）来升级。"},
    "error.bad_source_name": {"en": "The name of {path} is not valid text (UTF-8), so it cannot be stored; rename it and "
                                    "add it again.",
                              "zh": "{path} 的名称不是有效文本（UTF-8），无法保存；请重命名后重新添加。"},
    "error.no_library": {"en": "There is no library in {folder} yet: index some documents first (`desktop-rag index "
                               "PATH`, or drop files on the window).",
                         "zh": "{folder} 中还没有资料库：请先索引一些文档（`desktop-rag index 路径`，或把文件拖到窗口上）。"},
    # collection archives (archive/)
    "error.not_archive": {"en": "{name} is not a Desktop RAG collection archive: {why}. Nothing was changed.",
                          "zh": "{name} 不是 Desktop RAG 合集归档：{why}。没有做任何更改。"},
    "error.archive_damaged": {"en": "{name} is damaged or incomplete: {why}. Nothing was changed; export it again.",
                              "zh": "{name} 已损坏或不完整：{why}。没有做任何更改；请重新导出。"},
    "error.changed_during_export": {"en": "{path} changed while it was being exported; export again.",
                                    "zh": "{path} 在导出过程中发生了变化；请重新导出。"},
    "error.no_such_file": {"en": "No such file: {path}", "zh": "没有这个文件：{path}"},
    "error.archive_newer": {"en": "{path} was written by a newer Desktop RAG (archive format {version}); update the app "
                                  "to import it. Nothing was changed.",
                            "zh": "{path} 由更新版本的 Desktop RAG 写入（归档格式 {version}）；请更新应用后再导入。没有做任何更改。"},
    "error.member_larger": {"en": "{name} in the archive is larger than it says. Nothing was changed.",
                            "zh": "归档中的 {name} 比它声明的大。没有做任何更改。"},
    "error.member_shorter": {"en": "{name} in the archive is shorter than it says. Nothing was changed.",
                             "zh": "归档中的 {name} 比它声明的短。没有做任何更改。"},
    "error.member_too_large": {"en": "{name} in the archive is too large. Nothing was changed.",
                               "zh": "归档中的 {name} 过大。没有做任何更改。"},
    "error.cannot_import": {"en": "{name} cannot be imported: {problem}. Nothing was changed.",
                            "zh": "无法导入 {name}：{problem}。没有做任何更改。"},
    "phrase.archive.unreadable_zip": {"en": "it is not a readable zip file ({detail})", "zh": "它不是可读取的 zip 文件（{detail}）"},
    "phrase.archive.member_twice": {"en": "a member name occurs twice", "zh": "有一个成员名称出现了两次"},
    "phrase.archive.no_manifest": {"en": "it has no manifest.json (not made by `desktop-rag export`)", "zh": "它没有 manifest.json（不是由 `desktop-rag export` 生成的）"},
    "phrase.archive.unlisted_member": {"en": "it holds a member the manifest does not list ({name})", "zh": "它包含清单中没有列出的成员（{name}）"},
    "phrase.archive.unexpected_member": {"en": "its manifest lists an unexpected member name {name}", "zh": "它的清单列出了意外的成员名称 {name}"},
    "phrase.archive.member_missing": {"en": "the member {name} is missing (a truncated or edited archive)", "zh": "缺少成员 {name}（归档被截断或被修改过）"},
    "phrase.archive.member_size": {"en": "the size of {name} does not match its manifest or is too large", "zh": "{name} 的大小与清单不符或过大"},
    "phrase.archive.documents_large": {"en": "its documents are larger than 64 GB", "zh": "其中的文档超过 64 GB"},
    "phrase.archive.vector_dimension": {"en": "its vectors have an impossible dimension", "zh": "其中向量的维度不可能成立"},
    "phrase.archive.vector_shape": {"en": "its vectors do not match their count and dimension", "zh": "其中的向量与其数量和维度不符"},
    "phrase.archive.too_large": {"en": "its passages and vectors are larger than this app reads", "zh": "其中的段落和向量超出了本应用可读取的大小"},
    "phrase.archive.inflates": {"en": "{name} inflates more than {ratio} times (a zip bomb, or not made by `desktop-rag export`)", "zh": "{name} 解压后膨胀超过 {ratio} 倍（是 zip 炸弹，或不是由 `desktop-rag export` 生成的）"},
    "phrase.archive.bad_manifest": {"en": "its manifest is not a Desktop RAG collection manifest", "zh": "它的清单不是 Desktop RAG 合集清单"},
    "phrase.archive.manifest_key": {"en": "its manifest has no valid {key}", "zh": "它的清单中没有有效的 {key}"},
    "phrase.archive.no_counts": {"en": "its manifest's counts are missing", "zh": "它的清单缺少计数"},
    "phrase.archive.no_model": {"en": "its manifest does not say which model made its vectors", "zh": "它的清单没有说明向量是由哪个模型生成的"},
    "phrase.archive.unlisted": {"en": "its manifest does not list {name}", "zh": "它的清单没有列出 {name}"},
    "phrase.archive.checksum": {"en": "the content of {name} does not match its checksum", "zh": "{name} 的内容与其校验和不符"},
    "phrase.archive.vector_numbers": {"en": "its vectors hold invalid numbers", "zh": "其中的向量包含无效数值"},
    "phrase.archive.collection_json": {"en": "collection.json is not an object", "zh": "collection.json 不是对象"},
    "phrase.archive.json": {"en": "{name} is not valid JSON", "zh": "{name} 不是有效的 JSON"},
    "error.import_name_taken": {"en": "A collection called “{name}” already exists here; import it under another name "
                                      "(`desktop-rag import FILE --name NEW`) or delete that one first.",
                                "zh": "这里已有名为“{name}”的合集；请用其他名称导入（`desktop-rag import 文件 --name 新名称`），"
                                      "或先删除那个合集。"},
    "error.import_source_exists": {"en": "The archive's source {path} is already a source in this library (collection "
                                         "“{collection}”): a file or folder can be in one collection only.{advice} "
                                         "Nothing was changed.",
                                   "zh": "归档中的来源 {path} 已是此资料库的来源（合集“{collection}”）：一个文件或文件夹只能属于"
                                         "一个合集。{advice}没有做任何更改。"},
    "error.import_source_overlaps": {"en": "The archive's source {path} overlaps {other}, which is a source in this "
                                           "library (collection “{collection}”): a file or folder can be in one "
                                           "collection only.{advice} Nothing was changed.",
                                     "zh": "归档中的来源 {path} 与此资料库的来源 {other}（合集“{collection}”）重叠：一个文件或"
                                           "文件夹只能属于一个合集。{advice}没有做任何更改。"},
    "phrase.other_documents_dir": {"en": " Choose another folder for its documents (`--documents-dir`).",
                                   "zh": "请为其文档选择另一个文件夹（`--documents-dir`）。"},
    "phrase.empty": {"en": "", "zh": ""},
    "error.import_file_exists": {"en": "{path} is already in this library: a file can be in one collection only. "
                                       "Nothing was changed.",
                                 "zh": "{path} 已在此资料库中：一个文件只能属于一个合集。没有做任何更改。"},
    "error.import_no_space": {"en": "Not enough free disk space for {what}: about {needed} needed on {where}, {free} "
                                    "free. Nothing was changed.",
                              "zh": "磁盘空间不足，无法存放{what}：{where} 上大约需要 {needed}，只有 {free} 可用。没有做任何更改。"},
    "phrase.imported_passages": {"en": "the imported passages", "zh": "导入的段落"},
    "phrase.the_documents": {"en": "the documents", "zh": "文档"},
    "error.path_outside": {"en": "A path in the archive leads outside {root}. Nothing was changed.",
                           "zh": "归档中有路径指向 {root} 之外。没有做任何更改。"},
    "error.unsupported_member": {"en": "The document name {name} in the archive is not a supported document type. "
                                       "Nothing was changed.",
                                 "zh": "归档中的文档名 {name} 不是受支持的文档类型。没有做任何更改。"},
    "error.folder_named_like_document": {"en": "A folder in the archive has the name of a document once names are "
                                               "cleaned for this computer ({name}). Nothing was changed.",
                                         "zh": "按这台电脑的规则清理名称后，归档中的一个文件夹与某个文档同名（{name}）。没有做任何更改。"},
    "error.documents_dir_not_empty": {"en": "{dest} already exists and is not empty: choose another folder for the "
                                            "documents. Nothing was changed.",
                                      "zh": "{dest} 已存在且不为空：请为文档选择另一个文件夹。没有做任何更改。"},
    "error.changed_during_extract": {"en": "The document {name} changed while it was being extracted. Nothing was "
                                           "changed.",
                                     "zh": "文档 {name} 在解压过程中发生了变化。没有做任何更改。"},
    "error.already_linked": {"en": "{path} is already linked to this computer. Nothing was changed.",
                             "zh": "{path} 已关联到这台电脑。没有做任何更改。"},
    "error.link_not_folder": {"en": "Choose a folder to link {path} to: {chosen} is not a folder.",
                              "zh": "请选择一个文件夹来关联 {path}：{chosen} 不是文件夹。"},
    "error.link_not_document": {"en": "Choose a document ({types}) to link {path} to: {chosen} is not one.",
                                "zh": "请选择一个文档（{types}）来关联 {path}：{chosen} 不是。"},
    "error.link_overlaps": {"en": "{target} overlaps {other}, which is a source in the collection “{collection}”: "
                                  "choose another folder.",
                            "zh": "{target} 与合集“{collection}”中的来源 {other} 重叠：请选择另一个文件夹。"},
    "error.link_collision": {"en": "Two files of {path} would have the same path in {target}. Nothing was changed.",
                             "zh": "{path} 中有两个文件在 {target} 中会有相同的路径。没有做任何更改。"},
    # the language model (answer/llm.py); {detail}: the server's own words
    "error.llm_auth": {"en": "The API key was rejected by {host} (HTTP {status}). Check the key in Settings or "
                             "OPENAI_API_KEY. Server said: {detail}",
                       "zh": "{host} 拒绝了 API 密钥（HTTP {status}）。请在“设置”中或 OPENAI_API_KEY 里检查密钥。服务器返回：{detail}"},
    "error.llm_model_not_found": {"en": "The model '{model}' was not found at {host} (HTTP {status}). Check the model "
                                        "name and the base URL in Settings. Server said: {detail}",
                                  "zh": "在 {host} 上找不到模型“{model}”（HTTP {status}）。请在“设置”中检查模型名称和基础地址。"
                                        "服务器返回：{detail}"},
    "error.llm_rate_limit": {"en": "{host} is rate-limiting requests (HTTP 429). Wait a minute and try again, or check "
                                   "your plan's quota. Server said: {detail}",
                             "zh": "{host} 正在限制请求频率（HTTP 429）。请等一分钟再试，或检查你的套餐额度。服务器返回：{detail}"},
    "error.llm_bad_request": {"en": "{host} rejected the request (HTTP {status}): {detail}",
                              "zh": "{host} 拒绝了请求（HTTP {status}）：{detail}"},
    "error.llm_server": {"en": "The model server {host} had an internal error (HTTP {status}). Try again later. Server "
                               "said: {detail}",
                         "zh": "模型服务器 {host} 发生内部错误（HTTP {status}）。请稍后再试。服务器返回：{detail}"},
    "error.llm_timeout": {"en": "The model server {host} did not answer within {seconds} s. Try again; a slow local "
                                "model may need a longer timeout.",
                          "zh": "模型服务器 {host} 在 {seconds} 秒内没有响应。请重试；较慢的本地模型可能需要更长的超时时间。"},
    "error.llm_unreachable": {"en": "Could not reach the model server at {url}. Check the base URL and your network "
                                    "connection.",
                              "zh": "无法连接位于 {url} 的模型服务器。请检查基础地址和网络连接。"},
    "error.llm_unreachable_local": {"en": "Could not reach the model server at {url}. Check the base URL and your network "
                                          "connection. Is the local server (Ollama / LM Studio) running?",
                                    "zh": "无法连接位于 {url} 的模型服务器。请检查基础地址和网络连接。本地服务器（Ollama / "
                                          "LM Studio）是否在运行？"},
    "error.llm_unexpected": {"en": "The model server {host} returned an unexpected reply: {detail}",
                             "zh": "模型服务器 {host} 返回了意外的回复：{detail}"},
    "error.llm_cut": {"en": "The answer was cut off: {why} mid-answer. The partial answer is kept; ask again to get the "
                            "rest.",
                      "zh": "回答被中断：回答到一半时{why}。已保留部分回答；再问一次即可得到其余部分。"},
    "phrase.llm_dropped": {"en": "the connection to the model server dropped", "zh": "与模型服务器的连接断开了"},
    "phrase.llm_stopped": {"en": "the model server stopped sending", "zh": "模型服务器停止了发送"},
    "phrase.llm_reported": {"en": "the model server reported an error ({detail})", "zh": "模型服务器报告了错误（{detail}）"},
    "error.llm_no_key": {"en": "No API key is set for {host}. Add it in Settings or put OPENAI_API_KEY=... in the .env "
                               "file in the app's config folder.",
                         "zh": "没有为 {host} 设置 API 密钥。请在“设置”中添加，或在应用配置文件夹的 .env 文件中写入 "
                               "OPENAI_API_KEY=...。"},
    "error.llm_cut_deadline": {"en": "The answer was cut off: {host} took longer than {seconds} s, the limit for one "
                                     "answer. The partial answer is kept; ask a narrower question to get the rest.",
                               "zh": "回答被中断：{host} 用时超过了单个回答 {seconds} 秒的上限。已保留部分回答；把问题问得更具体"
                                     "即可得到其余部分。"},
    "error.llm_deadline": {"en": "The model server {host} did not finish within {seconds} s, the limit for one answer. "
                                 "Try again later, or ask a narrower question.",
                           "zh": "模型服务器 {host} 未能在单个回答 {seconds} 秒的上限内完成。请稍后再试，或把问题问得更具体。"},
    "error.llm_length": {"en": "The answer was stopped at {cap:,} characters, the limit for one answer. Ask a narrower "
                               "question to get the rest.",
                         "zh": "回答在 {cap:,} 个字符处停止（单个回答的上限）。把问题问得更具体即可得到其余部分。"},
    "error.not_in_library": {"en": "“{path}” is not a file of the library (see `desktop-rag status`).",
                             "zh": "“{path}”不是资料库中的文件（见 `desktop-rag status`）。"},
    "error.nothing_to_summarise": {"en": "“{path}” has no text in the library yet: nothing to summarise.",
                                   "zh": "资料库中还没有“{path}”的文字：没有可摘要的内容。"},
    "error.nothing_to_summarise_because": {"en": "“{path}” has no text in the library yet ({why}): nothing to summarise.",
                                           "zh": "资料库中还没有“{path}”的文字（{why}）：没有可摘要的内容。"},
    # the viewer (document/)
    "error.page_no_size": {"en": "This page has no size a viewer can draw, so it cannot be shown",
                           "zh": "此页面没有可供查看器绘制的尺寸，无法显示"},
    "error.page_bad_size": {"en": "This page is too large or too thin to show ({width} x {height} points)",
                            "zh": "此页面太大或太窄，无法显示（{width} x {height} 点）"},
    "error.document_closed": {"en": "The document was closed", "zh": "文档已关闭"},
    "error.view_password": {"en": "This PDF is password-protected, so it cannot be shown here; use Open in default app",
                            "zh": "此 PDF 受密码保护，无法在这里显示；请用“用默认程序打开”"},
    "error.view_vanished": {"en": "The file was moved or deleted since it was indexed", "zh": "该文件在索引后被移动或删除了"},
    "error.view_damaged": {"en": "This PDF is damaged or is not a valid PDF file, so it cannot be shown",
                           "zh": "此 PDF 已损坏或不是有效的 PDF 文件，无法显示"},
    "error.view_unopenable": {"en": "This PDF could not be opened ({detail})", "zh": "无法打开此 PDF（{detail}）"},
}
