"""The window's own texts: Qt's standard dialog buttons, the window and its areas, the crash dialog."""

from __future__ import annotations

TEXT: dict[str, tuple[str, str]] = {
    # Qt's standard dialog buttons (i18n.QtTexts)
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
    # the crash dialog (crash_handler.py)
    "crash.title": ("Unexpected error", "意外错误"),
    "crash.text": ("Something went wrong, but the app is still running.\n\n{summary}",
                   "出了点问题，但应用仍在运行。\n\n{summary}"),
    "crash.details": ("The details were written to the log file:\n{log_file}\n\nIf this keeps happening, save your "
                      "work, restart the app, and include the log file when you report the problem.",
                      "详细信息已写入日志文件：\n{log_file}\n\n如果反复出现，请保存工作、重启应用，并在报告问题时附上该日志文件。"),
    "crash.internal": ("A program error ({type})", "程序内部错误（{type}）"),
}
