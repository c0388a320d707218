"""The settings' warnings in English and Chinese: one table, said on stderr in the locale's language (`config._warn`;
the log keeps the English). A value quoted here comes from the settings file or the environment: shown as `repr`,
at most 80 characters."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "settings.warning": {"en": "warning: {why}", "zh": "警告：{why}"},
    # {value}, {default}: Python literals ('abc', 5); {file}: the settings file's name
    "settings.bad_value": {
        "en": "the setting '{name}' in {file} has an unusable value {value}; using the default {default}",
        "zh": "设置文件 {file} 中设置项“{name}”的值 {value} 无法使用，已改用默认值 {default}；请在“设置”中改正，或修改该文件",
    },
    "settings.bad_environment": {  # {env}: the variable's name (DESKTOP_RAG_TOP_K), set in the shell or in .env
        "en": "the setting '{name}' in the environment variable {env} has an unusable value {value}; using the "
              "default {default}",
        "zh": "环境变量 {env}（设置项“{name}”）的值 {value} 无法使用，已改用默认值 {default}；请改正或删除这个变量"
              "（在命令行环境中，或在配置文件夹的 .env 文件中）",
    },
    "settings.unreadable": {  # {detail}: the system's words (Permission denied)
        "en": "{path} could not be read ({detail}); using the default settings",
        "zh": "无法读取设置文件 {path}（系统报告的错误：{detail}），已改用默认设置",
    },
    "settings.not_json": {
        "en": "{path} is not valid JSON (line {line}, column {column}); using the default settings",
        "zh": "设置文件 {path} 不是有效的 JSON（第 {line} 行第 {column} 列有误），已改用默认设置；请改正或删除该文件",
    },
    "settings.not_text": {
        "en": "{path} is not UTF-8 text; using the default settings",
        "zh": "设置文件 {path} 不是 UTF-8 文本，已改用默认设置；请删除该文件，或把它另存为 UTF-8",
    },
    "settings.too_deep": {
        "en": "{path} is nested too deeply to be a settings file; using the default settings",
        "zh": "设置文件 {path} 的嵌套层级太深，不可能是设置文件，已改用默认设置；请改正或删除该文件",
    },
    "settings.not_object": {
        "en": "{path} is not a JSON object of settings; using the default settings",
        "zh": "设置文件 {path} 不是由设置项组成的 JSON 对象，已改用默认设置；请改正或删除该文件",
    },
    "settings.overlap": {
        "en": "the setting 'chunk_overlap' is not smaller than 'chunk_size'; using no overlap",
        "zh": "设置项“chunk_overlap”不小于“chunk_size”，已改为片段之间不重叠",
    },
}
