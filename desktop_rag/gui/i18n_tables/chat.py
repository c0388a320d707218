"""The chat's texts: questions and answers, the search filter, one document (issue 40), links in answers, the
first run, the sources panel."""

from __future__ import annotations

from desktop_rag.gui.i18n_tables.type_texts import types_phrase

TEXT: dict[str, tuple[str, str]] = {
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
    "chat.writing": ("The model is writing… {count:character|characters} so far",
                     "模型正在生成……已写 {count} 个字符"),
    "chat.model_thinking": ("The model is thinking… {count:character|characters} so far",
                            "模型正在思考……已思考 {count} 个字符"),
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
}
