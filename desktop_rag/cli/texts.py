"""The command line's own lines for a person (progress, an index run's summary, status, labels), in English and
Chinese: one table, said in the command line's language (`output.language`) by `say`. A count's noun agrees in
English as the engine's texts do (`{n:file|files}`, `messages.Counted`); `--json` output never comes from here."""

from __future__ import annotations

from desktop_rag.engine import locale_language as language  # the command line's language (LANG=zh_CN.UTF-8)
from desktop_rag.engine import worded

TEXTS: dict[str, dict[str, str]] = {
    # stderr's lines of a failed or stopped command (cli/output.py, cli/main.py); {why}: said in the same language
    "line.error": {"en": "error: {why}", "zh": "错误：{why}"},
    "line.output_lost": {"en": "error: the output could not be written ({why})", "zh": "错误：无法写出输出（{why}）"},
    "line.interrupted": {"en": "interrupted", "zh": "已中断"},
    "line.no_display": {
        "en": "No display found, so the window cannot open. Running the headless demo on the sample documents instead "
              "(the same as `desktop-rag demo`).\n",
        "zh": "未找到显示器，无法打开窗口。改为在示例文档上运行无界面演示（与 `desktop-rag demo` 相同）。\n",
    },
    # argparse's own words (its gettext message ids as "en", %-formatted by argparse: cli/parser_words.py)
    "argparse.usage": {"en": "usage: ", "zh": "用法："},
    "argparse.error": {"en": "%(prog)s: error: %(message)s\n", "zh": "%(prog)s：错误：%(message)s\n"},
    "argparse.positionals": {"en": "positional arguments", "zh": "位置参数"},
    "argparse.options": {"en": "options", "zh": "选项"},
    "argparse.help": {"en": "show this help message and exit", "zh": "显示此帮助信息并退出"},
    "argparse.version": {"en": "show program's version number and exit", "zh": "显示程序的版本号并退出"},
    "argparse.argument": {"en": "argument %(argument_name)s: %(message)s", "zh": "参数 %(argument_name)s：%(message)s"},
    "argparse.required": {"en": "the following arguments are required: %s", "zh": "缺少以下必需的参数：%s"},
    "argparse.unrecognized": {"en": "unrecognized arguments: %s", "zh": "无法识别的参数：%s"},
    "argparse.choice": {"en": "invalid choice: %(value)r (choose from %(choices)s)",
                        "zh": "无效的选择：%(value)r（可选：%(choices)s）"},
    "argparse.type": {"en": "invalid %(type)s value: %(value)r", "zh": "无效的 %(type)s 值：%(value)r"},
    "argparse.one": {"en": "expected one argument", "zh": "需要一个值"},
    "argparse.at_most_one": {"en": "expected at most one argument", "zh": "最多需要一个值"},
    "argparse.at_least_one": {"en": "expected at least one argument", "zh": "至少需要一个值"},
    "argparse.n": {"en": "expected %s argument", "zh": "需要 %s 个值"},  # ngettext's singular and plural
    "argparse.n_plural": {"en": "expected %s arguments", "zh": "需要 %s 个值"},
    "argparse.ambiguous": {"en": "ambiguous option: %(option)s could match %(matches)s",
                           "zh": "有歧义的选项：%(option)s 可能是 %(matches)s"},
    "argparse.not_allowed": {"en": "not allowed with argument %s", "zh": "不能与参数 %s 同时使用"},
    "argparse.one_required": {"en": "one of the arguments %s is required", "zh": "必须给出参数 %s 之一"},
    "argparse.explicit": {"en": "ignored explicit argument %r", "zh": "多余的参数值 %r 被忽略"},
    "argparse.unknown_parser": {"en": "unknown parser %(parser_name)r (choices: %(choices)s)",
                                "zh": "未知的命令 %(parser_name)r（可选：%(choices)s）"},
    "argparse.cannot_open": {"en": "can't open '%(filename)s': %(error)s", "zh": "无法打开“%(filename)s”：%(error)s"},
    # the command line's own checks of its arguments (cli/main.py)
    "usage.search": {"en": "search needs a QUERY or --queries FILE", "zh": "search 需要一个查询（QUERY）或 --queries 文件"},
    "usage.context": {"en": "context needs a QUESTION or --queries FILE",
                      "zh": "context 需要一个问题（QUESTION）或 --queries 文件"},
    "usage.eval": {"en": "eval needs both --queries and --qrels, or neither",
                   "zh": "eval 需要同时给出 --queries 和 --qrels，或两者都不给"},
    "usage.not_int": {"en": "invalid int value: {text!r}", "zh": "不是整数：{text!r}"},
    "usage.result_count": {"en": "{value} is not a number of results from 1 to {most:,}",
                           "zh": "{value} 不是 1 到 {most:,} 之间的结果数"},
    # index (cli/commands.py); {chunks}: "12 new chunks"; {kept}: ", 11 kept their vectors" or ""
    "index.summary": {
        "en": "{added} added, {updated} updated, {removed} removed, {unchanged} unchanged, {failed} failed; "
              "{chunks}, {embedded} embedded{kept} in {seconds:.1f} s",
        "zh": "新增 {added}，更新 {updated}，移除 {removed}，未变 {unchanged}，失败 {failed}；{chunks}，"
              "已嵌入 {embedded}{kept}，用时 {seconds:.1f} 秒",
    },
    "index.attachments": {"en": "{attachments} read as documents of their own",  # {attachments}: "2 e-mail attachments"
                          "zh": "{attachments}已作为独立文档读取"},
    "index.link": {"en": "  link: {path}", "zh": "  链接：{path}"},
    "index.failed": {"en": "  failed: {path}: {why}", "zh": "  失败：{path}：{why}"},
    "index.note": {"en": "  note: {path}: {why}", "zh": "  说明：{path}：{why}"},
    "index.password": {"en": "PDF password: ", "zh": "PDF 密码："},
    # the progress line on a terminal (cli/output.py); {bar}: "[####....]"; {eta}: ", about 12 s left" or ""
    "progress.scan": {"en": "Scanning folders...", "zh": "正在扫描文件夹..."},
    "progress.text": {"en": "Reading  {bar} {done}/{total} files{eta}", "zh": "读取中 {bar} {done}/{total} 个文件{eta}"},
    "progress.ocr": {"en": " (recognising text, page {page} of {pages})", "zh": "（正在识别文字，第 {page}/{pages} 页）"},
    "progress.embed": {"en": "Embedding {bar} {done}/{total} chunks, {rate:.1f}/s{eta}",
                       "zh": "嵌入中 {bar} {done}/{total} 个片段，每秒 {rate:.1f} 个{eta}"},
    "progress.reembed": {"en": "Switching model (search works meanwhile) {bar} {done}/{total} chunks, {rate:.1f}/s{eta}",
                         "zh": "切换模型中（期间可照常搜索）{bar} {done}/{total} 个片段，每秒 {rate:.1f} 个{eta}"},
    "progress.eta": {"en": ", about {seconds:.0f} s left", "zh": "，约剩 {seconds:.0f} 秒"},
    "progress.model": {"en": "Preparing the embedding model (first use only): step {step} of {steps}",
                       "zh": "正在准备嵌入模型（仅首次使用）：第 {step}/{steps} 步"},
    # status
    "status.collection": {"en": "Collection: {name}", "zh": "知识库：{name}"},
    "status.model": {"en": "Embedding model: {model} (dimension {dimension})", "zh": "嵌入模型：{model}（维度 {dimension}）"},
    "status.files": {"en": "Files: {total} total{attached}, {indexed} indexed, {failed} failed, {pending} pending",
                     "zh": "文件：共 {total} 个{attached}，已索引 {indexed}，失败 {failed}，待处理 {pending}"},
    "status.attached": {"en": " ({n} of them e-mail attachments)", "zh": "（其中 {n} 个是邮件附件）"},
    "status.chunks": {"en": "Chunks: {chunks} ({pending} waiting for embedding)", "zh": "片段：{chunks}（{pending} 个等待嵌入）"},
    "status.last_scan": {"en": "Last scan: {skipped}", "zh": "上次扫描：{skipped}"},
    "status.switching": {
        "en": "Switching to {model}: {done}/{total} chunks re-embedded (search uses the current model until it is "
              "complete; `desktop-rag index` continues it)",
        "zh": "正在切换到 {model}：已重新嵌入 {done}/{total} 个片段（完成前搜索仍使用当前模型；`desktop-rag index` 可继续）",
    },
    "status.source": {"en": "Source: {path}", "zh": "来源：{path}"},
    "status.not_linked": {
        "en": "Source: {path} (not linked: imported without its documents; `desktop-rag link` it to a folder)",
        "zh": "来源：{path}（未关联：导入时不含文档；用 `desktop-rag link` 把它关联到一个文件夹）",
    },
    "status.failed": {"en": "Failed: {path}: {why}", "zh": "失败：{path}：{why}"},
    # search, context, ask
    "search.none": {"en": "No matching passages.", "zh": "没有匹配的段落。"},
    "search.hit": {"en": "{rank}. {where}  (score {score:.3f})", "zh": "{rank}. {where}  （得分 {score:.3f}）"},
    "context.tokens": {"en": "Tokens: {before} before compression, {after} sent",
                       "zh": "token 数：压缩前 {before}，发送 {after}"},
    "ask.stored": {"en": "(A stored answer: the same question, passages and model as before.)",
                   "zh": "（已存储的回答：问题、段落和模型都与上次相同。）"},
    "ask.sources": {"en": "Sources:", "zh": "来源："},
    # summarise (cli/document_commands.py)
    "summary.stored": {"en": "(A stored summary: the same document text and model as before.)",
                       "zh": "（已存储的摘要：文档文本和模型都与上次相同。）"},
    "summary.sections": {"en": "Sections:", "zh": "各部分："},
    "summary.cost": {  # {sections}: "12 sections"
        "en": "{name}: {sections}, {tokens:,} tokens: {requests} requests to the model (each section, then the "
              "summary).",
        "zh": "{name}：{sections}，{tokens:,} 个 token：向模型发送 {requests} 次请求（先逐个部分，再写摘要）。",
    },
    "summary.request": {"en": "Request {n} of {total}…", "zh": "第 {n}/{total} 次请求…"},
    # clear-answers, remove, link, forget-grades
    "answers.removed": {"en": "Removed {n:stored answer|stored answers}.", "zh": "已删除 {n} 个存储的回答。"},
    "source.removed": {"en": "Removed {path} and its chunks.", "zh": "已移除 {path} 及其片段。"},
    "source.linked": {"en": "Linked {source} to {folder}: {unchanged} unchanged, {read} read, {gone} gone.",
                      "zh": "已将 {source} 关联到 {folder}：未变 {unchanged}，读取 {read}，已不存在 {gone}。"},
    "grades.forgotten": {"en": "Forgot the grades and marked passages of {n:answer|answers}.",
                         "zh": "已撤销 {n} 个回答的评分和标记的段落。"},
    # collections, export, import (cli/collection_commands.py); names come quoted as “…”
    "collections.granted": {"en": "Role “{role}” may now see and index the collection “{name}”.",
                            "zh": "角色“{role}”现在可以查看并索引知识库“{name}”。"},
    "collections.revoked": {"en": "Role “{role}” may no longer see the collection “{name}”.",
                            "zh": "角色“{role}”不能再查看知识库“{name}”。"},
    "collections.no_grant": {"en": "Role “{role}” had no grant on “{name}”.", "zh": "角色“{role}”对“{name}”本来就没有授权。"},
    "collections.created": {"en": "Created the collection “{name}”.", "zh": "已创建知识库“{name}”。"},
    "collections.renamed": {"en": "Renamed “{old}” to “{new}”.", "zh": "已把“{old}”重命名为“{new}”。"},
    "collections.confirm_delete": {  # {sizes}: "3 files, 40 chunks"
        "en": "Delete the collection “{name}” ({sizes})? Your documents on disk are not touched. [y/N] ",
        "zh": "删除知识库“{name}”（{sizes}）？磁盘上的文档不会受影响。[y/N] ",
    },
    "collections.deleted": {"en": "Deleted the collection “{name}” and its index (your documents were not touched).",
                            "zh": "已删除知识库“{name}”及其索引（你的文档没有受影响）。"},
    "export.done": {"en": "Exported “{name}”: {counts} -> {path}", "zh": "已导出“{name}”：{counts} -> {path}"},
    "export.missing": {
        "en": "  not included (missing, changed since it was indexed, not linked, or not a plain file in its folder): "
              "{path}",
        "zh": "  未包含（文件不存在、索引后已更改、未关联，或不是其文件夹中的普通文件）：{path}",
    },
    "import.reembed": {  # {passages}: "120 passages"
        "en": "The vectors in this archive were made with the embedding model “{model}”, but this library uses "
              "“{library_model}”; its {passages} will be embedded again with this library's model.",
        "zh": "此归档中的向量由嵌入模型“{model}”生成，而此资料库使用“{library_model}”；其中 {passages}将用此资料库的模型"
              "重新嵌入。",
    },
    "import.done": {"en": "Imported “{name}”: {counts} used as stored{again}.",
                    "zh": "已导入“{name}”：{counts}按原样使用{again}。"},
    "import.embedded_again": {"en": ", {n} embedded again", "zh": "，{n} 个重新嵌入"},
    "import.documents": {"en": "Documents: {path}", "zh": "文档：{path}"},
    "import.no_documents": {
        "en": "The documents were not in the archive: search works; the sources keep their original paths.",
        "zh": "归档中不含文档：可以照常搜索；来源保留原来的路径。",
    },
    # models, download-model (cli/model_commands.py)
    "models.row": {"en": "{mark} {key} {mb:>6,} MB  dim {dimension:<5} ~{en:g}/{zh:g} chunks/s (en/zh)  {languages}",
                   "zh": "{mark} {key} {mb:>6,} MB  维度 {dimension:<5} 每秒约 {en:g}/{zh:g} 个片段（英/中）  {languages}"},
    "models.downloaded": {"en": "downloaded: {path}", "zh": "已下载：{path}"},
    "models.not_downloaded": {"en": "not downloaded", "zh": "未下载"},
    "models.footer": {"en": "\nSpeeds: {note}.\nDownload one with `desktop-rag download-model NAME` (--hub "
                            "https://hf-mirror.com for the mirror).",
                      "zh": "\n速度：{note}。\n用 `desktop-rag download-model NAME` 下载一个（加 --hub https://hf-mirror.com "
                            "使用镜像）。"},
    "models.done": {"en": "Downloaded {repo} into {folder}\nUse it: Settings → Embedding model → this folder "
                          "(or DESKTOP_RAG_EMBEDDING_MODEL={folder}).",
                    "zh": "已把 {repo} 下载到 {folder}\n使用方法：“设置”→“嵌入模型”→ 选择此文件夹"
                          "（或设置 DESKTOP_RAG_EMBEDDING_MODEL={folder}）。"},
    "download.listing": {"en": "listing", "zh": "正在列出文件"},  # a download's phase (DownloadProgress.phase)
    "download.downloading": {"en": "downloading", "zh": "正在下载"},
    "download.verifying": {"en": "verifying", "zh": "正在校验"},
    "download.done": {"en": "done", "zh": "完成"},
    "download.progress": {"en": "{phase} {done:,.1f}/{total:,.1f} MB", "zh": "{phase} {done:,.1f}/{total:,.1f} MB"},
    "download.rate": {"en": ", {rate:.1f} MB/s", "zh": "，{rate:.1f} MB/秒"},
    # local-server, move-library (cli/server_commands.py)
    "server.keyring": {"en": "the OS keyring", "zh": "系统密钥环"},
    "server.serving": {
        "en": "PostgreSQL with pgvector is serving {folder}. The administrator's password is in {password_file} and "
              "saved for this user in {where}. Open the library with: desktop-rag --library '{url}' status. Ctrl+C "
              "stops the server.",
        "zh": "PostgreSQL（含 pgvector）正在为 {folder} 提供服务。管理员密码在 {password_file} 中，并已为此用户保存在"
              "{where}。打开此资料库：desktop-rag --library '{url}' status。按 Ctrl+C 停止服务器。",
    },
    "server.moved": {  # {collections}: "2 collections"; {counts}: "3 files, 40 passages, 40 vectors"
        "en": "Copied {collections} ({counts}; nothing embedded again) to {to}; this computer now uses that library "
              "(the old one is left as it was).",
        "zh": "已把 {collections}（{counts}；无需重新嵌入）复制到 {to}；此电脑现在使用那个资料库（原资料库保持不变）。",
    },
    # eval (cli/review_commands.py)
    "eval.none": {"en": "No labelled questions to measure: mark the right passage of some answers (or use --queries "
                        "and --qrels).",
                  "zh": "没有可衡量的已标注问题：请为一些回答标记正确的段落（或使用 --queries 和 --qrels）。"},
    "eval.measured": {"en": "{n:labelled question|labelled questions}", "zh": "{n} 个已标注的问题"},
    "eval.stale": {"en": "stale ({reason}): {question}", "zh": "已过时（{reason}）：{question}"},
    "eval.changed": {"en": "changed", "zh": "标记的段落已更改"},  # {reason} of eval.stale (StaleLabel.reason)
    "eval.vanished": {"en": "vanished", "zh": "标记的段落已不存在"},
    "eval.progress": {"en": "Measuring question {done} of {total}…", "zh": "正在衡量第 {done}/{total} 个问题…"},
    "eval.progress_line": {"en": "measured {done} of {questions}", "zh": "已衡量 {done}/{questions}"},
}


def say(key: str, /, **values: object) -> str:
    """The line `key` of the table in the command line's language, with `values` filled in."""
    return worded(TEXTS[key], language(), **values)
