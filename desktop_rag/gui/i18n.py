"""A small dict-based translation table (English / Simplified Chinese) with live re-translation."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from PySide6.QtCore import QLocale

_TEXT: dict[str, tuple[str, str]] = {
    # window and areas
    "app.title": ("Desktop RAG", "Desktop RAG 本地知识库"),
    "library.title": ("Library", "资料库"),
    "chat.title": ("Chat", "对话"),
    "sources.title": ("Sources", "来源"),
    "conversations.title": ("Conversations", "会话"),
    # library panel
    "library.add_folder": ("Add folder…", "添加文件夹…"),
    "library.add_files": ("Add files…", "添加文件…"),
    "library.reindex": ("Re-index", "重新索引"),
    "library.remove": ("Remove", "移除"),
    "library.pause": ("Pause", "暂停"),
    "library.pause_tip": ("Stops after the current step; Resume continues where it stopped.",
                          "在当前步骤后停止；“继续”会从停止处接着做。"),
    "library.resume": ("Resume", "继续"),
    "library.cancel": ("Cancel", "取消"),
    "library.col.name": ("Name", "名称"),
    "library.col.state": ("State", "状态"),
    "library.col.chunks": ("Chunks", "片段"),
    "library.totals": ("{sources} sources · {files} files · {chunks} chunks · {failed} failed",
                       "{sources} 个来源 · {files} 个文件 · {chunks} 个片段 · {failed} 个失败"),
    "library.empty_hint": ("Drop files or folders here, or use Add folder.",
                           "把文件或文件夹拖到这里，或点击“添加文件夹”。"),
    "library.unsupported": ("Not added (unsupported type; PDF, Word .docx, .txt, .md and images only): {names}",
                            "未添加（不支持的类型，仅支持 PDF、Word .docx、.txt、.md 和图片）：{names}"),
    "library.failed_reason": ("Failed: {reason}", "失败：{reason}"),
    "library.confirm_remove": ("Remove “{path}” from the library? Its chunks are deleted; the files on disk stay.",
                               "从资料库中移除“{path}”？其索引片段会被删除，磁盘上的文件保留。"),
    "library.choose_folder": ("Choose a folder to add", "选择要添加的文件夹"),
    "library.choose_files": ("Choose documents to add", "选择要添加的文档"),
    "library.file_filter": ("Documents (*.pdf *.docx *.txt *.md *.png *.jpg *.jpeg *.tif *.tiff *.webp *.bmp);;"
                            "All files (*)",
                            "文档 (*.pdf *.docx *.txt *.md *.png *.jpg *.jpeg *.tif *.tiff *.webp *.bmp);;所有文件 (*)"),
    "state.queued": ("queued", "排队中"),
    "state.pending": ("pending", "待处理"),
    "state.indexing": ("indexing…", "索引中…"),
    "state.indexed": ("indexed", "已索引"),
    "state.unchanged": ("indexed", "已索引"),
    "state.failed": ("failed", "失败"),
    "state.removed": ("removed", "已移除"),
    "state.folder": ("folder", "文件夹"),
    "state.file": ("file", "文件"),
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
    "sources.ocr_tip": ("Recognised from a scanned image (OCR): the text may contain recognition errors.",
                        "从扫描图片中识别（OCR）：文字可能有识别错误。"),
    "progress.embed": ("Embedding {done}/{total} chunks", "正在生成向量 {done}/{total} 个片段"),
    "progress.reembed": ("Switching embedding model {done}/{total} chunks (search keeps working)",
                         "正在切换向量模型 {done}/{total} 个片段（期间搜索照常可用）"),
    "settings.reembed_title": ("Switch the embedding model?", "切换向量模型？"),
    "settings.reembed_question": (
        "The library will be embedded again with {model}: {chunks} passages, about {time} on this computer. "
        "It runs in the background; search keeps using the current model until the new one is complete, "
        "and it resumes after a restart. Switch now?\n\nNo keeps the current model.",
        "资料库将使用 {model} 重新生成向量：共 {chunks} 个片段，在本机约需 {time}。切换在后台进行；"
        "完成之前搜索继续使用当前模型，重启后会接着进行。现在切换吗？\n\n选择“否”将保留当前模型。"),
    "progress.rate_files": ("{rate:.1f} files/s", "{rate:.1f} 个文件/秒"),
    "progress.rate_chunks": ("{rate:.1f} chunks/s", "{rate:.1f} 个片段/秒"),
    "progress.eta": ("about {eta} left", "约剩 {eta}"),
    "progress.paused": ("Paused. Resume continues where it stopped.", "已暂停。点击“继续”从停止处接着做。"),
    "progress.cancelled": ("Cancelled.", "已取消。"),
    "progress.finished": ("Done: {added} added, {updated} updated, {removed} removed, {failed} failed.",
                          "完成：新增 {added}，更新 {updated}，移除 {removed}，失败 {failed}。"),
    # status bar
    "status.model_loading": ("Loading the embedding model…", "正在加载向量模型…"),
    "status.model_ready": ("Model ready", "模型就绪"),
    "status.model_error": ("Model error: {message}", "模型错误：{message}"),
    "status.index": ("{indexed} indexed · {failed} failed · {pending} pending · {chunks} chunks waiting for embedding",
                     "已索引 {indexed} · 失败 {failed} · 待处理 {pending} · {chunks} 个片段等待向量化"),
    "settings.translate_queries": ("Also search each question in the library's other language (one short call to "
                                   "the model per new question)",
                                   "同时用资料库的另一种语言搜索每个问题（每个新问题向模型发送一次简短请求）"),
    "settings.embedding_auto": ("Automatic", "自动"),
    "settings.embedding_auto_tip": ("auto: the multilingual model when the library or the interface is Chinese, "
                                    "else the fast English model",
                                    "auto：资料库或界面为中文时使用多语言模型，否则使用快速的英文模型"),
    "status.reembed": ("switching to {model}: {done}/{total} (search uses the current model meanwhile)",
                       "正在切换到 {model}：{done}/{total}（期间搜索使用当前模型）"),
    "status.opening": ("Opening the library…", "正在打开资料库…"),
    "status.watch_rescan": ("Folder watcher restarted; checking every source again.",
                            "文件夹监视已重启，正在重新检查所有来源。"),
    # chat
    "chat.placeholder": ("Ask a question about your documents (Enter sends, Shift+Enter adds a line)",
                         "就你的文档提问（Enter 发送，Shift+Enter 换行）"),
    "chat.send": ("Send", "发送"),
    "chat.stop": ("Stop", "停止"),
    "chat.copy": ("Copy", "复制"),
    "chat.you": ("You", "你"),
    "chat.assistant": ("Assistant", "助手"),
    "chat.thinking": ("Searching your library…", "正在检索资料库…"),
    "chat.error": ("The answer failed: {message}", "回答失败：{message}"),
    "chat.stopped": ("Stopped.", "已停止。"),
    "chat.welcome": ("Add documents on the left, then ask a question here.",
                     "先在左侧添加文档，然后在这里提问。"),
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
    "start.types": ("PDF, Word (.docx), text and Markdown", "支持 PDF、Word (.docx)、文本和 Markdown"),
    "start.samples": ("Try the sample documents", "试用示例文档"),
    "start.samples_tip": ("Adds a few short English and Chinese documents to ask questions about.",
                          "添加几篇简短的中英文示例文档，方便你试着提问。"),
    "start.private": ("Your documents are read and indexed on this computer.", "文档在这台电脑上读取和索引。"),
    "banner.no_model": ("No language model is set up yet, so answers are extractive: the most relevant sentences "
                        "are quoted from your documents, with citations. Set a model in Settings to get written "
                        "answers.",
                        "尚未设置语言模型，因此回答为摘录式：直接引用文档中最相关的句子并注明出处。"
                        "在“设置”中配置模型即可获得完整的回答。"),
    "banner.dismiss": ("Dismiss", "不再显示"),
    # sources panel
    "sources.col.n": ("#", "#"),
    "sources.col.file": ("File", "文件"),
    "sources.col.page": ("Page", "页"),
    "sources.col.heading": ("Heading", "标题"),
    "sources.col.score": ("Score", "得分"),
    "sources.hint": ("Click [n] in an answer or double-click a row to see the passage in its document.",
                     "点击回答中的 [n] 或双击一行，即可在文档中查看该段落。"),
    "sources.none": ("Sources of the selected answer appear here.", "所选回答的来源显示在这里。"),
    "sources.page": ("page {page}", "第 {page} 页"),
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
    "dialog.error": ("Desktop RAG", "Desktop RAG"),
}

_language = "en"
_bindings: list[tuple[weakref.ref, Callable[[object, str], None], str, dict]] = []
_listeners: list[weakref.WeakMethod] = []


def system_language() -> str:
    """'zh' when the system locale is Chinese, else 'en'."""
    return "zh" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def resolve_language(setting: str) -> str:
    """The UI language for a Settings.ui_language value ('auto', 'en', 'zh')."""
    return setting if setting in ("en", "zh") else system_language()


def language() -> str:
    return _language


def tr(key: str, **values: object) -> str:
    """The text for `key` in the current language, formatted with `values`."""
    en, zh = _TEXT.get(key, (key, key))
    text = zh if _language == "zh" else en
    return text.format(**values) if values else text


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


def format_eta(seconds: float | None) -> str:
    """A short duration like '2 min 5 s'."""
    if seconds is None:
        return "?"
    seconds = int(max(seconds, 0))
    minutes, secs = divmod(seconds, 60)
    if _language == "zh":
        return f"{minutes} 分 {secs} 秒" if minutes else f"{secs} 秒"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"
