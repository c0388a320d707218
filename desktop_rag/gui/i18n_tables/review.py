"""The texts of grading answers and of the Review view (issue 39)."""

from __future__ import annotations

TEXT: dict[str, tuple[str, str]] = {
    # grading answers and the Review view (issue 39)
    "grade.prompt": ("Grade:", "评价："),
    "grade.right": ("Fully right", "完全正确"),
    "grade.partly": ("Partly right", "部分正确"),
    "grade.wrong": ("Wrong", "错误"),
    "grade.refused": ("Refused", "拒答"),
    "grade.tip": ("Grade this answer (one click; click another grade to change it). Grades stay in your library, seen by you alone.",
                  "评价这个回答（点一下即可；点另一个评价即可更改）。评价只保存在你的资料库中，只有你能看到。"),
    "grade.passage": ("Right passage: [{n}]", "正确段落：[{n}]"),
    "grade.passage_none": ("Right passage: none of them", "正确段落：都不是"),
    "grade.not_saved": ("The grade could not be saved: {reason}", "评价未能保存：{reason}"),
    "sources.mark_right": ("✓ Right passage", "✓ 正确段落"),
    "sources.mark_right_tip": ("Mark the selected passage as the one that answers the question (it becomes a "
                               "labelled question for “Measure my library”)",
                               "把所选段落标为回答了这个问题的段落（它会成为“衡量我的资料库”的标注问题）"),
    "sources.mark_wrong": ("✗ Wrong passage", "✗ 错误段落"),
    "sources.mark_wrong_tip": ("Mark the selected passage as one that does not answer the question: it is not "
                               "given to the model for this question again (Settings: Learn from my grades)",
                               "把所选段落标为没有回答这个问题的段落：再问这个问题时不会再把它交给模型"
                               "（设置：从我的评价中学习）"),
    "grade.wrong_marked": ("Passage [{n}] marked wrong: it is not used for this question again.",
                           "段落 [{n}] 已标为错误：再问这个问题时不会再使用它。"),
    "sources.mark_gone_tip": ("This passage of “{name}” is no longer in the library (its file was edited or "
                              "removed after this answer), so it cannot be marked: ask again to mark a passage as it "
                              "is now",
                              "“{name}”中的此段落已不在资料库中（此回答之后，该文件被修改或移除了），因此无法标记："
                              "请重新提问，再标记当前的段落"),
    "sources.mark_none": ("None of them", "都不是"),
    "sources.mark_none_tip": ("None of these passages answers the question", "这些段落都没有回答这个问题"),
    "conv.keep_grades": ("This conversation has graded answers. Keep the grades (for the Review view and "
                         "“Measure my library”) after deleting it?",
                         "此会话中有已评价的回答。删除后是否保留这些评价（用于“回顾回答”和“衡量我的资料库”）？"),
    "conv.keep": ("Keep the grades", "保留评价"),
    "conv.forget": ("Delete them too", "一并删除"),
    "menu.review": ("Review answers…", "回顾回答…"),
    "review.title": ("Review answers", "回顾回答"),
    "review.overview": ("Overview", "概览"),
    "review.spot": ("Spot check", "抽查"),
    "review.measure": ("Measure my library", "衡量我的资料库"),
    "review.col.period": ("Week of", "周起始"),
    "review.col.answers": ("Answers", "回答数"),
    "review.col.ungraded": ("Not graded", "未评价"),
    "review.col.opened": ("Sources opened", "打开来源"),
    "review.col.reasked": ("Asked again", "重复提问"),
    "review.totals": ("All time: {answers:answer|answers} · {right} fully right · {partly} partly right · {wrong} wrong · "
                      "{refused} refused · {ungraded} not graded",
                      "全部：{answers} 个回答 · 完全正确 {right} · 部分正确 {partly} · 错误 {wrong} · 拒答 {refused} · "
                      "未评价 {ungraded}"),
    "review.signals_note": ("Sources opened: answers whose cited source was opened in the viewer. Asked again: "
                            "questions re-asked or rephrased soon after (or “are you sure?”); both suggest the answer "
                            "did not satisfy. Recorded in your library, for you alone.",
                            "打开来源：在查看器中打开了所引来源的回答。重复提问：不久后又问了相同或改写的问题"
                            "（或“你确定吗”）；两者都说明回答可能不令人满意。只记录在你的资料库中，仅你可见。"),
    "review.empty": ("No answers yet: ask questions in the chat, then come back.",
                     "还没有回答：先在对话中提问，再回来查看。"),
    "review.refresh": ("Refresh", "刷新"),
    "review.export": ("Export graded…", "导出已评价…"),
    "review.export_title": ("Export graded questions", "导出已评价的问题"),
    "review.export_filter": ("JSON Lines", "JSON Lines 文件"),
    "review.exported": ("Exported {count:graded question|graded questions} to {path}.", "已导出 {count} 个已评价的问题到 {path}。"),
    "review.export_failed": ("The export failed: {reason}", "导出失败：{reason}"),
    "review.spot_intro": ("Up to 50 random recent questions not graded yet. Keys: 1 fully right · 2 partly right · "
                          "3 wrong · 4 refused · → or N next · ← or P previous · Esc closes.",
                          "最多 50 个随机抽取的近期未评价问题。按键：1 完全正确 · 2 部分正确 · 3 错误 · 4 拒答 · "
                          "→ 或 N 下一个 · ← 或 P 上一个 · Esc 关闭。"),
    "review.spot_position": ("Question {n} of {total}", "第 {n} 个，共 {total} 个"),
    "review.spot_empty": ("Every recent question is graded: nothing to check.", "近期的问题都已评价，无需抽查。"),
    "review.spot_question": ("Question", "问题"),
    "review.spot_answer": ("Answer", "回答"),
    "review.spot_sources": ("Sources", "来源"),
    "review.previous": ("◀ Previous", "◀ 上一个"),
    "review.next": ("Next ▶", "下一个 ▶"),
    "review.new_sample": ("New sample", "重新抽样"),
    "review.measure_intro": ("Runs every question with a marked right passage in the collection chosen in the "
                             "main window (all of them with “All collections”) against the library as it is now, "
                             "with each retrieval mode. recall@5: share of marked passages found in the first 5; "
                             "precision@5: share of the first 5 that are marked; nDCG@10: how high they rank.",
                             "用资料库的当前状态、以每种检索方式重新检索主窗口所选知识库中每个标了正确段落的问题（选“全部知识库”则为全部问题）。recall@5：前 5 个结果"
                             "找到已标段落的比例；precision@5：前 5 个结果中已标段落的比例；nDCG@10：它们排得有多靠前。"),
    "review.run": ("Measure", "开始衡量"),
    "review.cancel": ("Cancel", "取消"),
    "review.running": ("Measuring: {done} of {total:question|questions}…", "正在衡量：第 {done} 个，共 {total} 个问题…"),
    "review.cancelled": ("Cancelled.", "已取消。"),
    "review.scope": ("Measured: the questions asked in the collection “{name}”, searched within it.",
                     "衡量范围：在知识库“{name}”中提出的问题，只在其中检索。"),
    "review.scope_all": ("Measured: the questions of all collections, searched in the whole library.",
                         "衡量范围：全部知识库的问题，在整个资料库中检索。"),
    "review.failed": ("The measurement failed: {reason}", "衡量失败：{reason}"),
    "review.no_labels": ("No labelled questions yet: under an answer, select the passage that answers it in Sources "
                         "and press “✓ Right passage”.",
                         "还没有标注的问题：在“来源”中选中回答了问题的段落，然后点“✓ 正确段落”。"),
    "review.measured": ("{queries:labelled question|labelled questions} measured.", "已衡量 {queries} 个标注问题。"),
    "review.col.mode": ("Retrieval", "检索方式"),
    "review.col.queries": ("Questions", "问题数"),
    "review.mode.hybrid": ("Hybrid (keywords + meaning)", "混合（关键词 + 语义）"),
    "review.mode.dense": ("Meaning only", "仅语义"),
    "review.mode.keyword": ("Keywords only", "仅关键词"),
    "review.mode.compression_off": ("Hybrid, whole passages", "混合，完整段落"),
    "review.mode.compression_on": ("Hybrid, passages shortened", "混合，精简段落"),
    "review.stale": ("Stale (the marked passage changed or is gone, so not measured): {count}",
                     "已过时（所标段落已更改或已不存在，未计入）：{count}"),
    "settings.feedback": ("Learn from my grades (a wrong answer is never reused; a passage marked right comes "
                          "first, one marked wrong is not cited, for the same question)",
                          "从我的评价中学习（错误的回答不再复用；对同一问题，标为正确的段落排在最前，标为错误的不再引用）"),
    "settings.forget_grades": ("Forget all grades…", "删除所有评价…"),
    "settings.forget_grades_tip": ("Remove every grade and marked passage of yours in this library",
                                   "删除你在此资料库中的所有评价和标注段落"),
    "settings.forget_grades_confirm": ("Remove every grade and every marked passage? This cannot be undone.",
                                       "删除所有评价和标注段落？此操作无法撤销。"),
    "settings.grades_forgotten": ("Grades removed: {count}.", "已删除评价：{count} 条。"),
    "settings.grades_not_forgotten": ("The grades could not be removed: {reason}", "无法删除评价：{reason}"),
}
