"""The interface's language: the lookup of its texts (English / Simplified Chinese, the tables of gui/i18n_tables/) with
live re-translation."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from desktop_rag.engine import (
    DEFAULT_COLLECTION,
    READERS,
    WINDOW,
    Counted,
    Localised,
    environment_language,
    error_text,
)
from desktop_rag.gui.i18n_tables import TABLES

# every area's table in one lookup (no key is in two: tests/gui/test_i18n_tables.py)
_TEXT: dict[str, tuple[str, str]] = {key: texts for table in TABLES for key, texts in table.items()}

# Qt's own words on the standard buttons of the app's dialogs and message boxes, by (context, source text)
_QT_TEXTS = {("QPlatformTheme", "OK"): "button.ok", ("QPlatformTheme", "Cancel"): "button.cancel",
             ("QPlatformTheme", "Close"): "button.close", ("QPlatformTheme", "&Yes"): "button.yes",
             ("QPlatformTheme", "&No"): "button.no"}

_language = "en"
_qt_texts: QtTexts | None = None
_bindings: list[tuple[weakref.ref, Callable[[object, str], None], str, dict]] = []
_listeners: list[weakref.WeakMethod] = []


def system_language() -> str:
    """'zh' when the system's language is Chinese, else 'en': the CLI's rule (LC_ALL, LC_MESSAGES or LANG) when one
    of those is set, else the system locale Qt reads (Windows' and macOS' own setting)."""
    return environment_language() or ("zh" if QLocale.system().language() == QLocale.Language.Chinese else "en")


def resolve_language(setting: str) -> str:
    """The UI language for a Settings.ui_language value ('auto', 'en', 'zh')."""
    return setting if setting in ("en", "zh") else system_language()


def language() -> str:
    return _language


def error(failure: BaseException | Localised | str) -> str:
    """What the interface shows for a failure in its language: an engine error, or its Reason (a failed file's, an
    answer's), through the engine's message table in the window's wording (what to click, not a command); other
    text as it is; the class name of an exception without a message."""
    return (error_text(failure, _language, WINDOW)
            or (failure.__class__.__name__ if isinstance(failure, BaseException) else ""))


def engine_text(text: Localised | str) -> str:
    """An engine's coded text (an answer's STOPPED notice) in the interface's language; plain text as it is."""
    return error_text(text, _language, WINDOW)


def type_name(name: str) -> str:
    """How the type filter names a reader of the registry (its type name, e.g. "docx"), in the current language."""
    reader = next(r for r in READERS if r.name == name)
    return reader.label_zh if _language == "zh" else reader.label


def collection_name(name: str, names: Iterable[str] = ()) -> str:
    """How the window shows a collection stored as `name`: the first one, "Default" (whoever named it so), in the
    interface's language; unless another of the library's collections (`names`) is stored as that text, which then
    shows as itself and "Default" as it is stored, so no two collections read alike. Other names as they are."""
    if name != DEFAULT_COLLECTION:
        return name
    shown = tr("collections.default")
    return name if any(n != name and n.casefold() == shown.casefold() for n in names) else shown


_COUNTED = Counted()


def tr(key: str, **values: object) -> str:
    """The text for `key` in the current language, formatted with `values` (`{n:noun|nouns}`: engine/messages.py's
    `Counted`); an engine text among them (a failure's `Reason`) is said in the current language too."""
    en, zh = _TEXT.get(key, (key, key))
    text = zh if _language == "zh" else en
    if not values:
        return text
    return _COUNTED.format(text, **{k: engine_text(v) if isinstance(v, Localised) else v for k, v in values.items()})


def bind(obj: object, setter: Callable[[object, str], None], key: str, **values: object) -> None:
    """Apply tr(key) now through setter(obj, text) and again whenever the language changes."""
    setter(obj, tr(key, **values))
    _bindings.append((weakref.ref(obj), setter, key, values))


def on_change(callback: Callable[[], None]) -> None:
    """Call the bound method `callback` after every language change (held weakly)."""
    _listeners.append(weakref.WeakMethod(callback))


def set_language(lang: str) -> None:
    """Switch language and re-apply every bound text."""
    global _language
    _language = "zh" if lang == "zh" else "en"
    alive = []
    for ref, setter, key, values in _bindings:
        obj = ref()
        if obj is None:
            continue
        try:
            setter(obj, tr(key, **values))
        except RuntimeError:  # the C++ widget is gone
            continue
        alive.append((ref, setter, key, values))
    _bindings[:] = alive
    for ref in list(_listeners):
        callback = ref()
        try:
            if callback is None:
                raise RuntimeError("gone")
            callback()
        except RuntimeError:
            _listeners.remove(ref)


class QtTexts(QTranslator):
    """Qt's standard buttons (OK, Cancel, Close, Yes, No) in the interface's language: Qt's own translation files
    are not loaded (nor bundled, build.spec). A dialog takes them when it is made."""

    def translate(self, context: str, source_text: str, disambiguation: str | None = None, n: int = -1) -> str | None:
        key = _QT_TEXTS.get((context, source_text))
        return tr(key) if key is not None and _language == "zh" else None  # None: Qt's own (English) text


def install_qt_texts(app: QCoreApplication) -> None:
    """Let Qt's standard buttons follow the interface language (once per application)."""
    global _qt_texts
    if _qt_texts is None:
        _qt_texts = QtTexts(app)
        app.installTranslator(_qt_texts)


def format_eta(seconds: float | None) -> str:
    """A short duration like '2 min 5 s'."""
    if seconds is None:
        return "?"
    seconds = int(max(seconds, 0))
    minutes, secs = divmod(seconds, 60)
    if _language == "zh":
        return f"{minutes} 分 {secs} 秒" if minutes else f"{secs} 秒"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"
