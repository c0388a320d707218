"""Errors of the review log, grading and `desktop-rag eval` (engine/review/; issue 39)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "error.unknown_grade": {"en": "Unknown grade {grade}: one of {grades}.", "zh": "未知的评分 {grade}：应为 {grades} 之一。"},
    "error.unknown_answer": {
        "en": "Answer {answer_id} is not in the review log (it was deleted with its conversation, or never logged).",
        "zh": "评审记录中没有回答 {answer_id}（它已随对话删除，或从未记录）。",
    },
    "error.passage_gone": {
        "en": "This passage is no longer in the library (its file was edited or removed after the answer), so it "
              "cannot be marked: ask the question again to mark a passage as the document reads now.",
        "zh": "此段落已不在资料库中（回答之后，它所在的文件被修改或移除了），因此无法标记：请重新提问，"
              "再标记文档当前的段落。",
    },
    "error.review_export_failed": {  # {detail}: the system's reason
        "en": "The graded questions cannot be written to {path} ({detail}): choose another file or folder.",
        "zh": "无法把已评价的问题写入 {path}（{detail}）：请换一个文件或文件夹。",
    },
    "error.labelled_set_pair": {
        "en": "An imported labelled set needs both files: the queries (JSONL) and the qrels (TSV).",
        "zh": "导入的标注集需要两个文件：查询文件（JSONL）和 qrels 文件（TSV）。",
    },
    "error.labelled_set_unjudged": {  # {qrels}, {queries}: the two files; {count}: the questions read
        "en": "{qrels} judges none of the {count:question|questions} in {queries}: after its header line, each line is a "
              "query-id (a question's \"_id\"), a corpus-id and a score above 0, separated by tabs.",
        "zh": "{qrels} 没有为 {queries} 中的任何问题（共 {count} 个）标注相关文档：标题行之后，每行为以制表符分隔的 "
              "query-id（问题的 \"_id\"）、corpus-id 和大于 0 的 score。",
    },
    "phrase.labelled.not_json": {"en": "not JSON ({why})", "zh": "不是 JSON（{why}）"},
    "phrase.labelled.no_id_text": {"en": "no \"_id\" and \"text\"", "zh": "没有 \"_id\" 和 \"text\""},
    "phrase.labelled.not_qrels": {"en": "not query-id, corpus-id and score",
                                  "zh": "不是 query-id、corpus-id 和 score"},
    "phrase.labelled.too_long": {"en": "line too long", "zh": "行太长"},
    "phrase.labelled.not_utf8": {"en": "not UTF-8 text", "zh": "不是 UTF-8 文本"},
    "error.labelled_set_unreadable": {  # {detail}: the system's reason
        "en": "{path} cannot be read ({detail}): name a queries file (JSONL) and a qrels file (TSV).",
        "zh": "无法读取 {path}（{detail}）：请指定查询文件（JSONL）和 qrels 文件（TSV）。",
    },
    "error.bad_labelled_set": {  # {path}: the file, {line}: its line number, {problem}: what is wrong
        "en": "{path}, line {line}: {problem}. Queries are one {{\"_id\", \"text\"}} object a line; qrels are "
              "query-id, corpus-id and score separated by tabs, after a header line.",
        "zh": "{path} 第 {line} 行：{problem}。查询文件每行一个 {{\"_id\", \"text\"}} 对象；qrels 文件在标题行之后，"
              "每行为以制表符分隔的 query-id、corpus-id 和 score。",
    },
}
