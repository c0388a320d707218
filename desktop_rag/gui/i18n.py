"""A small dict-based translation table (English / Simplified Chinese) with live re-translation."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from desktop_rag.engine import (
    DEFAULT_COLLECTION,
    READERS,
    WINDOW,
    Counted,
    Localised,
    environment_language,
    error_text,
    suffix_patterns,
    type_labels,
)


def types_phrase(lang: str) -> str:
    """The supported formats for a sentence: "PDF, Word .docx, .md, .txt and images" (or in Chinese), from the
    engine's reader registry."""
    names = type_labels(lang)
    if lang == "zh":
        return "、".join(names[:-1]) + " 和" + names[-1]
    return ", ".join(names[:-1]) + " and " + names[-1]


def file_filter(documents: str, all_files: str) -> str:
    """A file dialog filter: every supported suffix under `documents`, then `all_files` (*)."""
    return f"{documents} ({suffix_patterns()});;{all_files} (*)"


_TEXT: dict[str, tuple[str, str]] = {
    # Qt's standard dialog buttons (QtTexts below)
    "button.ok": ("OK", "确定"),
    "button.cancel": ("Cancel", "取消"),
    "button.close": ("Close", "关闭"),
    "button.yes": ("&Yes", "是(&Y)"),
    "button.no": ("&No", "否(&N)"),
    # window and areas
    "app.title": ("Desktop RAG", "Desktop RAG 本地知识库"),
    "app.cannot_start": ("Desktop RAG cannot start", "Desktop RAG 无法启动"),
    "library.title": ("Library", "资料库"),
    "chat.title": ("Chat", "对话"),
    "sources.title": ("Sources", "来源"),
    "conversations.title": ("Conversations", "会话"),
    # library panel
    "library.add_folder": ("Add folder…", "添加文件夹…"),
    "library.add_files": ("Add files…", "添加文件…"),
    "library.reindex": ("Re-index", "重新索引"),
    "library.remove": ("Remove", "移除"),
    "library.link": ("Link to a folder…", "关联到文件夹…"),
    "library.link_folder": ("Choose the folder that holds “{path}” on this computer",
                            "选择本机上存放“{path}”的文件夹"),
    "library.link_file": ("Choose the file “{path}” on this computer", "选择本机上的文件“{path}”"),
    "library.not_linked_tip": ("{path}\nImported from an archive without its documents: not linked to this computer, "
                               "so it is never scanned or opened. Link it to a folder you choose to index it.",
                               "{path}\n从归档导入、未附带文档：尚未关联到本机，因此不会被扫描或打开。"
                               "将其关联到您选择的文件夹后才会索引。"),
    "library.link_failed": ("Could not link “{path}”: {reason}", "无法关联“{path}”：{reason}"),
    "library.pause": ("Pause", "暂停"),
    "library.pause_tip": ("Stops after the current step; Resume continues where it stopped.",
                          "在当前步骤后停止；“继续”会从停止处接着做。"),
    "library.resume": ("Resume", "继续"),
    "library.cancel": ("Cancel", "取消"),
    "library.col.name": ("Name", "名称"),
    "library.col.state": ("State", "状态"),
    "library.col.chunks": ("Chunks", "片段"),
    "library.totals": ("{sources:source|sources} · {files:file|files} · {chunks:chunk|chunks} · {failed} failed",
                       "{sources} 个来源 · {files} 个文件 · {chunks} 个片段 · {failed} 个失败"),
    "library.empty_hint": ("Drop files or folders here, or use Add folder.",
                           "把文件或文件夹拖到这里，或点击“添加文件夹”。"),
    "library.unsupported": (f"Not added (unsupported type; {types_phrase('en')} only): {{names}}",
                            f"未添加（不支持的类型，仅支持 {types_phrase('zh')}）：{{names}}"),
    "library.failed_reason": ("Failed: {reason}", "失败：{reason}"),
    "library.note": ("Indexed; {reason}", "已索引；{reason}"),
    "library.attachment_tip": ("An attachment of the e-mail above, indexed as a document of its own: {path}",
                               "上方邮件的附件，作为独立文档索引：{path}"),
    "library.filter": ("Filter files by name…", "按文件名筛选…"),
    "watch.limit_watches": (
        "The system's limit on watched folders (inotify watches) is reached, so these folders are checked for "
        "changes every {seconds:second|seconds} instead of at once: {names}. To watch them live, raise the limit with "
        "“{command}” (to keep it after a restart, add the line {persist} to /etc/sysctl.d/90-inotify.conf), "
        "then restart Desktop RAG.",
        "已达到系统的文件夹监视数量上限（inotify watches），以下文件夹改为每 {seconds} 秒检查一次变化：{names}。"
        "若要实时监视，请运行“{command}”提高上限（重启后仍生效：在 /etc/sysctl.d/90-inotify.conf 中加入 {persist}），"
        "然后重新启动 Desktop RAG。"),
    "watch.limit_instances": (
        "The system's limit on file watchers (inotify instances) is reached, so these folders are checked for "
        "changes every {seconds:second|seconds} instead of at once: {names}. To watch them live, raise the limit with "
        "“{command}” (to keep it after a restart, add the line {persist} to /etc/sysctl.d/90-inotify.conf), "
        "then restart Desktop RAG.",
        "已达到系统的文件监视器数量上限（inotify instances），以下文件夹改为每 {seconds} 秒检查一次变化：{names}。"
        "若要实时监视，请运行“{command}”提高上限（重启后仍生效：在 /etc/sysctl.d/90-inotify.conf 中加入 {persist}），"
        "然后重新启动 Desktop RAG。"),
    "library.confirm_remove": ("Remove “{path}” from the library? Its chunks are deleted; the files on disk stay.",
                               "从资料库中移除“{path}”？其索引片段会被删除，磁盘上的文件保留。"),
    "library.choose_folder": ("Choose a folder to add", "选择要添加的文件夹"),
    "library.choose_files": ("Choose documents to add", "选择要添加的文档"),
    "library.file_filter": (file_filter("Documents", "All files"), file_filter("文档", "所有文件")),
    "state.queued": ("queued", "排队中"),
    "state.pending": ("pending", "待处理"),
    "state.indexing": ("indexing…", "索引中…"),
    "state.indexed": ("indexed", "已索引"),
    "state.unchanged": ("indexed", "已索引"),
    "state.failed": ("failed", "失败"),
    "state.removed": ("removed", "已移除"),
    "state.folder": ("folder", "文件夹"),
    "state.file": ("file", "文件"),
    "state.not_linked": ("not linked", "未关联"),
    # progress
    "progress.scan": ("Scanning for changes…", "正在检查变化…"),
    "progress.text": ("Reading {done}/{total}: {file}", "正在读取 {done}/{total}：{file}"),
    "progress.ocr": ("recognising text, page {page} of {pages}", "正在识别文字，第 {page} 页，共 {pages} 页"),
    "password.title": ("Password needed", "需要密码"),
    "password.prompt": ("“{name}” is protected by a password. Enter it to index this file\n"
                        "(used for this session only, never saved):",
                        "“{name}”受密码保护。输入密码以索引此文件\n（仅本次使用，不会保存）："),
    "settings.ocr": ("Read scanned pages and images (local text recognition, OCR)",
                     "读取扫描页和图片（本地文字识别，OCR）"),
    "sources.ocr": ("OCR", "OCR"),
    "sources.removed": ("{name} (removed)", "{name}（已移除）"),
    "sources.removed_tip": ("{path}\nThis file is no longer in the library: it was removed after this answer.",
                            "{path}\n此文件已不在资料库中：它在这个回答之后被移除了。"),
    "sources.ocr_tip": ("Recognised from a scanned image (OCR): the text may contain recognition errors.",
                        "从扫描图片中识别（OCR）：文字可能有识别错误。"),
    "progress.embed": ("Embedding {done}/{total:chunk|chunks}", "正在生成向量 {done}/{total} 个片段"),
    "progress.reembed": ("Switching embedding model {done}/{total:chunk|chunks} (search keeps working)",
                         "正在切换向量模型 {done}/{total} 个片段（期间搜索照常可用）"),
    "settings.reembed_title": ("Switch the embedding model?", "切换向量模型？"),
    "settings.reembed_question": (
        "The library will be embedded again with {model}: {chunks:passage|passages}, about {time} on this computer. "
        "It runs in the background; search keeps using the current model until the new one is complete, "
        "and it resumes after a restart. Switch now?\n\nNo keeps the current model.",
        "资料库将使用 {model} 重新生成向量：共 {chunks} 个片段，在本机约需 {time}。切换在后台进行；"
        "完成之前搜索继续使用当前模型，重启后会接着进行。现在切换吗？\n\n选择“否”将保留当前模型。"),
    "progress.rate_files": ("{rate:.1f} files/s", "{rate:.1f} 个文件/秒"),
    "progress.rate_chunks": ("{rate:.1f} chunks/s", "{rate:.1f} 个片段/秒"),
    "progress.eta": ("about {eta} left", "约剩 {eta}"),
    "progress.paused": ("Paused. Resume continues where it stopped.", "已暂停。点击“继续”从停止处接着做。"),
    "progress.cancelled": ("Cancelled.", "已取消。"),
    "progress.removed": ("Removed from the library: {path}", "已从资料库中移除：{path}"),
    "progress.finished": ("Done: {added} added, {updated} updated, {removed} removed, {failed} failed.",
                          "完成：新增 {added}，更新 {updated}，移除 {removed}，失败 {failed}。"),
    "progress.attachments": ("{n:e-mail attachment|e-mail attachments} read as documents of their own.",
                             "{n} 个邮件附件作为独立文档读取。"),
    # status bar
    "status.model_loading": ("Loading the embedding model…", "正在加载向量模型…"),
    "status.model_preparing": ("Preparing the embedding model for fast search (first use only), step {done} of "
                               "{total}…", "正在为快速检索准备向量模型（仅首次），第 {done}/{total} 步…"),
    "status.index_loading": ("Loading the search index ({count:passage|passages})…", "正在加载检索索引（{count} 个段落）…"),
    "status.model_ready": ("Model ready", "模型就绪"),
    "status.model_error": ("Model error: {message}", "模型错误：{message}"),
    "status.index": ("{indexed} indexed · {failed} failed · {pending} pending · {chunks:chunk|chunks} waiting for embedding",
                     "已索引 {indexed} · 失败 {failed} · 待处理 {pending} · {chunks} 个片段等待向量化"),
    "settings.translate_queries": ("Also search each question in the library's other language (one short call to "
                                   "the model per new question)",
                                   "同时用资料库的另一种语言搜索每个问题（每个新问题向模型发送一次简短请求）"),
    "settings.compression": ("Shorten passages sent to the model", "精简发送给模型的段落"),
    "settings.compression_auto": ("When they exceed the budget", "超出预算时"),
    "settings.compression_always": ("Always", "总是"),
    "settings.compression_off": ("Off", "关闭"),
    "settings.compression_tip": ("Keeps the sentences that carry the question (and the one around the best), so "
                                 "prompts are smaller; passage numbers stay the same",
                                 "只保留与问题相关的句子（以及最相关句子前后的句子），让提示更短；段落编号不变"),
    "settings.summary_budget": ("Summary request size (tokens)", "总结的单次请求大小（token）"),
    "settings.summary_budget_auto": ("Automatic (from the model)", "自动（按模型）"),
    "settings.summary_budget_tip": ("A document larger than this is summarised section by section (several "
                                    "requests). Automatic: the model's context window where the provider or the "
                                    "server says it, else 8000.",
                                    "超过这个大小的文档会逐节总结（多次请求）。自动：使用服务商或服务器给出的模型上下文长度，"
                                    "否则为 8000。"),
    "settings.answer_cache": ("Reuse the stored answer when the same question meets the same passages and model",
                              "同一问题遇到相同段落和模型时，直接使用已保存的回答"),
    "settings.clear_answers": ("Clear stored answers", "清除已保存的回答"),
    "settings.clear_answers_tip": ("Remove every stored answer now (turning reuse off does this too)",
                                   "立即删除所有已保存的回答（关闭复用也会删除）"),
    "settings.answers_cleared": ("Stored answers removed: {count}.", "已删除已保存的回答：{count} 条。"),
    "settings.answers_not_cleared": ("The stored answers could not be removed: {reason}",
                                     "无法删除已保存的回答：{reason}"),
    "settings.embedding_auto": ("Automatic", "自动"),
    "settings.embedding_auto_tip": ("auto: the multilingual model when the library or the interface is Chinese, "
                                    "else the fast English model",
                                    "auto：资料库或界面为中文时使用多语言模型，否则使用快速的英文模型"),
    "status.reembed": ("switching to {model}: {done}/{total} (search uses the current model meanwhile)",
                       "正在切换到 {model}：{done}/{total}（期间搜索使用当前模型）"),
    "status.opening": ("Opening the library…", "正在打开资料库…"),
    # chat
    "chat.placeholder": ("Ask a question about your documents (Enter sends, Shift+Enter adds a line)",
                         "就你的文档提问（Enter 发送，Shift+Enter 换行）"),
    "chat.send": ("Send", "发送"),
    "chat.stop": ("Stop", "停止"),
    "chat.copy": ("Copy", "复制"),
    "chat.you": ("You", "你"),
    "chat.assistant": ("Assistant", "助手"),
    "chat.thinking": ("Searching your library…", "正在检索资料库…"),
    "chat.waiting_model": ("Waiting for the model ({model})…", "正在等待模型（{model}）回答…"),
    "chat.error": ("The answer failed: {message}", "回答失败：{message}"),
    "chat.cached": ("Cached answer: the same question, passages and model as before.",
                    "缓存的回答：问题、段落和模型均与之前相同。"),
    "chat.regenerate": ("Regenerate", "重新生成"),
    "chat.translation": ("Also searched in {language}: {text}", "也以{language}检索：{text}"),
    "language.en": ("English", "英文"),
    "language.zh": ("Chinese", "中文"),
    "chat.keyword_only": ("Still loading the search index ({count:passage|passages}): this answer used keyword matches only.",
                          "检索索引仍在加载（{count} 个段落）：本回答只用了关键词匹配。"),
    "chat.keyword_only_plain": ("Still loading the search index: this answer used keyword matches only.",
                                "检索索引仍在加载：本回答只用了关键词匹配。"),
    "chat.welcome": ("Add documents on the left, then ask a question here.",
                     "先在左侧添加文档，然后在这里提问。"),
    "chat.welcome_ready": ("Ask a question about your documents below, for example “What are the key dates in "
                           "my notes?” The answer cites the passages it comes from.",
                           "在下方就你的文档提问，例如“我的笔记里有哪些关键日期？”回答会注明出自哪些段落。"),
    # search filter (under the messages)
    "filter.label": ("Search in:", "检索范围："),
    "filter.all_folders": ("All folders", "全部文件夹"),
    "filter.all_types": ("All file types", "全部文件类型"),
    "filter.folder_tip": ("Only search the files inside this folder", "只检索此文件夹中的文件"),
    "filter.type_tip": ("Only search files of this type", "只检索此类型的文件"),
    # one document (issue 40): "Ask this document", "What was sent", summaries
    "scope.asking_in": ("Asking in: {name}", "提问范围：{name}"),
    "scope.clear_tip": ("Ask in the whole library again", "恢复为在整个资料库中提问"),
    "scope.ask_document": ("Ask this document", "就此文档提问"),
    "summary.action": ("Summarise this document", "总结此文档"),
    "summary.question": ("Summarise {name}", "总结 {name}"),
    "summary.estimate_title": ("Summarise a long document", "总结长文档"),
    "summary.estimate": ("“{name}” is too long for one request: it has {sections:section|sections} ({tokens:token|tokens}), so "
                         "summarising it takes {requests:request|requests} to the model (each section, then the summary). "
                         "Go ahead?",
                         "“{name}”太长，无法在一次请求中处理：它有 {sections} 个部分（{tokens} 个 token），总结需要向模型发送 "
                         "{requests} 次请求（每个部分一次，最后汇总一次）。继续吗？"),
    "summary.over_limit": ("That is more than {limit:request|requests}, the most a summary may make before it is confirmed "
                           "(summary_request_limit in the settings file).",
                           "这超过了 {limit} 次请求，即未经确认时一次总结最多可发送的次数（设置文件中的 "
                           "summary_request_limit）。"),
    "summary.estimate_time": ("At this model's recent speed that takes about {time}.",
                              "按此模型最近的速度，大约需要 {time}。"),
    "summary.seconds": ("{n:second|seconds}", "{n} 秒"),
    "summary.minutes": ("{n:minute|minutes}", "{n} 分钟"),
    "summary.progress": ("Summarising: request {done} of {total}…", "正在总结：第 {done} / {total} 次请求…"),
    "summary.failed_title": ("Cannot summarise", "无法总结"),
    "sent.button": ("What was sent", "发送了什么"),
    "sent.request": ("════ Request {number} of {total}: {purpose} ════",
                     "════ 第 {number} / {total} 个请求：{purpose} ════"),
    "sent.purpose_answer": ("the answer", "回答"),
    "sent.purpose_rewrite": ("the follow-up made to stand alone", "把追问改写成独立的问题"),
    "sent.purpose_translation": ("the question translated for search", "翻译问题以便检索"),
    "sent.purpose_section": ("a section summarised", "总结一个部分"),
    "sent.earlier": ("Before it, {count:more request|more requests} of {tokens:token|tokens}: {purposes}.",
                     "在此之前另有 {count} 个请求，共 {tokens} 个 token：{purposes}。"),
    "sent.title": ("What was sent to the model", "发送给模型的内容"),
    "sent.message": ("──── {role} · {tokens:token|tokens} ────", "──── {role} · {tokens} 个 token ────"),
    "sent.totals": ("Model {model}: {count:message|messages}, {tokens:token|tokens}.", "模型 {model}：{count} 条消息，{tokens} 个 token。"),
    "sent.saving": ("Passages: {before:token|tokens} found, {after} sent after shortening ({percent} % saved).",
                    "段落：检索到 {before} 个 token，精简后发送 {after} 个（节省 {percent}%）。"),
    "sent.no_saving": ("Passages: {tokens:token|tokens}, sent whole.", "段落：{tokens} 个 token，完整发送。"),
    "sent.cached": ("A stored answer: this is what was sent when it was made.", "已保存的回答：这是当时生成它时发送的内容。"),
    "sent.estimate": ("Token counts are estimates (a standard tokenizer, not the model's own).",
                      "token 数为估算值（使用通用分词器，而非该模型自己的）。"),
    # links in answers
    "link.confirm_title": ("Open link?", "打开链接？"),
    "link.confirm": ("This link comes from an answer, so its text may not say where it really goes. "
                     "Open it only if you trust the address below.",
                     "这个链接来自回答，显示的文字未必是它真正指向的地址。只有在信任下面的地址时才打开。"),
    "link.site": ("Site: {host}", "网站：{host}"),
    "link.mail": ("E-mail to: {address}", "发邮件给：{address}"),
    "link.address": ("Address: {url}", "地址：{url}"),
    "link.open": ("Open link", "打开链接"),
    "link.remember": ("Don't ask again for this site until the app is closed",
                      "在关闭程序前，此网站不再询问"),
    "link.refused": ("This link was not opened: only web (http, https) and e-mail links can be opened from an "
                     "answer. Local files, network shares and other kinds of links are never opened.",
                     "未打开此链接：回答中只能打开网页（http、https）和电子邮件链接，"
                     "本地文件、网络共享和其他类型的链接一律不会打开。"),
    "link.mail_refused": ("This e-mail link was not opened: its address hides an encoded “?” or “&”, after which "
                          "a mail app could read extra fields such as a file to attach.",
                          "未打开此邮件链接：其地址中藏有编码的“?”或“&”，邮件程序可能把其后的内容当作附加字段"
                          "（例如要附加的文件）。"),
    "conv.new": ("New", "新建"),
    "conv.rename": ("Rename", "重命名"),
    "conv.delete": ("Delete", "删除"),
    "conv.default_title": ("New conversation", "新会话"),
    "conv.rename_prompt": ("New title:", "新标题："),
    "conv.confirm_delete": ("Delete the conversation “{title}”?", "删除会话“{title}”？"),
    # first run: start screen and the model banner
    "start.title": ("Welcome to Desktop RAG", "欢迎使用 Desktop RAG"),
    "start.subtitle": ("Turn your documents into a private knowledge base, then ask questions and get answers "
                       "that cite the passages they come from.",
                       "把你的文档变成私人知识库，然后提问，回答会注明出自哪些段落。"),
    "start.drop": ("Drop files or folders here", "把文件或文件夹拖到这里"),
    "start.types": (types_phrase("en"), f"支持 {types_phrase('zh')}"),  # from the loaders' table of types
    "start.samples": ("Try the sample documents", "试用示例文档"),
    "start.samples_tip": ("Adds a few short English and Chinese documents to ask questions about.",
                          "添加几篇简短的中英文示例文档，方便你试着提问。"),
    "start.private": ("Your documents are read and indexed on this computer.", "文档在这台电脑上读取和索引。"),
    "start.private_server": ("Your documents are read on this computer; their index is kept in the library on the "
                             "server.", "文档在这台电脑上读取；索引保存在服务器上的资料库中。"),
    "banner.no_model": ("No language model is set up yet, so answers are extractive: the most relevant sentences "
                        "are quoted from your documents, with citations. Set a model in Settings to get written "
                        "answers.",
                        "尚未设置语言模型，因此回答为摘录式：直接引用文档中最相关的句子并注明出处。"
                        "在“设置”中配置模型即可获得完整的回答。"),
    "banner.dismiss": ("Dismiss", "不再显示"),
    "offer.text": ("This library holds Chinese text, but the model in use is English-only: Chinese questions need "
                   "the multilingual model {model} ({size} MB download).",
                   "资料库中有中文，但当前使用的模型只支持英文：中文提问需要多语言模型 {model}（下载约 {size} MB）。"),
    "offer.download": ("Download…", "下载…"),
    "offer.later": ("Not now", "以后再说"),
    "offer.never": ("Don't ask again", "不再询问"),
    # sources panel
    "sources.col.n": ("#", "#"),
    "sources.col.file": ("File", "文件"),
    "sources.col.page": ("Page", "页"),
    "sources.col.heading": ("Heading", "标题"),
    "sources.col.score": ("Score", "得分"),
    "sources.hint": ("Click [n] in an answer or double-click a row to see the passage in its document.",
                     "点击回答中的 [n] 或双击一行，即可在文档中查看该段落。"),
    "sources.none": ("Sources of the selected answer appear here.", "所选回答的来源显示在这里。"),
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
    # settings
    "menu.settings": ("Settings…", "设置…"),
    "settings.title": ("Settings", "设置"),
    "settings.model_group": ("Language model", "语言模型"),
    "settings.provider": ("Provider", "服务商"),
    "settings.base_url": ("Base URL", "接口地址"),
    "settings.model": ("Model", "模型"),
    "settings.api_key": ("API key", "API 密钥"),
    "settings.api_key_hint": ("Stored in the app's .env file, readable only by you.", "保存在应用的 .env 文件中，仅你可读。"),
    "settings.test": ("Test connection", "测试连接"),
    "settings.testing": ("Testing…", "测试中…"),
    "settings.http_warning": ("This address uses plain http:// to another computer: your API key, your questions and "
                              "the passages sent with them travel unencrypted. Use an https:// address.",
                              "该地址通过明文 http:// 连接另一台计算机：你的 API 密钥、问题以及随之发送的文档段落都以"
                              "未加密方式传输。请改用 https:// 地址。"),
    "settings.index_group": ("Search and index", "检索与索引"),
    "settings.embedding": ("Embedding model", "向量模型"),
    "settings.embedding_bundled": ("Bundled (offline, English)", "内置（离线，英文）"),
    "settings.browse": ("Folder…", "文件夹…"),
    "settings.chunk_size": ("Chunk size (characters)", "片段长度（字符）"),
    "settings.chunk_overlap": ("Chunk overlap", "片段重叠"),
    "settings.top_k": ("Passages per answer", "每个回答的段落数"),
    "settings.min_score": ("Minimum score", "最低得分"),
    "settings.language": ("Interface language", "界面语言"),
    "settings.lang_auto": ("System default", "跟随系统"),
    "settings.reindex_title": ("Re-index needed", "需要重新索引"),
    "settings.reindex_question": ("The embedding model or chunking changed. The whole library must be indexed again "
                                  "(this can take a while). Re-index now?\n\nNo keeps the current embedding and "
                                  "chunking settings.",
                                  "向量模型或分段参数已更改，需要重新索引整个资料库（可能需要一段时间）。现在重新索引吗？"
                                  "\n\n选择“否”将保留当前的向量模型和分段设置。"),
    "settings.save_failed": ("The settings could not be saved to {path} ({reason}). Nothing was changed: the previous "
                             "settings stay in use. Check that the folder is writable and has free space, then try again.",
                             "无法将设置保存到 {path}（{reason}）。未做任何更改，仍使用之前的设置。"
                             "请确认该文件夹可写且有剩余空间，然后重试。"),
    "settings.key_save_failed": ("The API key could not be saved to {path} ({reason}). The previous key stays in "
                                 "use. Check that the folder is writable and has free space, then try again.",
                                 "无法将 API 密钥保存到 {path}（{reason}）。仍使用之前的密钥。"
                                 "请确认该文件夹可写且有剩余空间，然后重试。"),
    "settings.pick_model_folder": ("Choose a sentence-transformers model folder", "选择 sentence-transformers 模型文件夹"),
    "settings.get_model": ("Get a model…", "下载模型…"),
    # model download dialog
    "download.title": ("Get an embedding model", "下载向量模型"),
    "download.col.model": ("Model", "模型"),
    "download.col.languages": ("Languages", "语言"),
    "download.col.size": ("Download", "下载大小"),
    "download.col.speed": ("Speed (chunks/s)", "速度（片段/秒）"),
    "download.col.dimension": ("Dimension", "维度"),
    "download.speed": ("~{en:g} en · ~{zh:g} zh", "英文约 {en:g} · 中文约 {zh:g}"),
    "download.present": ("downloaded", "已下载"),
    "download.repo": ("Hub model id", "模型 ID"),
    "download.repo_tip": ("Any sentence-transformers model on the hub, as organisation/name.",
                          "hub 上任意 sentence-transformers 模型，格式为 组织/名称。"),
    "download.hub": ("Hub address", "下载地址"),
    "download.hub_tip": ("huggingface.co, or a mirror such as hf-mirror.com (faster in mainland China).",
                         "huggingface.co，或镜像如 hf-mirror.com（在中国大陆更快）。"),
    "download.start": ("Download", "下载"),
    "download.cancel": ("Close", "关闭"),
    "download.stop": ("Cancel download", "取消下载"),
    "download.listing": ("Asking {endpoint} for the file list…", "正在从 {endpoint} 获取文件列表…"),
    "download.progress": ("{done} of {total} · file {files}/{files_total}", "{done} / {total} · 文件 {files}/{files_total}"),
    "download.rate": ("{rate:.1f} MB/s", "{rate:.1f} MB/秒"),
    "download.done": ("Downloaded to {folder}", "已下载到 {folder}"),
    "download.cancelling": ("Cancelling…", "正在取消…"),
    "download.cancelled": ("Cancelled. Download again to resume where it stopped.", "已取消。再次点击“下载”将从中断处继续。"),
    # collections (the library header's selector and menu, the chat header's "asking in")
    "collections.all": ("All collections", "全部知识库"),
    "collections.default": ("Default", "默认知识库"),  # how the first collection, stored as "Default", is shown
    "collections.menu": ("Collections", "知识库"),
    "collections.new": ("New collection…", "新建知识库…"),
    "collections.rename": ("Rename…", "重命名…"),
    "collections.delete": ("Delete…", "删除…"),
    "collections.export": ("Export…", "导出…"),
    "collections.export_docs": ("Export with documents…", "连同文档导出…"),
    "collections.import": ("Import…", "导入…"),
    "collections.name": ("Collection name:", "知识库名称："),
    "collections.asking": ("Asking in: {name}", "提问范围：{name}"),
    "collections.confirm_delete": (
        "Delete the collection “{name}” and its index ({files:file|files}, {chunks:chunk|chunks})? Your documents "
        "on disk are not touched.",
        "删除知识库“{name}”及其索引（{files} 个文件，{chunks} 个片段）？磁盘上的文档不会被删除。"),
    "collections.import_name": ("A collection called “{name}” already exists here. Import this one as:",
                                "这里已有名为“{name}”的知识库。将此知识库导入为："),
    "collections.reembed": ("{problem}\n\nImport and embed the passages again?", "{problem}\n\n导入并重新嵌入这些段落？"),
    "collections.exported": ("Exported “{name}” to {path}.", "已将“{name}”导出到 {path}。"),
    "collections.export_missing": ("{count:document was|documents were} not included (missing, changed since it was "
                                   "indexed, not linked, or not a plain file in its folder):\n{paths}",
                                   "有 {count} 个文档未包含（已丢失、索引后有改动、未链接，或不是其文件夹中的普通文件）：\n{paths}"),
    "collections.imported": ("Imported “{name}”: {chunks:passage|passages}.", "已导入“{name}”：{chunks} 个段落。"),
    "collections.imported_documents": ("Its documents are in {path}.", "其文档位于 {path}。"),
    "collections.documents_folder": ("Its documents cannot be written beside the archive: choose a folder for them",
                                     "无法在归档旁写入其文档：请为它们选择一个文件夹"),
    "collections.failed": ("Collections", "知识库"),
    "collections.archive": ("Collection archive (*.zip)", "知识库归档 (*.zip)"),
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
    "viewer.window": (
        "Shown: the part of this long document around the passage; {before} lines before it and {after} after it "
        "are not shown. Open in default app shows the whole document.",
        "此处只显示这份长文档中段落附近的部分，前面 {before} 行、后面 {after} 行未显示。点击“用默认程序打开”可查看整份文档。"),
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
    "viewer.partial": (
        "Only the beginning and end of the passage matched the file's text; the highlight spans them.",
        "只有段落的开头和结尾与文件文本相符；高亮覆盖两者之间的内容。"),
    "viewer.not_found_text": (
        "The passage could not be found in this file's text. It is shown beside.",
        "在此文件的文本中找不到该段落。段落显示在旁边。"),
    "viewer.error": ("This file cannot be shown here: {reason}", "无法在此显示此文件：{reason}"),
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
    # the crash dialog (crash_handler.py)
    "crash.title": ("Unexpected error", "意外错误"),
    "crash.text": ("Something went wrong, but the app is still running.\n\n{summary}",
                   "出了点问题，但应用仍在运行。\n\n{summary}"),
    "crash.details": ("The details were written to the log file:\n{log_file}\n\nIf this keeps happening, save your "
                      "work, restart the app, and include the log file when you report the problem.",
                      "详细信息已写入日志文件：\n{log_file}\n\n如果反复出现，请保存工作、重启应用，并在报告问题时附上该日志文件。"),
    "crash.internal": ("A program error ({type})", "程序内部错误（{type}）"),
    # where the library is (issue 46): Settings' Library group, the status bar, restarting, the viewer
    "settings.library_group": ("Library", "资料库"),
    "settings.library_local": ("This computer", "本机"),
    "settings.library_server": ("A PostgreSQL server", "PostgreSQL 服务器"),
    "settings.library_url": ("Address", "地址"),
    "settings.library_password": ("Password", "密码"),
    "settings.library_password_keep": ("Leave empty to keep the saved password", "留空则保留已保存的密码"),
    "settings.library_password_moved": (
        "The password was taken out of the address and put in the password field: it is never saved in the "
        "settings file.",
        "密码已从地址中移到密码栏：它不会保存在设置文件中。"),
    "settings.library_note": (
        "The app opens the library chosen here when it starts. The password is kept in the system keyring, or in "
        ".env in the settings folder (readable only by you) where there is none.",
        "应用启动时打开这里选择的资料库。密码保存在系统钥匙串中；没有钥匙串时保存在设置文件夹中的 .env 文件里"
        "（只有你能读取）。"),
    "settings.library_test": ("Test connection", "测试连接"),
    "settings.library_testing": ("Connecting to the server…", "正在连接服务器…"),
    "settings.library_url_missing": ("Enter the server's address: postgresql://USER@HOST:PORT/DATABASE.",
                                     "请输入服务器地址：postgresql://用户@主机:端口/数据库。"),
    "settings.library_restart_title": ("Restart Desktop RAG?", "重新启动 Desktop RAG？"),
    "settings.library_restart_question": (
        "The library is now set to: {where}.\n\nDesktop RAG opens it when it starts again. Restart now? (Otherwise "
        "the library open now stays in use until you quit.)",
        "资料库已设为：{where}。\n\nDesktop RAG 下次启动时打开它。现在重新启动吗？（否则在你退出之前，"
        "继续使用当前打开的资料库。）"),
    "settings.library_index_kept": (
        "The index settings changed at the same time were not applied: change them after the restart, for the "
        "new library.",
        "同时修改的索引设置没有应用：请在重新启动后为新的资料库修改。"),
    "settings.library_password_saved_keyring": ("The library's password is saved in the system keyring.",
                                                "资料库密码已保存到系统钥匙串。"),
    "settings.library_password_saved_env": ("The library's password is saved in {path} (readable only by you).",
                                            "资料库密码已保存到 {path}（只有你能读取）。"),
    "settings.library_password_save_failed": ("The library's password could not be saved in {path}: {reason}",
                                              "无法把资料库密码保存到 {path}：{reason}"),
    "settings.not_applied": ("The settings were not applied: {reason}", "设置未应用：{reason}"),
    "settings.library_restart_now": ("Restart now", "立即重新启动"),
    "settings.library_restart_later": ("Later", "稍后"),
    "status.library": ("Library: {where}", "资料库：{where}"),
    "status.library_pending": ("Library: {where} (after a restart: {next})", "资料库：{where}（重新启动后：{next}）"),
    "status.library_this_computer": ("this computer", "本机"),
    "status.model_unopened": ("Model not loaded: the library could not be opened",
                              "模型未加载：无法打开资料库"),
    "viewer.stored_text": (
        "This document is not on this computer: another computer added it to this shared library, or it came in an "
        "archive without its documents. It is shown from the text the library stored when it was indexed (without "
        "its pages, pictures or layout).",
        "此文档不在本机上：它是另一台电脑添加到这个共享资料库的，或来自未附带文档的归档。这里显示的是建立索引时"
        "资料库保存的文本（不含页面、图片和版式）。"),
}

# Qt's own words on the standard buttons of the app's dialogs and message boxes, by (context, source text)
_QT_TEXTS = {("QPlatformTheme", "OK"): "button.ok", ("QPlatformTheme", "Cancel"): "button.cancel",
             ("QPlatformTheme", "Close"): "button.close", ("QPlatformTheme", "&Yes"): "button.yes",
             ("QPlatformTheme", "&No"): "button.no"}

_language = "en"
_qt_texts: QtTexts | None = None
_bindings: list[tuple[weakref.ref, Callable[[object, str], None], str, dict]] = []
_listeners: list[weakref.WeakMethod] = []


def system_language() -> str:
    """'zh' when the system's language is Chinese, else 'en': the CLI's rule (LC_ALL, LC_MESSAGES or LANG) when one
    of those is set, else the system locale Qt reads (Windows' and macOS' own setting)."""
    return environment_language() or ("zh" if QLocale.system().language() == QLocale.Language.Chinese else "en")


def resolve_language(setting: str) -> str:
    """The UI language for a Settings.ui_language value ('auto', 'en', 'zh')."""
    return setting if setting in ("en", "zh") else system_language()


def language() -> str:
    return _language


def error(failure: BaseException | Localised | str) -> str:
    """What the interface shows for a failure in its language: an engine error, or its Reason (a failed file's, an
    answer's), through the engine's message table in the window's wording (what to click, not a command); other
    text as it is; the class name of an exception without a message."""
    return (error_text(failure, _language, WINDOW)
            or (failure.__class__.__name__ if isinstance(failure, BaseException) else ""))


def engine_text(text: Localised | str) -> str:
    """An engine's coded text (an answer's STOPPED notice) in the interface's language; plain text as it is."""
    return error_text(text, _language, WINDOW)


def type_name(name: str) -> str:
    """How the type filter names a reader of the registry (its type name, e.g. "docx"), in the current language."""
    reader = next(r for r in READERS if r.name == name)
    return reader.label_zh if _language == "zh" else reader.label


def collection_name(name: str, names: Iterable[str] = ()) -> str:
    """How the window shows a collection stored as `name`: the first one, "Default" (whoever named it so), in the
    interface's language; unless another of the library's collections (`names`) is stored as that text, which then
    shows as itself and "Default" as it is stored, so no two collections read alike. Other names as they are."""
    if name != DEFAULT_COLLECTION:
        return name
    shown = tr("collections.default")
    return name if any(n != name and n.casefold() == shown.casefold() for n in names) else shown


_COUNTED = Counted()


def tr(key: str, **values: object) -> str:
    """The text for `key` in the current language, formatted with `values` (`{n:noun|nouns}`: engine/messages.py's
    `Counted`); an engine text among them (a failure's `Reason`) is said in the current language too."""
    en, zh = _TEXT.get(key, (key, key))
    text = zh if _language == "zh" else en
    if not values:
        return text
    return _COUNTED.format(text, **{k: engine_text(v) if isinstance(v, Localised) else v for k, v in values.items()})


def bind(obj: object, setter: Callable[[object, str], None], key: str, **values: object) -> None:
    """Apply tr(key) now through setter(obj, text) and again whenever the language changes."""
    setter(obj, tr(key, **values))
    _bindings.append((weakref.ref(obj), setter, key, values))


def on_change(callback: Callable[[], None]) -> None:
    """Call the bound method `callback` after every language change (held weakly)."""
    _listeners.append(weakref.WeakMethod(callback))


def set_language(lang: str) -> None:
    """Switch language and re-apply every bound text."""
    global _language
    _language = "zh" if lang == "zh" else "en"
    alive = []
    for ref, setter, key, values in _bindings:
        obj = ref()
        if obj is None:
            continue
        try:
            setter(obj, tr(key, **values))
        except RuntimeError:  # the C++ widget is gone
            continue
        alive.append((ref, setter, key, values))
    _bindings[:] = alive
    for ref in list(_listeners):
        callback = ref()
        try:
            if callback is None:
                raise RuntimeError("gone")
            callback()
        except RuntimeError:
            _listeners.remove(ref)


class QtTexts(QTranslator):
    """Qt's standard buttons (OK, Cancel, Close, Yes, No) in the interface's language: Qt's own translation files
    are not loaded (nor bundled, build.spec). A dialog takes them when it is made."""

    def translate(self, context: str, source_text: str, disambiguation: str | None = None, n: int = -1) -> str | None:
        key = _QT_TEXTS.get((context, source_text))
        return tr(key) if key is not None and _language == "zh" else None  # None: Qt's own (English) text


def install_qt_texts(app: QCoreApplication) -> None:
    """Let Qt's standard buttons follow the interface language (once per application)."""
    global _qt_texts
    if _qt_texts is None:
        _qt_texts = QtTexts(app)
        app.installTranslator(_qt_texts)


def format_eta(seconds: float | None) -> str:
    """A short duration like '2 min 5 s'."""
    if seconds is None:
        return "?"
    seconds = int(max(seconds, 0))
    minutes, secs = divmod(seconds, 60)
    if _language == "zh":
        return f"{minutes} 分 {secs} 秒" if minutes else f"{secs} 秒"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"
