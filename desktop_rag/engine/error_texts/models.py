"""Embedding models and their folders (models/, models/embedders/), and model downloads (models/download.py,
hub_http.py, hub_listing.py)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "error.cli_unknown_model": {"en": "Unknown model {name}: use a name from `desktop-rag models` or an org/name repo id.",
                                "zh": "未知的模型 {name}：请使用 `desktop-rag models` 列出的名称，或 org/name 形式的仓库 ID。"},
    # embedding models (models/)
    "error.native_panic": {"en": "{what} failed inside a native library ({detail}).",  # {what}: a phrase or a name
                           "zh": "{what}在原生库（程序中不是用 Python 写的部分）内部失败，已中止。这通常由模型的文件（例如"
                                 "分词器）或某个文档的内容引起：请在“设置”中换用其他嵌入模型或改回内置的默认模型；如果只在某个"
                                 "文件上出现，请把它移出资料库（{detail}）。"},
    "error.bundled_model_failed": {"en": "The bundled multilingual model could not be loaded on this computer "
                                         "({detail}). Choose another embedding model in Settings.",
                                   "zh": "无法在这台电脑上加载内置的多语言模型。请在“设置”中选择其他嵌入模型（{detail}）。"},
    "error.api_model_form": {"en": "An endpoint embedding model is written api:MODEL@BASE_URL (e.g. "
                                   "api:bge-m3@http://localhost:11434/v1), not {model}.",
                             "zh": "服务端嵌入模型的写法是 api:模型@基础地址（例如 api:bge-m3@http://localhost:11434/v1），"
                                   "而不是 {model}。"},
    "error.endpoint_unreachable": {"en": "The embedding endpoint {url} could not be reached: {detail}",
                                   "zh": "无法连接嵌入服务 {url}：{detail}"},
    "error.endpoint_key": {"en": "{problem}", "zh": "{problem}"},  # {problem}: llm_config.key_reason's
    "error.endpoint_refused": {"en": "The embedding endpoint {url} refused the request (HTTP {status}); check the model "
                                     "name {model} and the key.",
                               "zh": "嵌入服务 {url} 拒绝了请求（HTTP {status}）；请检查模型名称 {model} 和密钥。"},
    "error.endpoint_count": {"en": "The embedding endpoint returned {got:vector|vectors} for {sent:text|texts}.",
                             "zh": "嵌入服务为 {sent} 段文字返回了 {got} 个向量。"},
    "error.endpoint_malformed": {"en": "The embedding endpoint returned malformed vectors.",
                                 "zh": "嵌入服务返回的向量格式不正确。"},
    "error.endpoint_dimension": {"en": "The embedding endpoint changed dimension ({before} -> {now}); vectors of two "
                                       "models are never mixed: re-embed the library.",
                                 "zh": "嵌入服务的向量维度变了（{before} -> {now}）；两种模型的向量不能混用：请重新嵌入资料库。"},
    "error.pickle_only": {"en": "{model} has its weights only as PyTorch pickle files (pytorch_model.bin, .pt, .pth, "
                                ".ckpt), which can run code on this computer when they are loaded; this app loads "
                                "safetensors weights only. Choose another model (most have model.safetensors), or "
                                "convert this one to safetensors.",
                          "zh": "{model} 的权重只有 PyTorch pickle 文件（pytorch_model.bin、.pt、.pth、.ckpt），加载时可能在"
                                "这台电脑上执行代码；本应用只加载 safetensors 权重。请选择其他模型（大多数模型都有 "
                                "model.safetensors），或把此模型转换为 safetensors。"},
    "error.model_load_failed": {"en": "Could not load the embedding model {model}: {detail}. Pick a model folder on this "
                                      "computer in Settings, or go back to the bundled default.",
                                "zh": "无法加载嵌入模型 {model}。请在“设置”中选择这台电脑上的模型文件夹，或改回内置的默认模型"
                                      "（{detail}）。"},
    "error.bad_repo_id": {"en": "“{repo_id}” is not a model name of the form organisation/name.",
                          "zh": "“{repo_id}”不是“组织/名称”形式的模型名称。"},
    "error.bad_hub_address": {"en": "The hub address “{endpoint}” is not an http(s) URL such as {default}.",
                              "zh": "模型仓库地址“{endpoint}”不是 http(s) 网址（例如 {default}）。"},
    "error.tokenizer_too_large": {"en": "The embedding model's tokenizer {path} ({mb} MB) is larger than any real one "
                                        "({limit} MB); it is not loaded.",
                                  "zh": "嵌入模型的分词器 {path}（{mb} MB）比任何真实的分词器都大（{limit} MB），未被加载。"},
    "error.tokenizer_unreadable": {"en": "The embedding model's tokenizer {path} cannot be read: {detail}. Download the "
                                         "model again, or choose another one in Settings.",
                                   "zh": "无法读取嵌入模型的分词器 {path}：文件已损坏或不完整。请重新下载该模型，或在“设置”中选择"
                                         "其他模型（{detail}）。"},
    "error.tokenizer_pattern": {"en": "The embedding model's tokenizer {path} uses a regular expression this app does "
                                      "not run ({pattern}): an unknown pattern can hang or crash the tokenizer. Choose "
                                      "another model in Settings, or go back to the bundled default.",
                                "zh": "嵌入模型的分词器 {path} 使用了本应用不会运行的正则表达式（{pattern}）：未知的表达式可能"
                                      "让分词器卡死或崩溃。请在“设置”中选择其他模型，或改回内置的默认模型。"},
    "error.model_folder_unloadable": {"en": "The embedding model in {folder} cannot be loaded: {detail}. Download the "
                                            "model again, or choose another one in Settings.",
                                      "zh": "无法加载 {folder} 中的嵌入模型：它的文件不完整，或不是本应用能读取的模型。请重新下载"
                                            "该模型，或在“设置”中选择其他模型（{detail}）。"},
    "error.model_weights_missing": {"en": "The embedding model in {folder} does not hold the weights its config.json "
                                          "declares ({wrong} of {total}, e.g. {example}); it is not loaded, so nothing "
                                          "runs with made-up weights. Download the model again, or choose another one.",
                                    "zh": "{folder} 中的嵌入模型没有 config.json 所声明的权重（{total} 个中有 {wrong} 个，例如 "
                                          "{example}）；为了不用虚构的权重运行，它未被加载。请重新下载模型，或选择其他模型。"},
    "error.model_custom_code": {"en": "The embedding model in {folder} needs its own Python code to load (config.json's "
                                      "auto_map); this app never runs code from a model folder. Choose another model "
                                      "in Settings, or go back to the bundled default.",
                                "zh": "{folder} 中的嵌入模型需要运行它自带的 Python 代码才能加载（config.json 的 auto_map）；"
                                      "本应用从不运行模型文件夹中的代码。请在“设置”中选择其他模型，或改回内置的默认模型。"},
    "phrase.loading_model": {"en": "Loading the embedding model {model}", "zh": "加载嵌入模型 {model}"},
    "phrase.the_model": {"en": "The embedding model {model}", "zh": "嵌入模型 {model}"},
    "phrase.the_tokenizer": {"en": "The embedding model {model}'s tokenizer", "zh": "嵌入模型 {model} 的分词器"},
    # model downloads (models/download.py, hub_http.py, hub_listing.py)
    "error.download_cancelled": {"en": "Download of {repo_id} cancelled. Starting it again resumes where it stopped.",
                                 "zh": "已取消下载 {repo_id}。再次开始时会从停止处继续。"},
    "error.bad_revision": {"en": "“{revision}” is not a valid revision.", "zh": "“{revision}”不是有效的版本。"},
    "error.connection_failed": {"en": "The connection to {endpoint} failed ({detail}). Try again; the download resumes.",
                                "zh": "与 {endpoint} 的连接失败（{detail}）。请重试，下载会继续。"},
    "error.not_a_hub": {"en": "{endpoint} did not answer like a model hub (no JSON file listing). Check the hub address "
                              "in Settings.",
                        "zh": "{endpoint} 的回应不像模型仓库（没有 JSON 文件列表）。请在“设置”中检查仓库地址。"},
    "error.no_weights": {"en": "{repo_id} has no model weights in a format this app reads (safetensors); choose another "
                               "model.",
                         "zh": "{repo_id} 没有本应用可读取格式（safetensors）的模型权重；请选择其他模型。"},
    "error.model_too_large": {"en": "{repo_id} is larger than {gb} GB; refused.", "zh": "{repo_id} 超过 {gb} GB，已拒绝。"},
    "error.no_revision": {"en": "{repo_id} has no such revision on {endpoint}.", "zh": "{endpoint} 上的 {repo_id} 没有这个版本。"},
    "error.not_on_hub": {"en": "{what} was not found on {endpoint}. Check the name; private repositories cannot be "
                               "downloaded here.",
                         "zh": "在 {endpoint} 上找不到 {what}。请检查名称；这里无法下载私有仓库。"},
    "error.hub_rate_limit": {"en": "{endpoint} is limiting requests (HTTP 429). Wait a few minutes and try again.",
                             "zh": "{endpoint} 正在限制请求（HTTP 429）。请等几分钟再试。"},
    "error.hub_no_resume": {"en": "{endpoint} refused to resume “{path}” (HTTP 416).",
                            "zh": "{endpoint} 拒绝继续下载“{path}”（HTTP 416）。"},
    "error.hub_http": {"en": "{endpoint} answered HTTP {status} for {what}. Try again later, or another hub.",
                       "zh": "{endpoint} 对 {what} 返回了 HTTP {status}。请稍后再试，或换一个模型仓库。"},
    "error.gated": {"en": "{repo_id} is gated on {endpoint}: its licence must be accepted while signed in. Choose another "
                          "model, or download it yourself and pick its folder with Folder….",
                    "zh": "{repo_id} 在 {endpoint} 上受访问限制：需要登录并接受其许可。请选择其他模型，或自行下载后用"
                          "“文件夹…”选择其文件夹。"},
    "error.download_disk_full": {"en": "The disk is full. Free some space and try again; the download resumes.",
                                 "zh": "磁盘已满。请释放一些空间后重试，下载会继续。"},
    "error.hub_timeout": {"en": "{endpoint} stopped answering (timed out). Check the connection, or choose a mirror "
                                "such as {mirror} as the hub address.",
                          "zh": "{endpoint} 停止了响应（超时）。请检查网络连接，或选择镜像（例如 {mirror}）作为仓库地址。"},
    "error.hub_unreachable": {"en": "Cannot reach {endpoint} ({detail}). Check the internet connection, or choose a "
                                    "mirror such as {mirror} as the hub address.",
                              "zh": "无法连接 {endpoint}（{detail}）。请检查网络连接，或选择镜像（例如 {mirror}）作为仓库地址。"},
    "error.download_failed": {"en": "The download failed: {detail}", "zh": "下载失败：{detail}"},
    "error.download_no_space": {"en": "Not enough disk space: the model needs {need} MB more, {free} MB are free in "
                                      "{where}.",
                                "zh": "磁盘空间不足：模型还需要 {need} MB，{where} 中只有 {free} MB 可用。"},
    "error.outside_folder": {"en": "“{path}” would be written outside the model folder; refused.",
                             "zh": "“{path}”会被写到模型文件夹之外，已拒绝。"},
    "error.bad_resume": {"en": "The hub resumed “{path}” at the wrong place; try again.",
                         "zh": "模型仓库从错误的位置继续传输“{path}”；请重试。"},
    "error.larger_than_listed": {"en": "“{path}” is larger than the hub's listing says; refused.",
                                 "zh": "“{path}”比模型仓库列表中所说的大，已拒绝。"},
    "error.checksum": {"en": "“{path}” did not match the hub's checksum and was deleted. Try again; if it happens again, "
                             "try another hub address.",
                       "zh": "“{path}”与模型仓库的校验和不符，已删除。请重试；如果再次发生，请换一个仓库地址。"},
    "error.bad_redirect": {"en": "The hub redirected to a non-HTTPS or non-HTTP address; refused.",
                           "zh": "模型仓库重定向到了非 HTTP(S) 地址，已拒绝。"},
    "error.too_many_redirects": {"en": "The hub redirected too many times.", "zh": "模型仓库重定向次数过多。"},
    "error.answer_too_large": {"en": "The hub's answer is larger than expected; refused.",
                               "zh": "模型仓库的回应比预期的大，已拒绝。"},
    "error.invalid_file_name": {"en": "The hub listed an invalid file name: {name}", "zh": "模型仓库列出了无效的文件名：{name}"},
    "error.unsafe_file_name": {"en": "The hub listed an unsafe file name ({name}); download refused.",
                               "zh": "模型仓库列出了不安全的文件名（{name}），已拒绝下载。"},
    "error.not_a_listing": {"en": "The hub's answer is not a model file listing.", "zh": "模型仓库的回应不是模型文件列表。"},
    "error.too_many_files": {"en": "The repository lists {n} files; refusing more than {limit}.",
                             "zh": "该仓库列出了 {n} 个文件；超过 {limit} 个的一律拒绝。"},
    "error.listing_malformed": {"en": "The hub's file listing is malformed.", "zh": "模型仓库的文件列表格式不正确。"},
    "error.listed_twice": {"en": "The hub listed “{path}” twice; download refused.",
                           "zh": "模型仓库把“{path}”列了两次，已拒绝下载。"},
    "error.no_sha256": {"en": "The hub sent no valid sha256 for “{path}”.", "zh": "模型仓库没有为“{path}”提供有效的 sha256。"},
    "error.no_size": {"en": "The hub sent no valid size for “{path}”.", "zh": "模型仓库没有为“{path}”提供有效的大小。"},
    "error.file_too_large_hub": {"en": "“{path}” is {gb} GB; refusing files over {limit} GB.",
                                 "zh": "“{path}”有 {gb} GB；超过 {limit} GB 的文件一律拒绝。"},
    "phrase.file_of": {"en": "“{path}” of {repo_id}", "zh": "{repo_id} 的“{path}”"},
}
