"""The bottom of every table of texts in English and Chinese: the language the locale asks for, and the one
formatter that fills a text (a count's noun agreeing in English, a `Localised` value in the text's language).

Below the settings (`config`: its warnings) and the engine (`engine/messages.py` and its tables, which re-export
these), so each table is worded the same way whoever holds it.
"""

from __future__ import annotations

import abc
import os
import string
from collections.abc import Mapping

CLI, WINDOW = "cli", "window"  # the front ends that word a text their own way (`message`'s `front`)


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """"zh" or "en" as the POSIX locale variables say (the first set of LC_ALL, LC_MESSAGES, LANG: Chinese when it
    begins with "zh"), None when none is set. The CLI's language; the GUI's too when one is set (gui/i18n.py)."""
    environ = os.environ if environ is None else environ
    value = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), None)
    return None if value is None else "zh" if value.lower().startswith("zh") else "en"


def locale_language() -> str:
    """The language of a terminal's lines (the command line's, the demo's, the settings' warnings): the locale's
    (LANG=zh_CN.UTF-8 says Chinese), else English."""
    return environment_language() or "en"


class Localised(abc.ABC):
    """A value written in the language of the text it fills (`message` asks it for that language): a Phrase, a
    stored reason (`reasons.Reason`)."""

    @abc.abstractmethod
    def text(self, language: str, front: str = CLI) -> str:
        """This value in `language` ("en" or "zh"), worded for the front end `front` (CLI or WINDOW)."""

    def __str__(self) -> str:
        return self.text("en")


class Counted(string.Formatter):
    """str.format, and `{files:file|files}`: the number with the English noun that agrees with it ("1 file",
    "2 files"; a number given as text, such as "1,234", counts too). Chinese needs none."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" not in format_spec:
            return super().format_field(value, format_spec)
        one, many = format_spec.split("|", 1)
        return f"{value} {one if str(value).replace(',', '') == '1' else many}"


class _Lenient(Counted):
    """Fills a template whose number values may come as strings (a reason read from an old library's English
    text, `store.legacy_reasons`): a string's format spec is not applied, but for a count's noun."""

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, str) and "|" not in format_spec:
            return value
        return super().format_field(value, format_spec)


def worded(texts: Mapping[str, str], language: str = "en", front: str = CLI, /, **values: object) -> str:
    """One entry of a table of texts ({"en": ..., "zh": ...}, maybe "window.en"/"window.zh") in `language`, with
    `values` filled in (a count's noun agreeing, a `Localised` value in the same language): the engine's texts
    (`messages.message`), the command line's own lines (`cli/texts.py`), the settings' warnings
    (`config_texts.py`), the demo's lines (`selftest/texts.py`) and `platform_check`'s."""
    lang = "zh" if language == "zh" and "zh" in texts else "en"
    shown = {k: v.text(language, front) if isinstance(v, Localised) else v for k, v in values.items()}
    return _Lenient().format(texts.get(f"{front}.{lang}", texts[lang]), **shown)
