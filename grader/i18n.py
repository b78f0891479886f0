"""Language of the grader's messages: the running notebook's language, en/es/pt/ru.

The language comes from ``lessons.i18n.current_language()`` (one resolution order for the
whole course: ``set_language()`` > ``MINITAPE_LANG`` > ``JPY_SESSION_NAME`` path > working
directory path (``lessons/<lang>/`` or an nbgrader assignment folder ending in ``-<lang>``) >
``"en"``).  When the ``lessons`` package cannot be imported (a stripped-down install), a local
copy of the same order is used.

The grader's texts live in :mod:`grader.messages` (key-major: each key holds its text in every
language side by side) and are looked up with :func:`t`.
"""

from __future__ import annotations

import os
from pathlib import PurePath

from .messages import MESSAGES

LANGS = ("en", "es", "pt", "ru")
SOURCE_LANG = "en"

__all__ = ["LANGS", "current_language", "normalize_language", "set_language", "t"]

_explicit: str | None = None

try:  # the shared resolution order (the lessons package owns it)
    from lessons import i18n as _lessons_i18n
except ImportError:  # pragma: no cover - exercised by test_i18n via monkeypatch
    _lessons_i18n = None


def normalize_language(lang: str) -> str:
    """``"es"``, ``"ES"``, ``"pt_BR"``, ``"ru-RU"`` -> ``es``/``pt``/``ru``; ValueError otherwise."""
    if not isinstance(lang, str):
        raise TypeError(f"language must be a string such as 'es', got {type(lang).__name__}")
    code = lang.strip().replace("_", "-").split("-")[0].lower()
    if code not in LANGS:
        raise ValueError(f"unsupported language {lang!r}; choose one of {', '.join(LANGS)}")
    return code


def set_language(lang: str | None) -> None:
    """Fix the grader's language for this process (``None``: detect it again).

    Also fixes the lessons' language, so a notebook has one language for everything.
    """
    global _explicit
    _explicit = None if lang is None else normalize_language(lang)
    if _lessons_i18n is not None:
        _lessons_i18n.set_language(_explicit)


def _language_from_path(path: str) -> str | None:
    parts = PurePath(path).parts
    if parts and parts[-1].endswith(".ipynb"):
        parts = parts[:-1]
    for i in range(len(parts) - 1, -1, -1):
        part = parts[i].lower()
        if part in LANGS and i > 0 and parts[i - 1].lower() == "lessons":
            return part
        head, sep, tail = part.rpartition("-")
        if sep and head and tail in LANGS:
            return tail
    return None


def _fallback_current_language() -> str:
    env = os.environ.get("MINITAPE_LANG", "").strip()
    if env:
        try:
            return normalize_language(env)
        except ValueError:
            pass
    for candidate in (os.environ.get("JPY_SESSION_NAME", "").strip(), _cwd()):
        if candidate:
            lang = _language_from_path(candidate)
            if lang:
                return lang
    return SOURCE_LANG


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""


def current_language() -> str:
    """The language the grader speaks now (see the module docstring)."""
    if _explicit is not None:
        return _explicit
    if _lessons_i18n is not None:
        return _lessons_i18n.current_language()
    return _fallback_current_language()


def t(key: str, lang: str | None = None, /, **kwargs: object) -> str:
    """The grader message ``key`` in ``lang`` (default: the current language), formatted.

    A language missing the key falls back to English; an unknown key is a KeyError.
    """
    try:
        texts = MESSAGES[key]
    except KeyError:
        raise KeyError(f"no grader message {key!r} (grader/messages.py)") from None
    code = current_language() if lang is None else normalize_language(lang)
    text = texts.get(code) or texts[SOURCE_LANG]
    return text.format(**kwargs) if kwargs else text
