"""The library's texts: its panel, indexing progress, the status bar, collections."""

from __future__ import annotations

from desktop_rag.gui.i18n_tables.type_texts import file_filter, types_phrase

TEXT: dict[str, tuple[str, str]] = {
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
    "sources.changed": ("{name} (changed)", "{name}（已更改）"),
    "sources.changed_tip": ("{path}\nThis passage is no longer in the document: the file was edited and indexed again "
                            "after this answer.", "{path}\n此段落已不在文档中：此回答之后，文件已被修改并重新索引。"),
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
}
