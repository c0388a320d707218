"""Every sentence the engine writes for a person, in English and Chinese: one table.

The GUI's own texts are in `gui/i18n_tables/`; these are the ones the engine itself produces (answers and notices,
which follow the question's language, and the model catalog's descriptions, which follow the interface's).

A text is written for the command line (and the MCP server): "en" and "zh". Where that one tells a person to run a
command or pass a flag, the window has its own wording (what to click) as "window.en" and "window.zh", chosen by
`message(key, language, WINDOW)`.
"""

from __future__ import annotations

import functools
import string

from desktop_rag.engine.error_texts import ERROR_TEXTS
# the bottom of every table (the locale's language, the formatter): the engine takes it from here
from desktop_rag.wording import (  # noqa: F401
    CLI, WINDOW, Counted, Localised, environment_language, locale_language, worded)

TEXTS: dict[str, dict[str, str]] = {
    **ERROR_TEXTS,  # errors raised to a front end: "error.<code>" (errors.py) and the phrases they quote
    # what a folder scan skipped ({n} files; {types}: "8 .key, 4 .pages")
    "skipped_types": {"en": "{n} skipped: {types}, not supported", "zh": "跳过 {n} 个文件：{types}，不支持这些类型"},
    "skipped_type": {"en": "{count} {suffix}", "zh": "{count} 个 {suffix}"},
    "skipped_more": {"en": "{count} other", "zh": "其他 {count} 个"},
    # links inside a source leading outside it ({links}: "2 links"), skipped: never followed (ingest/scanning.py)
    "skipped_links": {"en": "{links} to outside the chosen folders skipped: links are not followed",
                      "zh": "跳过 {links}（指向所选文件夹之外）：链接不会被跟随"},
    # a count of things: "{n:one|many}" agrees in English (`Counted`); Chinese has one form
    "count.sources": {"en": "{n:source|sources}", "zh": "{n} 个来源"},
    "count.files": {"en": "{n:file|files}", "zh": "{n} 个文件"},
    "count.chunks": {"en": "{n:chunk|chunks}", "zh": "{n} 个片段"},
    "count.new_chunks": {"en": "{n:new chunk|new chunks}", "zh": "{n} 个新片段"},
    "count.kept_vectors": {"en": "{n:kept its vector|kept their vectors}", "zh": "{n} 个片段沿用原有向量"},
    "count.passages": {"en": "{n:passage|passages}", "zh": "{n} 个段落"},
    "count.vectors": {"en": "{n:vector|vectors}", "zh": "{n} 个向量"},
    "count.documents": {"en": "{n:document|documents}", "zh": "{n} 个文档"},
    "count.collections": {"en": "{n:collection|collections}", "zh": "{n} 个知识库"},
    "count.links": {"en": "{n:link|links}", "zh": "{n} 个链接"},
    "count.attachments": {"en": "{n:e-mail attachment|e-mail attachments}", "zh": "{n} 个邮件附件"},
    "count.sections": {"en": "{n:section|sections}", "zh": "{n} 个部分"},
    "count.questions": {"en": "{n:question|questions}", "zh": "{n} 个问题"},
    # answers
    "nothing_found": {
        "en": "I couldn't find anything relevant to this question in your library.",
        "zh": "在你的资料库中没有找到与这个问题相关的内容。",
    },
    "no_answer_in_documents": {
        "en": "The documents don't seem to contain the answer to this question.",
        "zh": "文档中似乎没有这个问题的答案。",
    },
    "notice.stopped": {"en": "Stopped.", "zh": "已停止。"},  # an answer or summary stopped (`events.STOPPED`)
    # an answer stopped while its model was still thinking (`events.STOPPED_THINKING`): no answer was written yet
    "notice.stopped_thinking": {"en": "Stopped before the model finished thinking: it had not begun the answer.",
                                "zh": "已停止：模型还在思考，尚未开始作答。"},
    # a reply cut at the client's cap on characters before its model's thinking ended (events.cut_at_limit)
    "cut_thinking_answer": {
        "en": "The reply reached its size limit before the model finished thinking, so it wrote no answer. Ask "
              "again, or ask a narrower question.",
        "zh": "回复在模型想完之前就达到了长度上限，因此没有写出回答。请再问一次，或把问题问得更具体。",
    },
    "cut_thinking_summary": {  # the same, of a summary's reply
        "en": "The reply reached its size limit before the model finished thinking, so it wrote no summary. "
              "Summarise again.",
        "zh": "回复在模型想完之前就达到了长度上限，因此没有写出摘要。请重新总结。",
    },
    "empty_model_answer": {
        "en": "The model returned an empty answer. Try asking again or rephrasing.",
        "zh": "模型返回了空的回答。请再问一次，或换个说法。",
    },
    "thought_no_answer": {  # a whole reply of thinking only (answer/reasoning.py), no word of answer after it
        "en": "The model only thought and gave no answer. Try asking again or rephrasing.",
        "zh": "模型只进行了思考，没有给出回答。请再问一次，或换个说法。",
    },
    "extractive_notice": {
        "en": "No language model is configured: this answer quotes the most relevant sentences from your "
              "documents. Choose a provider in Settings for written answers.",
        "zh": "未配置语言模型：本回答摘录了文档中最相关的句子。在“设置”中选择模型即可获得完整的回答。",
    },
    "extractive_notice_problem": {  # {problem}: why the configured model is not used (config_problem, English;
        # a Chinese question gets "extractive_notice")
        "en": "This answer quotes the most relevant sentences from your documents. {problem}",
    },
    # summaries of one document (answer/summarising.py; issue 40)
    "summary_extractive": {
        "en": "Extractive summary: no language model is configured, so these are the document's most central "
              "sentences, in reading order. Choose a provider in Settings for a written summary.",
        "zh": "摘录式摘要：未配置语言模型，以下是文档中最核心的句子，按原文顺序排列。在“设置”中选择模型即可获得写成的摘要。",
    },
    "summary_partial": {  # {shown}, {total}: sections
        "en": "This summary covers the first {shown} of the document's {total} sections (the rest did not fit the "
              "summary budget).",
        "zh": "本摘要只涵盖文档 {total} 个部分中的前 {shown} 个（其余部分超出了摘要预算）。",
    },
    "summary_sections_cut": {  # {cut}, {total}: sections; {tokens}: the limit of one section's reply
        "en": "The model stopped at its limit of {tokens:,} tokens for one reply while summarising {cut} of the "
              "document's {total} sections, so the summary may leave something out. It is not kept: Regenerate "
              "asks again.",
        "zh": "模型在总结文档 {total} 个部分中的 {cut} 个时停在了单次回复 {tokens:,} 个 token 的上限处，摘要可能有遗漏。"
              "此摘要不会保存：点“重新生成”可再次请求。",
    },
    # settings the engine checks (in the interface's language)
    "api_key_unsendable": {  # {what}: one of the api_key_char_* texts; {position}: 1-based, in the key as typed
        "en": "The API key has {what} at position {position}, which cannot be sent to a model server (an HTTP "
              "header takes only plain ASCII letters, digits and signs). {fix}",
        "zh": "API 密钥的第 {position} 个字符是{what}，无法发送给模型服务器（HTTP 请求头只能包含 ASCII 字母、数字和符号）。"
              "{fix}",
    },
    "llm_plain_http": {  # {host}: host[:port] of the model server
        "en": "warning: the model server {host} is reached over plain http://, so your API key, your questions and "
              "the passages sent with them travel unencrypted and can be read or changed on the way. Use an "
              "https:// address for servers on other machines.",
        "zh": "警告：模型服务器 {host} 通过明文 http:// 连接，你的 API 密钥、问题以及随问题发送的段落都未经加密传输，途中可能"
              "被读取或篡改。其他机器上的服务器请使用 https:// 地址。",
    },
    "llm_userinfo_dropped": {
        "en": "The model server's address has a user name or password in it (user:password@). It is not sent: the "
              "API key is. Remove it from the address (Settings, or OPENAI_BASE_URL).",
        "zh": "模型服务器地址中含有用户名或密码（user:password@）。它不会被发送，发送的是 API 密钥。请从地址中删去（在“设置”中，"
              "或 OPENAI_BASE_URL）。",
    },
    "api_key_space": {  # {position}: 1-based
        "en": "The API key has a space at position {position}, and no API key holds one (it may have been pasted in "
              "two pieces, or with other words). {fix}",
        "zh": "API 密钥的第 {position} 个字符是空格，而 API 密钥中不会有空格（可能分成两段粘贴，或连同其他文字一起粘贴了）。{fix}",
    },
    "api_key_fix.chat": {  # {fix} of the api_key_* texts: the model server's key
        "en": "Type or paste the key again in Settings (API key), or fix OPENAI_API_KEY in the .env file in the "
              "app's config folder.",
        "zh": "请在“设置”的“API 密钥”中重新输入或粘贴密钥，或修改应用配置文件夹中 .env 文件里的 OPENAI_API_KEY。",
    },
    "api_key_fix.embedding": {  # the embedding server's key (an api: embedding model)
        "en": "Fix DESKTOP_RAG_EMBEDDING_API_KEY in the environment or in the .env file in the app's config folder.",
        "zh": "请修改环境变量或应用配置文件夹中 .env 文件里的 DESKTOP_RAG_EMBEDDING_API_KEY。",
    },
    "api_key_char_control": {"en": "a control character ({code})", "zh": "控制字符（{code}）"},
    "api_key_char_invisible": {"en": "an invisible character ({code})", "zh": "不可见字符（{code}）"},
    "api_key_char_other": {"en": "the non-ASCII character “{char}” ({code})",
                           "zh": "非 ASCII 字符“{char}”（{code}）"},
    # the model catalog (models/catalog.py): model.<key>.summary and model.<key>.languages
    "model.speed_note": {
        "en": "approximate chunks/s on ~500-character chunks on 2 CPU cores (sentence-transformers, float32), "
              "English / Chinese, relative to the bundled model's 40 / 27",
        "zh": "在 2 个 CPU 核心上处理约 500 字符片段时的大致速度（每秒片段数；sentence-transformers，float32），"
              "英文 / 中文，可与内置模型的 40 / 27 对比",
    },
    "model.multilingual-e5-small.summary": {
        "en": "Small and multilingual: a Chinese question finds English passages and the reverse.",
        "zh": "小巧的多语言模型：中文问题能找到英文段落，反之亦然。",
    },
    "model.multilingual-e5-small.languages": {"en": "~100 languages (incl. zh, en)", "zh": "约 100 种语言（含中、英）"},
    "model.bge-small-zh-v1.5.summary": {
        "en": "Small and fast, for Chinese libraries; weak across languages.",
        "zh": "小而快，适合中文资料库；跨语言检索较弱。",
    },
    "model.bge-small-zh-v1.5.languages": {"en": "Chinese", "zh": "中文"},
    "model.bge-m3.summary": {
        "en": "Best multilingual quality, but large (2.3 GB) and slow on a laptop CPU.",
        "zh": "多语言效果最好，但体积大（2.3 GB），在笔记本 CPU 上较慢。",
    },
    "model.bge-m3.languages": {"en": "100+ languages (incl. zh, en)", "zh": "100 多种语言（含中、英）"},
    "model.paraphrase-multilingual-MiniLM-L12-v2.summary": {
        "en": "Multilingual and fairly fast; reads only the first ~128 tokens of a chunk.",
        "zh": "多语言且较快；每个片段只读取前约 128 个词元。",
    },
    "model.paraphrase-multilingual-MiniLM-L12-v2.languages": {
        "en": "50+ languages (incl. zh, en)", "zh": "50 多种语言（含中、英）",
    },
}


def skipped_summary(skipped: tuple[tuple[str, int], ...] | dict[str, int], language: str = "en",
                    most: int = 5) -> str:
    """ "12 skipped: 8 .key, 4 .pages, not supported" (the `most` commonest types named), or "" for none."""
    items = list(dict(skipped).items())
    if not items:
        return ""
    named = [message("skipped_type", language, count=n, suffix=s) for s, n in items[:most]]
    if rest := sum(n for _, n in items[most:]):
        named.append(message("skipped_more", language, count=rest))
    joiner = "、" if language == "zh" else ", "
    return message("skipped_types", language, n=sum(n for _, n in items), types=joiner.join(named))


def skipped_links(count: int, language: str = "en") -> str:
    """ "2 links to outside the chosen folders skipped: links are not followed", or "" for none."""
    return message("skipped_links", language, links=counted(language, links=count)) if count else ""


class Phrase(Localised):
    """A text of the table used as a value of another, written in the language of the text it fills:
    `ArchiveError.coded("not_archive", name=name, why=Phrase("phrase.archive.no_manifest"))`; also one part of a
    stored reason (`reasons.Reason`: a note such as `Phrase("note.pdf_recovered", n=2)`)."""

    def __init__(self, key: str, /, **values: object) -> None:
        TEXTS[key]  # noqa: B018 - an unknown key fails here, where it is written
        self.key, self.values = key, values

    def text(self, language: str, front: str = CLI) -> str:
        return message(self.key, language, front, **self.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Phrase({self.key!r}, **{self.values!r})"


@functools.lru_cache(maxsize=1024)
def template_fields(key: str) -> frozenset[str]:
    """The names of the values the text `key` takes (in English; the Chinese text takes the same ones)."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(TEXTS[key]["en"]) if field)


def message(key: str, language: str = "en", front: str = CLI, /, **values: object) -> str:
    """The text for `key` in `language` ("en" or "zh"; anything else is English) as the front end `front` words it
    (the window's own wording where the text has one), with `values` filled in."""
    return worded(TEXTS[key], language, front, **values)


def counted(language: str = "en", /, **numbers: int) -> str:
    """ "1 file, 3 chunks" (`counted(files=1, chunks=3)`), "1 个文件，3 个片段": each count with its noun (a
    "count.<noun>" text) in `language`, in the order given."""
    joiner = "，" if language == "zh" else ", "
    return joiner.join(message(f"count.{noun}", language, n=n) for noun, n in numbers.items())

