"""One file in an index run (issue 49): the reasons a file failed at a step after reading, and the notes on an
indexed file whose reader left a part out (a slide, a sheet, a chapter, a message, pages past the OCR limits, an
attachment)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # a step of one file failed in a way no reader foresaw; {error}: the library's own words (type: message)
    "error.chunking_failed": {"en": "This file's text could not be cut into passages ({error}); the other files were "
                                    "indexed",
                              "zh": "此文件的文字无法切分成段落（{error}）；其他文件已正常索引"},
    "error.store_failed": {"en": "This file's passages could not be stored in the library ({error}); the other files "
                                 "were indexed",
                           "zh": "此文件的段落无法存入资料库（{error}）；其他文件已正常索引"},
    "error.embedding_failed": {"en": "The embedding model could not take this file's passages ({error}); the other "
                                     "files were indexed",
                               "zh": "嵌入模型无法处理此文件的段落（{error}）；其他文件已正常索引"},
}
