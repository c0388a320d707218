"""The Settings dialog's texts, the model download dialog's, and where the library is (issue 46: Settings'
Library group, the status bar, restarting, the viewer)."""

from __future__ import annotations

TEXT: dict[str, tuple[str, str]] = {
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
    # the model's reply limit: a reply cut inside its thinking names it so (error.llm_token_limit_thinking)
    "settings.max_reply_tokens": ("Reply limit (tokens)", "单次回复上限（token）"),
    "settings.max_reply_tokens_tip": ("The most one reply of the model may take, sent with each request. A model that "
                                      "thinks before it answers (DeepSeek-R1, QwQ) may need 8000 or more.",
                                      "模型单次回复最多可用的 token 数，随每个请求发送。先思考再作答的模型"
                                      "（DeepSeek-R1、QwQ）可能需要 8000 或更多。"),
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
