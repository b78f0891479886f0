"""Language of the grader's messages: the running notebook's language, en/es/pt/ru.

The course has one resolution order, owned by :mod:`minitape._lang` (``set_language()`` >
``MINITAPE_LANG`` > ``JPY_SESSION_NAME`` path > working directory path (``lessons/<lang>/`` or
an nbgrader assignment folder ending in ``-<lang>``) > ``"en"``); the grader uses it as is.
The grader's own texts live in :mod:`grader.messages` (key-major: each key holds its text in
every language side by side) and are looked up with :func:`t`.
"""

from __future__ import annotations

from minitape._lang import (LANGS, SOURCE_LANG, current_language, normalize_language,
                            set_language, split_variant)

from .messages import MESSAGES

__all__ = ["LANGS", "current_language", "normalize_language", "set_language", "split_variant", "t"]


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
