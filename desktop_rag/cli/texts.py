"""The command line's own lines for a person (progress, an index run's summary, status, labels), in English and
Chinese: one table, said in the command line's language (`output.language`) by `say`. A count's noun agrees in
English as the engine's texts do (`{n:file|files}`, `wording.Counted`); `--json` output never comes from here."""

from __future__ import annotations

from desktop_rag.engine import locale_language as language  # the command line's language (LANG=zh_CN.UTF-8)
from desktop_rag.engine import worded
from desktop_rag.parser_words import ARGPARSE_WORDS

TEXTS: dict[str, dict[str, str]] = {
    # stderr's lines of a failed or stopped command (cli/output.py, cli/main.py); {why}: said in the same language
    "line.error": {"en": "error: {why}", "zh": "错误：{why}"},
    "line.output_lost": {"en": "error: the output could not be written ({why})", "zh": "错误：无法写出输出（{why}）"},
    "line.interrupted": {"en": "interrupted", "zh": "已中断"},
    "line.no_log_file": {"en": "warning: no log file could be opened in the log folder or the temp folder ({why}); "
                               "this run keeps no log",
                         "zh": "警告：日志文件夹和临时文件夹中都无法打开日志文件（{why}），本次运行不记录日志"},
    "line.no_display": {
        "en": "No display found, so the window cannot open. Running the headless demo on the sample documents instead "
              "(the same as `desktop-rag demo`).\n",
        "zh": "未找到显示器，无法打开窗口。改为在示例文档上运行无界面演示（与 `desktop-rag demo` 相同）。\n",
    },
    **ARGPARSE_WORDS,  # argparse's own words (parser_words.py): `say("argparse.version")`
    # the help of each command and option (`desktop-rag -h`, `desktop-rag ask -h`; cli/main.py); argparse %-formats
    # them, so a "%" is written "%%"
    "help.description": {"en": "A private knowledge base over your documents, with cited answers.",
                         "zh": "基于你自己文档的私人知识库，回答附带引用来源。"},
    "help.data_dir": {"en": "library folder (default: $DESKTOP_RAG_HOME or your user data dir)",
                      "zh": "资料库文件夹（默认：$DESKTOP_RAG_HOME 或你的用户数据文件夹）"},
    "help.library": {"en": "use the library on a PostgreSQL server (postgresql://USER@HOST:PORT/DB; the password from the "
                           "OS keyring or DESKTOP_RAG_LIBRARY_PASSWORD), or 'local' for this computer's (default: "
                           "$DESKTOP_RAG_LIBRARY or the settings)",
                     "zh": "使用 PostgreSQL 服务器上的资料库（postgresql://USER@HOST:PORT/DB；密码取自系统密钥环或 "
                           "DESKTOP_RAG_LIBRARY_PASSWORD），或用 'local' 表示这台电脑上的资料库（默认：$DESKTOP_RAG_LIBRARY "
                           "或设置中的值）"},
    "help.self_test": {"en": "index the bundled samples in a temp dir, check, exit",
                       "zh": "在临时文件夹中索引内置示例并检查，然后退出"},
    "help.json": {"en": "machine-readable JSON output (the same in every language)", "zh": "输出机器可读的 JSON（不随语言变化）"},
    "help.index": {"en": "add files/folders as sources and index them", "zh": "把文件或文件夹添加为来源并建立索引"},
    "help.index.paths": {"en": "files or folders (none: re-scan every source)", "zh": "文件或文件夹（不给出：重新扫描所有来源）"},
    "help.index.reindex": {"en": "drop the index and rebuild it with the current settings",
                           "zh": "丢弃索引，按当前设置重新建立"},
    "help.index.password": {"en": "password for password-protected PDFs in this run ('-' asks for it without echo); used "
                                  "for this run only, never stored",
                            "zh": "本次运行中受密码保护的 PDF 的密码（'-' 表示以不回显的方式询问）；只用于本次运行，从不保存"},
    "help.index.collection": {"en": "the collection new paths join (default: the first one); without paths, re-scan its "
                                    "sources",
                              "zh": "新路径加入的知识库（默认：第一个）；不给出路径时，重新扫描它的来源"},
    "help.status": {"en": "what is indexed, failed, pending", "zh": "已索引、失败和待处理的内容"},
    "help.only_collection": {"en": "only this collection", "zh": "只看这个知识库"},
    "help.search": {"en": "retrieve passages", "zh": "检索段落"},
    "help.search.queries": {"en": 'JSONL file of {{"_id", "text"}}; one JSON line out per query',
                            "zh": '{{"_id", "text"}} 组成的 JSONL 文件；每个查询输出一行 JSON'},
    "help.search.k": {"en": "number of results (1 to {most:,})", "zh": "结果数（1 到 {most:,}）"},
    "help.search_collection": {"en": "search only this collection (default: all)", "zh": "只搜索这个知识库（默认：全部）"},
    "help.context": {"en": "show what an answer would send the model (passages after compression)",
                     "zh": "显示回答时会发送给模型的内容（压缩后的段落）"},
    "help.context.queries": {"en": 'JSONL file of {{"_id", "text"}}; one JSON line out per question',
                             "zh": '{{"_id", "text"}} 组成的 JSONL 文件；每个问题输出一行 JSON'},
    "help.ask": {"en": "answer a question from your documents", "zh": "根据你的文档回答问题"},
    "help.ask.collection": {"en": "ask within this collection (default: all)", "zh": "在这个知识库中提问（默认：全部）"},
    "help.yes_summary": {"en": "go ahead with a summary that takes more model requests than summary_request_limit "
                               "(default 20)",
                         "zh": "即使摘要需要的模型请求数超过 summary_request_limit（默认 20）也继续"},
    "help.summarise": {"en": "summarise one document of the library", "zh": "为资料库中的一个文档写摘要"},
    "help.summarise.path": {"en": "a file of the library", "zh": "资料库中的一个文件"},
    "help.summarise.language": {"en": "the summary's language (default: the document's)", "zh": "摘要的语言（默认：与文档相同）"},
    "help.summarise.extractive": {"en": "no model: the document's most central sentences (the default when none is "
                                        "configured)",
                                  "zh": "不用模型：摘录文档中最核心的句子（未配置模型时的默认方式）"},
    "help.clear_answers": {"en": "remove every stored answer (the answer cache)", "zh": "删除所有存储的回答（回答缓存）"},
    "help.forget_grades": {"en": "take back every grade and marked passage of your answers",
                           "zh": "撤销你对回答的所有评分和标记的段落"},
    "help.eval": {"en": "measure search on your labelled questions: recall@5, precision@5, nDCG@10",
                  "zh": "用你标注过的问题衡量搜索：recall@5、precision@5、nDCG@10"},
    "help.eval.queries": {"en": 'a labelled set: one {{"_id", "text"}} a line', "zh": '标注集：每行一个 {{"_id", "text"}}'},
    "help.eval.qrels": {"en": "its judgements: query-id, corpus-id, score (header line)",
                        "zh": "它的判定：query-id、corpus-id、score（含表头行）"},
    "help.remove": {"en": "forget a source and its chunks", "zh": "移除一个来源及其片段"},
    "help.source_collection": {"en": "the collection the source is in", "zh": "来源所在的知识库"},
    "help.link": {"en": "link a source imported without its documents to a folder (then index it)",
                  "zh": "把导入时不含文档的来源关联到一个文件夹（然后索引它）"},
    "help.link.source": {"en": "the source as `status` shows it", "zh": "`status` 中显示的来源"},
    "help.link.folder": {"en": "the folder (or, for a single-file source, the file) on this computer",
                         "zh": "这台电脑上的文件夹（单个文件的来源则为该文件）"},
    "help.collections": {"en": "list, create, rename, delete or grant collections (knowledge bases)",
                         "zh": "列出、创建、重命名、删除知识库，或为知识库授权"},
    "help.collections.names": {"en": "create NAME | rename OLD NEW | delete NAME | grant NAME ROLE | revoke NAME ROLE (a "
                                     "library on a server: who may see it)",
                               "zh": "create 名称 | rename 旧名称 新名称 | delete 名称 | grant 名称 角色 | revoke 名称 角色"
                                     "（服务器上的资料库：谁可以查看）"},
    "help.collections.yes": {"en": "delete without asking", "zh": "删除时不再询问"},
    "help.export": {"en": "write one collection (chunks, vectors, settings) to an archive file",
                    "zh": "把一个知识库（片段、向量、设置）写入归档文件"},
    "help.export.file": {"en": "the archive to write (.zip)", "zh": "要写入的归档（.zip）"},
    "help.export.collection": {"en": "the collection to export (needed when there are several)",
                               "zh": "要导出的知识库（有多个知识库时必须给出）"},
    "help.export.with_documents": {"en": "include the documents themselves", "zh": "同时包含文档本身"},
    "help.import": {"en": "add a collection from an archive made by `export`", "zh": "从 `export` 生成的归档中添加知识库"},
    "help.import.name": {"en": "the new collection's name (default: the name in the archive)",
                         "zh": "新知识库的名称（默认：归档中的名称）"},
    "help.import.documents_dir": {"en": "where included documents go (default: a folder beside the archive)",
                                  "zh": "归档中的文档放在哪里（默认：归档旁边的一个文件夹）"},
    "help.import.reembed": {"en": "when the archive was made with another embedding model, embed its passages again",
                            "zh": "归档由其他嵌入模型生成时，重新嵌入其中的段落"},
    "help.mcp": {"en": "serve the library to AI tools over the Model Context Protocol (stdio, read-only)",
                 "zh": "通过模型上下文协议（MCP；stdio，只读）把资料库提供给 AI 工具"},
    "help.local_server": {"en": "run a PostgreSQL server with pgvector on this computer, data in DIR (prints the "
                                "library's URL; Ctrl+C stops it)",
                          "zh": "在这台电脑上运行带 pgvector 的 PostgreSQL 服务器，数据放在 DIR 中（会显示资料库的 URL；"
                                "按 Ctrl+C 停止）"},
    "help.local_server.dir": {"en": "the server's folder (made on first use)", "zh": "服务器的文件夹（首次使用时创建）"},
    "help.local_server.port": {"en": "also listen on this TCP port (default: a Unix socket in DIR only)",
                               "zh": "同时监听这个 TCP 端口（默认：只用 DIR 中的 Unix 套接字）"},
    "help.local_server.host": {"en": "the address to listen on with --port (0.0.0.0: other computers too, with a "
                                     "password)",
                               "zh": "配合 --port 监听的地址（0.0.0.0：其他电脑也可连接，需要密码）"},
    "help.move_library": {"en": "copy the whole library to another location (a server URL, or 'local'), vectors "
                                "included, and use it from now on",
                          "zh": "把整个资料库（含向量）复制到另一个位置（服务器 URL，或 'local'），之后就使用那里的资料库"},
    "help.move_library.to": {"en": "postgresql://USER@HOST:PORT/DB, or 'local' for this computer's data folder",
                             "zh": "postgresql://USER@HOST:PORT/DB，或用 'local' 表示这台电脑的数据文件夹"},
    "help.demo": {"en": "index the sample documents in a temp dir and answer a sample question",
                  "zh": "在临时文件夹中索引示例文档并回答示例问题"},
    "help.models": {"en": "recommended embedding models: size, speed, languages, downloaded or not",
                    "zh": "推荐的嵌入模型：大小、速度、语言、是否已下载"},
    "help.download_model": {"en": "download an embedding model into the data folder (resumable)",
                            "zh": "把嵌入模型下载到数据文件夹（可断点续传）"},
    "help.download_model.name": {"en": "a name from `desktop-rag models`, or an org/name repo id on the hub",
                                 "zh": "`desktop-rag models` 列出的名称，或模型仓库中 org/name 形式的仓库 ID"},
    "help.download_model.hub": {"en": "hub address (default: the hub_endpoint setting, e.g. https://hf-mirror.com)",
                                "zh": "模型仓库地址（默认：hub_endpoint 设置，例如 https://hf-mirror.com）"},
    "help.filter.folder": {"en": "only files inside this folder of the library (repeat for several)",
                           "zh": "只看资料库中这个文件夹里的文件（可重复给出多个）"},
    "help.filter.file": {"en": "only this file of the library (ask one document; repeat for several)",
                         "zh": "只看资料库中的这个文件（针对一个文档提问；可重复给出多个）"},
    "help.filter.type": {"en": "only files of this type (repeat for several)", "zh": "只看这种类型的文件（可重复给出多个）"},
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
    "ask.thinking": {"en": "The model is thinking… {count:character|characters} so far",
                     "zh": "模型正在思考……已思考 {count} 个字符"},
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
