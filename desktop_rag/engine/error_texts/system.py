"""The operating system's and the network's reasons (an errno, a resolver failure, a certificate not trusted), worded
in both languages (`system_errors.system_reason` picks one). The English texts are the system's own words where it
has them (glibc's strerror), so an English message reads as before; the Chinese ones say the same. A reason the
table does not know keeps the system's words ("phrase.system.other")."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # files and folders
    "phrase.system.no_such_file": {"en": "No such file or directory", "zh": "文件或文件夹不存在"},
    "phrase.system.permission": {"en": "Permission denied", "zh": "没有权限"},
    "phrase.system.not_permitted": {"en": "Operation not permitted", "zh": "不允许此操作"},
    "phrase.system.disk_full": {"en": "No space left on device", "zh": "磁盘空间已满"},
    "phrase.system.quota": {"en": "Disk quota exceeded", "zh": "超出了磁盘配额"},
    "phrase.system.read_only": {"en": "Read-only file system", "zh": "文件系统是只读的"},
    "phrase.system.is_folder": {"en": "Is a directory", "zh": "这是一个文件夹"},
    "phrase.system.not_folder": {"en": "Not a directory", "zh": "路径中有一部分不是文件夹"},
    "phrase.system.exists": {"en": "File exists", "zh": "文件已存在"},
    "phrase.system.io": {"en": "Input/output error", "zh": "输入/输出错误（磁盘或设备出错）"},
    "phrase.system.name_too_long": {"en": "File name too long", "zh": "文件名太长"},
    "phrase.system.link_loop": {"en": "Too many levels of symbolic links", "zh": "符号链接层级过多（可能是循环链接）"},
    "phrase.system.too_many_open": {"en": "Too many open files", "zh": "打开的文件太多"},
    "phrase.system.busy": {"en": "Device or resource busy", "zh": "设备或资源正忙"},
    "phrase.system.no_device": {"en": "No such device", "zh": "设备不存在（可能已被移除）"},
    "phrase.system.stale": {"en": "Stale file handle", "zh": "文件句柄已失效（网络共享可能已断开）"},
    "phrase.system.broken_pipe": {"en": "Broken pipe", "zh": "管道已断开"},
    "phrase.system.no_memory": {"en": "Cannot allocate memory", "zh": "内存不足"},
    # the network
    "phrase.system.refused": {"en": "Connection refused", "zh": "连接被拒绝"},
    "phrase.system.reset": {"en": "Connection reset by peer", "zh": "连接被对方重置"},
    "phrase.system.aborted": {"en": "Software caused connection abort", "zh": "连接被中止"},
    "phrase.system.network_unreachable": {"en": "Network is unreachable", "zh": "网络不可达"},
    "phrase.system.network_down": {"en": "Network is down", "zh": "网络已断开"},
    "phrase.system.host_unreachable": {"en": "No route to host", "zh": "无法到达该主机"},
    "phrase.system.address_unavailable": {"en": "Cannot assign requested address", "zh": "无法使用所请求的地址"},
    "phrase.system.timed_out": {"en": "timed out", "zh": "连接超时"},
    "phrase.system.no_such_host": {"en": "Name or service not known", "zh": "找不到该主机名"},
    "phrase.system.name_lookup_again": {"en": "Temporary failure in name resolution", "zh": "暂时无法解析主机名"},
    "phrase.system.name_lookup_failed": {"en": "Non-recoverable failure in name resolution", "zh": "主机名解析失败"},
    # certificates and TLS (https)
    "phrase.system.certificate_expired": {"en": "certificate has expired", "zh": "服务器的证书已过期"},
    "phrase.system.certificate_self_signed": {"en": "self-signed certificate", "zh": "服务器的证书是自签名的，不受信任"},
    "phrase.system.certificate_unknown_issuer": {"en": "unable to get local issuer certificate",
                                                 "zh": "服务器证书的签发者不受本机信任"},
    "phrase.system.certificate_wrong_host": {"en": "the certificate is not valid for this host name",
                                             "zh": "服务器的证书与此主机名不符"},
    "phrase.system.certificate_untrusted": {"en": "certificate verify failed", "zh": "服务器的证书未通过验证"},
    "phrase.system.not_tls": {"en": "the server does not speak https (SSL: wrong version number); try http://",
                              "zh": "服务器不支持 https（SSL 版本号错误）；请尝试 http://"},
    "phrase.system.tls_failed": {"en": "the secure connection (SSL) failed: {detail}",  # detail: OpenSSL's words
                                 "zh": "安全连接（SSL）失败：{detail}"},
    # SQLite's result codes (its own words in English)
    "phrase.system.not_a_database": {"en": "file is not a database", "zh": "文件不是数据库"},
    "phrase.system.database_corrupt": {"en": "database disk image is malformed", "zh": "数据库文件已损坏"},
    "phrase.system.database_unopenable": {"en": "unable to open database file", "zh": "无法打开数据库文件"},
    "phrase.system.database_locked": {"en": "database is locked", "zh": "数据库被另一个程序锁定"},
    # http.client's failures, by type
    "phrase.system.closed_without_reply": {"en": "Remote end closed connection without response",
                                           "zh": "服务器未作回复就关闭了连接"},
    "phrase.system.reply_cut_short": {"en": "the server's reply ended before it was complete",
                                      "zh": "服务器的回复在完整之前就中断了"},
    "phrase.system.reply_line_too_long": {"en": "a line of the server's reply is too long",
                                          "zh": "服务器回复中的某一行过长"},
    "phrase.system.not_http": {"en": "the server's reply is not HTTP", "zh": "服务器的回复不是 HTTP"},
    "phrase.system.bad_address": {"en": "the address is not a valid URL", "zh": "地址不是有效的 URL"},
    # PDFium's reasons for not opening a document (FPDF_ERR_*; its own words in English)
    "phrase.system.pdfium_unknown": {"en": "PDFium: Unknown error", "zh": "PDFium 未说明原因"},
    "phrase.system.pdfium_file": {"en": "PDFium: File access error", "zh": "PDFium 无法读取该文件"},
    "phrase.system.pdfium_security": {"en": "PDFium: Unsupported security scheme error",
                                      "zh": "PDFium 不支持该文件的加密方式"},
    "phrase.system.pdfium_page": {"en": "PDFium: Page not found or content error", "zh": "PDFium 找不到页面或页面内容有误"},
    # anything else: the system's own words, said to be its
    "phrase.system.other": {"en": "{detail}", "zh": "系统报告的错误：{detail}"},
    # an error of the system that names a file: its reason and the file (Python says "[Errno 13] Permission denied: …")
    "phrase.system.at_path": {"en": "{reason}: {path}", "zh": "{reason}：{path}"},
}
