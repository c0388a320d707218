"""The language model (answer/llm.py, llm_errors.py), and a summary's cost (answer/summarising.py)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # the language model (answer/llm_errors.py, llm.py); {detail}: the server's own words
    "error.llm_auth": {"en": "The API key was rejected by {host} (HTTP {status}). Check the key in Settings or "
                             "OPENAI_API_KEY. Server said: {detail}",
                       "zh": "{host} 拒绝了 API 密钥（HTTP {status}）。请在“设置”中或 OPENAI_API_KEY 里检查密钥。服务器返回：{detail}"},
    "error.llm_model_not_found": {"en": "The model '{model}' was not found at {host} (HTTP {status}). Check the model "
                                        "name and the base URL in Settings. Server said: {detail}",
                                  "zh": "在 {host} 上找不到模型“{model}”（HTTP {status}）。请在“设置”中检查模型名称和基础地址。"
                                        "服务器返回：{detail}"},
    "error.llm_no_endpoint": {"en": "There is no chat endpoint at {url} (HTTP {status}). Check the base URL in "
                                    "Settings: an OpenAI-compatible address usually ends in /v1, without "
                                    "/chat/completions. Server said: {detail}",
                              "zh": "{url} 上没有对话接口（HTTP {status}）。请在“设置”中检查基础地址：兼容 OpenAI 的地址通常以 /v1 "
                                    "结尾，不含 /chat/completions。服务器返回：{detail}"},
    "error.llm_rate_limit": {"en": "{host} is rate-limiting requests (HTTP 429). Wait a minute and try again, or check "
                                   "your plan's quota. Server said: {detail}",
                             "zh": "{host} 正在限制请求频率（HTTP 429）。请等一分钟再试，或检查你的套餐额度。服务器返回：{detail}"},
    "error.llm_rate_limit_wait": {"en": "{host} is rate-limiting requests (HTTP 429) and asks to wait {seconds} s "
                                        "before the next one. Try again then, or check your plan's quota. Server said: "
                                        "{detail}",
                                  "zh": "{host} 正在限制请求频率（HTTP 429），要求等待 {seconds} 秒后再发下一个请求。请到时再试，或检查你的"
                                        "套餐额度。服务器返回：{detail}"},
    "error.llm_bad_request": {"en": "{host} rejected the request (HTTP {status}): {detail}",
                              "zh": "{host} 拒绝了请求（HTTP {status}）：{detail}"},
    "error.llm_server": {"en": "The model server {host} had an internal error (HTTP {status}). Try again later. Server "
                               "said: {detail}",
                         "zh": "模型服务器 {host} 发生内部错误（HTTP {status}）。请稍后再试。服务器返回：{detail}"},
    "error.llm_unavailable": {"en": "The model server {host} is unavailable right now (HTTP {status}): it, or a proxy "
                                    "in front of it, may be overloaded or restarting. Try again in a minute. Server "
                                    "said: {detail}",
                              "zh": "模型服务器 {host} 暂时不可用（HTTP {status}）：它或它前面的代理可能负载过高或正在重启。请一分钟后"
                                    "再试。服务器返回：{detail}"},
    "error.llm_timeout": {"en": "The model server {host} did not answer within {seconds} s. Try again; a slow local "
                                "model may need a longer timeout.",
                          "zh": "模型服务器 {host} 在 {seconds} 秒内没有响应。请重试；较慢的本地模型可能需要更长的超时时间。"},
    "error.llm_timeout_tries": {"en": "The model server {host} did not answer: {tries} tries of {seconds} s each, "
                                      "{waited} s in all. Try again; a slow local model may need a longer timeout.",
                                "zh": "模型服务器 {host} 没有响应：共尝试 {tries} 次，每次等待 {seconds} 秒，总计 {waited} 秒。"
                                      "请重试；较慢的本地模型可能需要更长的超时时间。"},
    "error.llm_unreachable": {"en": "Could not reach the model server at {url} ({reason}). Check the base URL and your "
                                    "network connection.",
                              "zh": "无法连接位于 {url} 的模型服务器（{reason}）。请检查基础地址和网络连接。"},
    "error.llm_unreachable_local": {"en": "Could not reach the model server at {url} ({reason}). Check the base URL "
                                          "and your network connection. Is the local server (Ollama / LM Studio) "
                                          "running?",
                                    "zh": "无法连接位于 {url} 的模型服务器（{reason}）。请检查基础地址和网络连接。本地服务器"
                                          "（Ollama / LM Studio）是否在运行？"},
    "error.llm_bad_scheme": {"en": "The model server's address {url} does not start with http:// or https://. Check "
                                   "the base URL in Settings.",
                             "zh": "模型服务器地址 {url} 不是以 http:// 或 https:// 开头。请在“设置”中检查基础地址。"},
    "error.llm_unexpected": {"en": "The model server {host} returned an unexpected reply: {detail}",
                             "zh": "模型服务器 {host} 返回了意外的回复：{detail}"},
    "error.llm_reply_too_large": {"en": "The model server {host} sent more than {megabytes} MB for one reply, far more "
                                        "than an answer: it was not read further. Check the base URL and the server.",
                                  "zh": "模型服务器 {host} 的一次回复超过了 {megabytes} MB，远多于一个回答，已停止读取。请检查基础地址和"
                                        "服务器。"},
    "error.llm_not_json": {"en": "The model server {host} sent a reply that is not JSON, as the OpenAI protocol "
                                 "requires: “{text}”",
                           "zh": "模型服务器 {host} 发送的回复不是 OpenAI 协议要求的 JSON：“{text}”"},
    "error.llm_not_an_answer": {"en": "The model server {host} replied with {what} content, not a model's answer. "
                                      "Check the base URL in Settings (an OpenAI-compatible address usually ends in "
                                      "/v1).",
                                "zh": "模型服务器 {host} 返回的是 {what} 内容，而不是模型的回答。请在“设置”中检查基础地址（兼容 "
                                      "OpenAI 的地址通常以 /v1 结尾）。"},
    "error.llm_cut": {"en": "The answer was cut off: {why} mid-answer. The partial answer is kept; ask again to get "
                            "the rest.",
                      "zh": "回答被中断：回答到一半时{why}。已保留部分回答；再问一次即可得到其余部分。"},
    "phrase.llm_dropped": {"en": "the connection to the model server dropped", "zh": "与模型服务器的连接断开了"},
    "phrase.llm_stopped": {"en": "the model server stopped sending", "zh": "模型服务器停止了发送"},
    "phrase.llm_reported": {"en": "the model server reported an error ({detail})", "zh": "模型服务器报告了错误（{detail}）"},
    "error.llm_no_key": {"en": "No API key is set for {host}. Add it in Settings or put OPENAI_API_KEY=... in the .env "
                               "file in the app's config folder.",
                         "zh": "没有为 {host} 设置 API 密钥。请在“设置”中添加，或在应用配置文件夹的 .env 文件中写入 "
                               "OPENAI_API_KEY=...。"},
    # the time allowed grows with the reply limit (`llm_config.reply_deadline`): a narrower question is no remedy
    "error.llm_cut_deadline": {"en": "The answer was cut off: the model at {host} took longer than {seconds} s, the "
                                     "most one reply may take. The partial answer is kept.",
                               "zh": "回答被中断：{host} 上的模型用时超过了 {seconds} 秒，即单次回复可用的最长时间。已保留部分回答。"},
    "error.llm_deadline": {"en": "The model at {host} took longer than {seconds} s, the most one reply may take, and "
                                 "did not finish. Try again later.",
                           "zh": "{host} 上的模型用时超过了 {seconds} 秒，即单次回复可用的最长时间，未能完成。请稍后再试。"},
    "error.llm_length": {"en": "The answer was stopped at {cap:,} characters, the limit for one answer. Ask a narrower "
                               "question to get the rest.",
                         "zh": "回答在 {cap:,} 个字符处停止（单个回答的上限）。把问题问得更具体即可得到其余部分。"},
    "error.llm_length_summary": {"en": "The summary was stopped at {cap:,} characters, the limit for one reply, so it "
                                       "may be incomplete.",
                                 "zh": "摘要在 {cap:,} 个字符处停止（单次回复的上限），可能不完整。"},
    # a reply cut at its max_tokens mid-answer: the setting to raise (Settings.max_reply_tokens), in the window as
    # the Settings dialog names it, as a cut inside the thinking does (below)
    "error.llm_token_limit": {
        "en": "The model stopped at its limit of {tokens:,} tokens for one reply, so the answer may be incomplete. "
              "Raise the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`), or "
              "ask a narrower question to get the rest.",
        "zh": "模型在单次回复 {tokens:,} 个 token 的上限处停止，回答可能不完整。请调高回复上限（settings.json 中的 "
              "`max_reply_tokens`，或环境变量 `DESKTOP_RAG_MAX_REPLY_TOKENS`），或把问题问得更具体以得到其余部分。",
        "window.en": "The model stopped at its limit of {tokens:,} tokens for one reply, so the answer may be "
                     "incomplete. Raise “Reply limit (tokens)” in Settings → Language model, or ask a narrower "
                     "question to get the rest.",
        "window.zh": "模型在单次回复 {tokens:,} 个 token 的上限处停止，回答可能不完整。请在“设置 → 语言模型”中调高"
                     "“单次回复上限（token）”，或把问题问得更具体以得到其余部分。"},
    # a summary's reply cut at its max_tokens after it began: the same setting; a narrower question is no way out
    "error.llm_token_limit_summary": {
        "en": "The model stopped at its limit of {tokens:,} tokens for one reply, so the summary may be incomplete. "
              "Raise the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`) and "
              "summarise again to get the rest.",
        "zh": "模型在单次回复 {tokens:,} 个 token 的上限处停止，摘要可能不完整。请调高回复上限（settings.json 中的 "
              "`max_reply_tokens`，或环境变量 `DESKTOP_RAG_MAX_REPLY_TOKENS`）后重新总结，以得到其余部分。",
        "window.en": "The model stopped at its limit of {tokens:,} tokens for one reply, so the summary may be "
                     "incomplete. Raise “Reply limit (tokens)” in Settings → Language model and summarise again to "
                     "get the rest.",
        "window.zh": "模型在单次回复 {tokens:,} 个 token 的上限处停止，摘要可能不完整。请在“设置 → 语言模型”中调高"
                     "“单次回复上限（token）”后重新总结，以得到其余部分。"},
    # a reply cut at its max_tokens before its model's thinking ended: the same setting, named the same way
    # (tests/gui/test_reply_limit_setting.py)
    "error.llm_token_limit_thinking": {
        "en": "The model spent its whole limit of {tokens:,} tokens for one reply reasoning and wrote no answer. Raise "
              "the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`), or ask a "
              "narrower question.",
        "zh": "模型把单次回复 {tokens:,} 个 token 的上限全部用在了推理上，没有写出回答。请调高回复上限（settings.json 中的 "
              "`max_reply_tokens`，或环境变量 `DESKTOP_RAG_MAX_REPLY_TOKENS`），或把问题问得更具体。",
        "window.en": "The model spent its whole limit of {tokens:,} tokens for one reply reasoning and wrote no "
                     "answer. Raise “Reply limit (tokens)” in Settings → Language model, or ask a narrower question.",
        "window.zh": "模型把单次回复 {tokens:,} 个 token 的上限全部用在了推理上，没有写出回答。请在“设置 → 语言模型”中调高"
                     "“单次回复上限（token）”，或把问题问得更具体。"},
    "error.llm_token_limit_thinking_summary": {
        "en": "The model spent its whole limit of {tokens:,} tokens for one reply reasoning and wrote no summary. "
              "Raise the reply limit (`max_reply_tokens` in settings.json, or `DESKTOP_RAG_MAX_REPLY_TOKENS`) and "
              "summarise again.",
        "zh": "模型把单次回复 {tokens:,} 个 token 的上限全部用在了推理上，没有写出摘要。请调高回复上限（settings.json 中的 "
              "`max_reply_tokens`，或环境变量 `DESKTOP_RAG_MAX_REPLY_TOKENS`）后重新总结。",
        "window.en": "The model spent its whole limit of {tokens:,} tokens for one reply reasoning and wrote no "
                     "summary. Raise “Reply limit (tokens)” in Settings → Language model and summarise again.",
        "window.zh": "模型把单次回复 {tokens:,} 个 token 的上限全部用在了推理上，没有写出摘要。请在“设置 → 语言模型”中调高"
                     "“单次回复上限（token）”后重新总结。"},
    # why no model is used (answer/llm_config.config_problem: returned, not raised; shown in Settings and notices)
    "error.no_model_configured": {"en": "No language model is configured. Choose a provider in Settings, or in the "
                                        ".env file in the app's config folder (OPENAI_API_KEY, OPENAI_BASE_URL, "
                                        "OPENAI_MODEL).",
                                  "zh": "未配置语言模型。请在“设置”中，或在应用配置文件夹的 .env 文件中选择服务商"
                                        "（OPENAI_API_KEY、OPENAI_BASE_URL、OPENAI_MODEL）。"},
    "error.no_server_address": {"en": "No server address is set for {label}. Set the base URL in Settings, or in the "
                                      ".env file in the app's config folder (OPENAI_BASE_URL).",
                                "zh": "没有为{label}设置服务器地址。请在“设置”中，或在应用配置文件夹的 .env 文件中设置基础地址"
                                      "（OPENAI_BASE_URL）。"},
    "error.no_model_name": {"en": "No model name is set for {label}. Set the model in Settings, or in the .env file in "
                                  "the app's config folder (OPENAI_MODEL).",
                            "zh": "没有为{label}设置模型名称。请在“设置”中，或在应用配置文件夹的 .env 文件中设置模型"
                                  "（OPENAI_MODEL）。"},
    "error.no_api_key_set": {"en": "No API key is set for {label}. Add your key in Settings, or in the .env file in "
                                   "the app's config folder (OPENAI_API_KEY).",
                             "zh": "没有为{label}设置 API 密钥。请在“设置”中，或在应用配置文件夹的 .env 文件中添加密钥"
                                   "（OPENAI_API_KEY）。"},
    "phrase.the_model_server": {"en": "the model server", "zh": "模型服务器"},
    # the providers (answer/llm_config.PRESETS: Preset.label), as these messages and Settings' list name them
    "provider.openai": {"en": "OpenAI", "zh": "OpenAI"},
    "provider.deepseek": {"en": "DeepSeek", "zh": "DeepSeek"},
    "provider.zhipu": {"en": "Zhipu GLM", "zh": "智谱 GLM"},
    "provider.ollama": {"en": "Ollama (local)", "zh": "Ollama（本地）"},
    "provider.lmstudio": {"en": "LM Studio (local)", "zh": "LM Studio（本地）"},
    "provider.custom": {"en": "Custom endpoint", "zh": "自定义接口"},
    # the Settings connection test's result (in the interface's language: LLMConfig.language)
    "note.connected": {"en": "Connected to {model} at {host} in {seconds} s; it said: {said}",
                       "zh": "已连接 {host} 上的 {model}，用时 {seconds} 秒；它回复：{said}"},
    "note.connected_empty": {"en": "Connected to {model} at {host} in {seconds} s; it said: (an empty reply)",
                             "zh": "已连接 {host} 上的 {model}，用时 {seconds} 秒；它的回复为空"},
    # a summary over Settings.summary_request_limit, not confirmed (issue 49): nothing was sent
    "error.summary_over_limit": {"en": "Summarising “{name}” takes {requests} requests to the model "
                                       "({sections:section|sections}, about {tokens:,} tokens), more than the {limit} "
                                       "a summary may make without being confirmed (the setting "
                                       "summary_request_limit). Nothing was sent.",
                                 "zh": "总结“{name}”需要向模型发送 {requests} 次请求（{sections} 个部分，约 {tokens:,} 个 "
                                       "token），超过了未经确认时一次总结最多可发送的 {limit} 次（设置项 "
                                       "summary_request_limit）。尚未发送任何内容。"},
    "error.summary_confirm_yes": {"en": "{cost} Add --yes to go ahead.", "zh": "{cost}加上 --yes 即可继续。"},
    "error.summary_confirm_cost": {"en": "{cost} Call the tool again with confirm_cost set to true to go ahead.",
                                   "zh": "{cost}将 confirm_cost 设为 true 再次调用该工具即可继续。"},
}
