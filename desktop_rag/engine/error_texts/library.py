"""The library (store/): its lock, collections, a search's scope; collection archives (archive/); a document to
summarise (answer/summary_sections.py)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # the library (store/)
    "error.library_busy": {"en": "The library is being updated by another Desktop RAG window or process (an index run, "
                                 "or a source being removed). Wait until it has finished, then try again.",
                           "zh": "另一个 Desktop RAG 窗口或进程正在更新资料库（正在索引，或正在移除某个来源）。请等它完成后再试。"},
    "error.unknown_collection": {"en": "There is no collection called “{name}”. The collections are: {names} "
                                       "(`desktop-rag collections create NAME` makes a new one).",
                                 "zh": "没有名为“{name}”的知识库。现有的知识库是：{names}（`desktop-rag collections create 名称` "
                                       "可新建一个）。",
                                 "window.en": "There is no collection called “{name}”. The collections are: {names} "
                                              "(Collections → New collection… makes a new one).",
                                 "window.zh": "没有名为“{name}”的知识库。现有的知识库是：{names}（“知识库 → 新建知识库…”可新建一个）。"},
    "error.collection_no_name": {"en": "A collection needs a name.", "zh": "知识库需要一个名称。"},
    # the command line's own: {usage} the command's form; {names} the collections, quoted
    "error.cli_usage": {"en": "usage: desktop-rag {usage}", "zh": "用法：`desktop-rag {usage}`"},
    "error.cli_not_deleted": {"en": "Not deleted (add --yes to delete without asking).",
                              "zh": "未删除（加上 --yes 可不经询问直接删除）。"},
    "error.cli_export_which": {"en": "Say which collection to export with --collection NAME (there are: {names}).",
                               "zh": "请用 --collection 名称 指明要导出哪个知识库（现有：{names}）。"},
    "error.not_a_source_in": {"en": "{path} is not a source in the collection “{collection}” (see `desktop-rag status`).",
                              "zh": "{path} 不是知识库“{collection}”中的来源（见 `desktop-rag status`）。"},
    "error.collection_name_long": {"en": "A collection name can have at most {n} characters.",
                                   "zh": "知识库名称最多只能有 {n} 个字符。"},
    "error.collection_name_controls": {"en": "A collection name cannot contain control or invisible characters.",
                                       "zh": "知识库名称不能包含控制字符或不可见字符。"},
    "error.collection_exists": {"en": "A collection called “{name}” already exists.", "zh": "名为“{name}”的知识库已存在。"},
    "error.collection_gone": {"en": "That collection no longer exists.", "zh": "该知识库已不存在。"},
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
    "error.bad_file_path": {"en": "“{path}” is not a usable file path ({detail}).",
                            "zh": "“{path}”不是可用的文件路径（{detail}）。"},
    "error.not_a_library_file": {"en": "“{path}” is not a file of the library (see `desktop-rag status`; a folder is "
                                       "limited with --folder).",
                                 "zh": "“{path}”不是资料库中的文件（见 `desktop-rag status`；限定文件夹请用 --folder）。",
                                 "window.en": "“{path}” is not a file of the library: choose one the library lists.",
                                 "window.zh": "“{path}”不是资料库中的文件：请选择资料库列出的文件。"},
    "error.library_newer_schema": {"en": "This library was written by a newer Desktop RAG (schema {version}); please "
                                         "update the app.",
                                   "zh": "此资料库由更新版本的 Desktop RAG 写入（schema {version}）；请更新应用。"},
    "error.not_a_library": {"en": "{path} is not a Desktop RAG library ({detail}).",
                            "zh": "{path} 不是 Desktop RAG 资料库（{detail}）。"},
    "error.library_newer": {"en": "This library was written by a newer Desktop RAG; please update the app.",
                            "zh": "此资料库由更新版本的 Desktop RAG 写入；请更新应用。"},
    "error.library_older": {"en": "This library was written by an older Desktop RAG; open it once with the app (or run "
                                  "`desktop-rag status`) to upgrade it.",
                            "zh": "此资料库由较旧版本的 Desktop RAG 写入；请用应用打开一次（或运行 `desktop-rag status`）来升级。",
                            "window.en": "This library was written by an older Desktop RAG; restart the app to upgrade it.",
                            "window.zh": "此资料库由较旧版本的 Desktop RAG 写入；请重新启动应用来升级它。"},
    "error.bad_source_name": {"en": "The name of {path} is not valid text (UTF-8), so it cannot be stored; rename it and "
                                    "add it again.",
                              "zh": "{path} 的名称不是有效文本（UTF-8），无法保存；请重命名后重新添加。"},
    "error.no_library": {"en": "There is no library in {folder} yet: index some documents first (`desktop-rag index "
                               "PATH`, or drop files on the window).",
                         "zh": "{folder} 中还没有资料库：请先索引一些文档（`desktop-rag index 路径`，或把文件拖到窗口上）。",
                         "window.en": "There is no library in {folder} yet: index some documents first (drop files on "
                                      "the window, or Add folder…).",
                         "window.zh": "{folder} 中还没有资料库：请先索引一些文档（把文件拖到窗口上，或点击“添加文件夹…”）。"},
    "error.data_folder_unwritable": {  # {detail}: the system's reason ("Read-only file system", "File exists")
        "en": "The data folder {folder} cannot be written ({detail}), and the library is written there even to be "
              "searched. Use a folder you can write (--data-dir), or copy this one to such a folder.",
        "zh": "无法写入数据文件夹 {folder}（{detail}），而即使只是搜索，资料库也要在那里写入。"
              "请使用可写的文件夹（--data-dir），或把此文件夹复制到可写的位置。",
        "window.en": "The data folder {folder} cannot be written ({detail}), and the library is written there even to "
                     "be searched. Make it writable, or copy it to a folder you can write and set DESKTOP_RAG_HOME to "
                     "that folder before starting the app.",
        "window.zh": "无法写入数据文件夹 {folder}（{detail}），而即使只是搜索，资料库也要在那里写入。"
                     "请让它可写，或把它复制到可写的文件夹，并在启动应用前把 DESKTOP_RAG_HOME 设为该文件夹。"},
    # collection archives (archive/)
    "error.not_archive": {"en": "{name} is not a Desktop RAG collection archive: {why}. Nothing was changed.",
                          "zh": "{name} 不是 Desktop RAG 知识库归档：{why}。没有做任何更改。"},
    "error.archive_unreadable": {  # {detail}: zipfile's words, said to be the system's
        "en": "{name} is not a Desktop RAG collection archive: it is not a readable zip file ({detail}). Nothing was "
              "changed.",
        "zh": "{name} 不是可以导入的知识库归档：无法把它读作 zip 文件，它可能已损坏、在复制或下载时被截断，或者是其他类型的"
              "文件。没有做任何更改。请重新复制它，或重新导出该知识库（{detail}）。",
    },
    "error.archive_damaged": {"en": "{name} is damaged or incomplete: {why}. Nothing was changed; export it again.",
                              "zh": "{name} 已损坏或不完整：{why}。没有做任何更改；请重新导出。"},
    "error.changed_during_export": {"en": "{path} changed while it was being exported; export again.",
                                    "zh": "{path} 在导出过程中发生了变化；请重新导出。"},
    "error.export_target_folder": {"en": "{path} is a folder: name the archive file to write in it (for example "
                                         "{path}/collection.zip).",
                                   "zh": "{path} 是一个文件夹：请给出要写入其中的归档文件名（例如 {path}/collection.zip）。"},
    "error.export_target_special": {"en": "{path} is not a regular file (a device, a pipe or a socket): name an archive "
                                          "file to write. Nothing was written.",
                                    "zh": "{path} 不是普通文件（设备、管道或套接字）：请给出要写入的归档文件名。没有写入任何内容。"},
    "error.export_target_exists": {"en": "{path} already exists and is not a collection archive: name another file (an "
                                         "archive made by export is replaced). Nothing was written.",
                                   "zh": "{path} 已存在，且不是知识库归档：请换一个文件名（由导出生成的归档会被替换）。没有写入任何内容。"},
    "error.export_not_writable": {"en": "The archive cannot be written in {folder} ({detail}). Nothing was written.",
                                  "zh": "无法在 {folder} 中写入归档（{detail}）。没有写入任何内容。"},
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
    "phrase.archive.member_twice": {"en": "a member name occurs twice", "zh": "有一个成员名称出现了两次"},
    "phrase.archive.no_manifest": {"en": "it has no manifest.json (not made by `desktop-rag export`)",
                                   "zh": "它没有 manifest.json（不是由 `desktop-rag export` 生成的）",
                                   "window.en": "it has no manifest.json (not made by Export…)",
                                   "window.zh": "它没有 manifest.json（不是由“导出…”生成的）"},
    "phrase.archive.unlisted_member": {"en": "it holds a member the manifest does not list ({name})",
                                       "zh": "它包含清单中没有列出的成员（{name}）"},
    "phrase.archive.unexpected_member": {"en": "its manifest lists an unexpected member name {name}",
                                         "zh": "它的清单列出了意外的成员名称 {name}"},
    "phrase.archive.member_missing": {"en": "the member {name} is missing (a truncated or edited archive)",
                                      "zh": "缺少成员 {name}（归档被截断或被修改过）"},
    "phrase.archive.member_size": {"en": "the size of {name} does not match its manifest or is too large",
                                   "zh": "{name} 的大小与清单不符或过大"},
    "phrase.archive.documents_large": {"en": "its documents are larger than 64 GB", "zh": "其中的文档超过 64 GB"},
    "phrase.archive.vector_dimension": {"en": "its vectors have an impossible dimension", "zh": "其中向量的维度不可能成立"},
    "phrase.archive.vector_shape": {"en": "its vectors do not match their count and dimension", "zh": "其中的向量与其数量和维度不符"},
    "phrase.archive.too_large": {"en": "its passages and vectors are larger than this app reads",
                                 "zh": "其中的段落和向量超出了本应用可读取的大小"},
    "phrase.archive.inflates": {"en": "{name} inflates more than {ratio} times (a zip bomb, or not made by `desktop-rag export`)",
                                "zh": "{name} 解压后膨胀超过 {ratio} 倍（是 zip 炸弹，或不是由 `desktop-rag export` 生成的）",
                                "window.en": "{name} inflates more than {ratio} times (a zip bomb, or not made by Export…)",
                                "window.zh": "{name} 解压后膨胀超过 {ratio} 倍（是 zip 炸弹，或不是由“导出…”生成的）"},
    "phrase.archive.bad_manifest": {"en": "its manifest is not a Desktop RAG collection manifest",
                                    "zh": "它的清单不是 Desktop RAG 知识库清单"},
    "phrase.archive.manifest_key": {"en": "its manifest has no valid {key}", "zh": "它的清单中没有有效的 {key}"},
    "phrase.archive.no_counts": {"en": "its manifest's counts are missing", "zh": "它的清单缺少计数"},
    "phrase.archive.chunking": {"en": "its manifest's chunking settings are out of range (a chunk size of at least 1, "
                                      "an overlap smaller than the chunk size, whole numbers below 2^31)",
                                "zh": "它的清单中的分块设置超出范围（片段长度至少为 1，片段重叠小于片段长度，均为小于 2^31 的整数）"},
    "phrase.archive.no_model": {"en": "its manifest does not say which model made its vectors",
                                "zh": "它的清单没有说明向量是由哪个模型生成的"},
    "phrase.archive.unlisted": {"en": "its manifest does not list {name}", "zh": "它的清单没有列出 {name}"},
    "phrase.archive.checksum": {"en": "the content of {name} does not match its checksum", "zh": "{name} 的内容与其校验和不符"},
    "phrase.archive.vector_numbers": {"en": "its vectors hold invalid numbers", "zh": "其中的向量包含无效数值"},
    "phrase.archive.collection_json": {"en": "collection.json is not an object", "zh": "collection.json 不是对象"},
    "phrase.archive.json": {"en": "{name} is not valid JSON", "zh": "{name} 不是有效的 JSON"},
    # what check_rows (archive/shapes.py) finds wrong with an archive's rows
    "phrase.archive.rows.no_lists": {
        "en": "collection.json has no lists of sources and files",
        "zh": "collection.json 中没有来源和文件的列表"},
    "phrase.archive.rows.number_range": {"en": "a record holds a number out of range", "zh": "某条记录中的数字超出范围"},
    "phrase.archive.rows.file_path": {
        "en": "a file has an invalid status, or a path that is not an absolute local path",
        "zh": "某个文件的状态无效，或其路径不是本机的绝对路径"},
    "phrase.archive.rows.file_type": {"en": "a file is not a supported document type", "zh": "某个文件不是支持的文档类型"},
    "phrase.archive.rows.chunk_page": {"en": "a chunk has an invalid page", "zh": "某个段落的页码无效"},
    "phrase.archive.rows.ocr_lines": {"en": "a file's recognised lines are malformed", "zh": "某个文件的识别文字行格式错误"},
    "phrase.archive.rows.same_id": {"en": "two records share an id", "zh": "两条记录的编号相同"},
    "phrase.archive.rows.same_path": {"en": "two records share a path", "zh": "两条记录的路径相同"},
    "phrase.archive.rows.missing_parent": {
        "en": "a record points at a missing source or file",
        "zh": "某条记录指向不存在的来源或文件"},
    "phrase.archive.rows.stray_vector": {"en": "a vector belongs to no chunk", "zh": "某个向量不属于任何段落"},
    "phrase.archive.rows.stray_document": {"en": "a document belongs to no file", "zh": "某个文档不属于任何文件"},
    "phrase.archive.rows.attachment_document": {
        "en": "an attachment has a document of its own (it travels inside its message)",
        "zh": "某个附件带有自己的文档（附件应随其邮件一起）"},
    "phrase.archive.rows.counts": {"en": "its counts do not match its content", "zh": "其中的计数与内容不符"},
    "phrase.archive.rows.attachment_parent": {
        "en": "an attachment belongs to no message of the archive",
        "zh": "某个附件不属于归档中的任何邮件"},
    "phrase.archive.rows.attachment_outside": {"en": "an attachment lies outside its message", "zh": "某个附件位于其邮件之外"},
    "phrase.archive.rows.sources_overlap": {"en": "two of its sources overlap", "zh": "其中有两个来源相互重叠"},
    "phrase.archive.rows.file_outside": {"en": "a file lies outside its source", "zh": "某个文件位于其来源之外"},
    "phrase.archive.rows.source_path": {
        "en": "a source has an invalid kind, or a path that is not an absolute local path (relative, with '..', or "
              "a network share)",
        "zh": "某个来源的类型无效，或其路径不是本机的绝对路径（相对路径、含 '..'，或网络共享）"},
    "phrase.archive.rows.malformed_source": {"en": "a source record is malformed", "zh": "某条来源记录格式错误"},
    "phrase.archive.rows.malformed_file": {"en": "a file record is malformed", "zh": "某条文件记录格式错误"},
    "phrase.archive.rows.malformed_chunk": {"en": "a chunk record is malformed", "zh": "某条段落记录格式错误"},
    "phrase.archive.rows.passage_too_long": {
        "en": "one of its passages is {length} characters long, and a passage may be at most {limit} characters "
              "(Desktop RAG writes passages of about the chunk size, 500 characters by default)",
        "zh": "其中一个段落长达 {length} 个字符，而一个段落最多只能有 {limit} 个字符（Desktop RAG 写入的段落约为分块大小，"
              "默认 500 个字符）"},
    "error.import_name_taken": {"en": "A collection called “{name}” already exists here; import it under another name "
                                      "(`desktop-rag import FILE --name NEW`) or delete that one first.",
                                "zh": "这里已有名为“{name}”的知识库；请用其他名称导入（`desktop-rag import 文件 --name 新名称`），"
                                      "或先删除那个知识库。",
                                "window.en": "A collection called “{name}” already exists here; import it again and give "
                                             "it another name, or delete that one first.",
                                "window.zh": "这里已有名为“{name}”的知识库；请重新导入并给它另起一个名称，或先删除那个知识库。"},
    "error.import_source_exists": {"en": "The archive's source {path} is already a source in this library (collection "
                                         "“{collection}”): a file or folder can be in one collection only.{advice} "
                                         "Nothing was changed.",
                                   "zh": "归档中的来源 {path} 已是此资料库的来源（知识库“{collection}”）：一个文件或文件夹只能属于"
                                         "一个知识库。{advice}没有做任何更改。"},
    "error.import_source_overlaps": {"en": "The archive's source {path} overlaps {other}, which is a source in this "
                                           "library (collection “{collection}”): a file or folder can be in one "
                                           "collection only.{advice} Nothing was changed.",
                                     "zh": "归档中的来源 {path} 与此资料库的来源 {other}（知识库“{collection}”）重叠：一个文件或"
                                           "文件夹只能属于一个知识库。{advice}没有做任何更改。"},
    "error.documents_dir_not_writable": {  # {detail}: the system's reason
        "en": "The archive's documents cannot be written in {folder} ({detail}): choose a folder for them "
              "(`--documents-dir`). Nothing was changed.",
        "zh": "无法在 {folder} 中写入归档的文档（{detail}）：请为它们选择一个文件夹（`--documents-dir`）。没有做任何更改。",
        "window.en": "The archive's documents cannot be written in {folder} ({detail}): import it again and choose "
                     "another folder for them. Nothing was changed.",
        "window.zh": "无法在 {folder} 中写入归档的文档（{detail}）：请重新导入，并为它们选择另一个文件夹。没有做任何更改。"},
    "phrase.other_documents_dir": {"en": " Choose another folder for its documents (`--documents-dir`).",
                                   "zh": "请为其文档选择另一个文件夹（`--documents-dir`）。",
                                   "window.en": " Import it again and choose another folder for its documents.",
                                   "window.zh": "请重新导入，并为其文档选择另一个文件夹。"},
    "phrase.empty": {"en": "", "zh": ""},
    "error.import_file_exists": {"en": "{path} is already in this library: a file can be in one collection only. "
                                       "Nothing was changed.",
                                 "zh": "{path} 已在此资料库中：一个文件只能属于一个知识库。没有做任何更改。"},
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
                            "zh": "{target} 与知识库“{collection}”中的来源 {other} 重叠：请选择另一个文件夹。"},
    "error.link_collision": {"en": "Two files of {path} would have the same path in {target}. Nothing was changed.",
                             "zh": "{path} 中有两个文件在 {target} 中会有相同的路径。没有做任何更改。"},
    "error.not_in_library": {"en": "“{path}” is not a file of the library (see `desktop-rag status`).",
                             "zh": "“{path}”不是资料库中的文件（见 `desktop-rag status`）。",
                             "window.en": "“{path}” is not a file of the library.",
                             "window.zh": "“{path}”不是资料库中的文件。"},
    "error.nothing_to_summarise": {"en": "“{path}” has no text in the library yet: nothing to summarise.",
                                   "zh": "资料库中还没有“{path}”的文字：没有可摘要的内容。"},
    "error.nothing_to_summarise_because": {"en": "“{path}” has no text in the library yet ({why}): nothing to summarise.",
                                           "zh": "资料库中还没有“{path}”的文字（{why}）：没有可摘要的内容。"},
    # the facade, its runtime and source registration
    "error.read_only": {
        "en": "This library is open read-only here (the MCP server): nothing can be changed.",
        "zh": "此资料库在这里以只读方式打开（MCP 服务器）：无法做任何更改。",
    },
    "error.no_such_path": {"en": "No such file or folder: {path}", "zh": "没有这个文件或文件夹：{path}"},
    "error.empty_question": {"en": "The question or search is empty: type what to look for in your documents.",
                             "zh": "问题或搜索内容为空：请输入要在文档中查找的内容。"},
    "error.empty_path": {"en": "An empty path was given; name a file or folder.",
                         "zh": "给出的路径为空；请指定一个文件或文件夹。"},
    "error.not_regular_path": {
        "en": "Not a regular file or folder: {path} (a pipe, device or socket is never read)",
        "zh": "不是普通文件或文件夹：{path}（管道、设备或套接字从不读取）",
    },
    "error.unsupported_source_type": {
        "en": "Not a supported file type: {path} ({types})", "zh": "不支持的文件类型：{path}（{types}）",
    },
    "error.overlaps_not_linked": {
        "en": "{path} overlaps {other}, a source imported from an archive and not linked to this computer yet: "
              "link it to a folder first (`desktop-rag link`, or Link to a folder… in the library), or remove it.",
        "zh": "{path} 与 {other} 重叠，后者是从归档导入、尚未关联到这台电脑的来源：请先把它关联到一个文件夹"
              "（`desktop-rag link`，或在资料库中选择“关联到文件夹…”），或将其移除。",
        "window.en": "{path} overlaps {other}, a source imported from an archive and not linked to this computer yet: "
                     "link it to a folder first (Link to a folder… in the library), or remove it.",
        "window.zh": "{path} 与 {other} 重叠，后者是从归档导入、尚未关联到这台电脑的来源：请先把它关联到一个文件夹"
                     "（在资料库中选择“关联到文件夹…”），或将其移除。",
    },
    "error.overlaps_collection": {
        "en": "{path} overlaps {other}, which is in the collection “{collection}”: a file or folder can be in one "
              "collection only (remove it there first).",
        "zh": "{path} 与 {other} 重叠，后者属于知识库“{collection}”：一个文件或文件夹只能属于一个知识库（请先从那里移除）。",
    },
    "error.source_not_granted": {  # the path itself, a folder holding it or one inside it (never which)
        "en": "{path} is, holds or lies inside a file or folder already in this library, in a collection your role "
              "may not see: a file or folder can be in one collection only. Ask the library's administrator about "
              "it, or add another file or folder.",
        "zh": "{path} 与此资料库中已有的文件或文件夹相同、包含它或位于其中，后者属于你的角色无权查看的知识库：一个文件或"
              "文件夹只能属于一个知识库。请询问资料库管理员，或添加其他文件或文件夹。",
    },
    "error.not_a_source": {
        "en": "{path} is not a source in this library (see `desktop-rag status`).",
        "zh": "{path} 不是此资料库中的来源（见 `desktop-rag status`）。",
        "window.en": "{path} is not a source in this library.",
        "window.zh": "{path} 不是此资料库中的来源。",
    },
    "error.chunked_with": {
        "en": "This library was chunked with {stored}, but the settings now ask for {wanted}: re-index everything "
              "(`desktop-rag index --reindex`, or Re-index in Settings) or change the settings back.",
        "zh": "此资料库的分块设置是 {stored}，但现在的设置要求 {wanted}：请全部重新索引（`desktop-rag index --reindex`，"
              "或在设置中选择“重新索引”），或把设置改回去。",
        "window.en": "This library was chunked with {stored}, but the settings now ask for {wanted}: re-index "
                     "everything (Re-index in Settings) or change the settings back.",
        "window.zh": "此资料库的分块设置是 {stored}，但现在的设置要求 {wanted}：请全部重新索引（在设置中选择“重新索引”），"
                     "或把设置改回去。",
    },
    "error.chunked_with_shared": {
        "en": "This shared library was chunked with {stored}, but your settings ask for {wanted}: change the "
              "settings back (only the library's administrator can re-index it with other ones).",
        "zh": "此共享资料库的分块设置是 {stored}，但你的设置要求 {wanted}：请把设置改回去（只有资料库管理员才能用其他设置重新索引）。",
    },
    "error.reindex_shared": {
        "en": "Only the library's administrator can re-index a shared library (every collection at once).",
        "zh": "只有资料库管理员才能重新索引共享资料库（一次重建所有知识库）。",
    },
    "error.archive_model": {  # {model}: the archive's embedding model, {library_model}: this library's
        "en": "The vectors in this archive were made with the embedding model “{model}”, but this library uses "
              "“{library_model}”. Its {count:passage|passages} would be embedded again with “{library_model}”. To do that, "
              "import with --reembed (in the app: confirm the import); to avoid it, switch this library's embedding "
              "model to “{model}” in Settings first.",
        "zh": "此归档中的向量由嵌入模型“{model}”生成，而此资料库使用“{library_model}”。其中 {count} 个段落将用"
              "“{library_model}”重新嵌入。如要这样做，请使用 --reembed 导入（在应用中：确认导入）；如要避免，请先在"
              "“设置”中把此资料库的嵌入模型切换为“{model}”。",
        "window.en": "The vectors in this archive were made with the embedding model “{model}”, but this library uses "
                     "“{library_model}”. Its {count:passage|passages} would be embedded again with "
                     "“{library_model}”. To do that, confirm the import; to avoid it, switch this library's embedding "
                     "model to “{model}” in Settings first.",
        "window.zh": "此归档中的向量由嵌入模型“{model}”生成，而此资料库使用“{library_model}”。其中 {count} 个段落将用"
                     "“{library_model}”重新嵌入。如要这样做，请确认导入；如要避免，请先在“设置”中把此资料库的嵌入模型切换为"
                     "“{model}”。",
    },
}
