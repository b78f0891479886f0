"""Language of the grader's messages: the running notebook's language, en/es/pt/ru.

The course has one resolution order, owned by :mod:`minitape._lang` (``set_language()`` >
``MINITAPE_LANG`` > ``JPY_SESSION_NAME`` path > working directory path (``lessons/<lang>/`` or
an nbgrader assignment folder ending in ``-<lang>``) > ``"en"``); the grader uses it as is.
The grader's own texts live in :mod:`grader.messages` (key-major: each key holds its text in
every language side by side) and are looked up with :func:`t`.
"""

from __future__ import annotations

from minitape._lang import (LANGS, PLURAL_FORMS, SOURCE_LANG, current_language,
                            normalize_language, plural_rule, set_language, split_variant)

from .messages import MESSAGES

__all__ = ["LANGS", "current_language", "normalize_language", "set_language", "split_variant", "t",
           "tn"]

PLURAL_SUFFIX, SEPARATOR = ".plural", "|"


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


def _plural_count(count: object) -> int:
    """A whole number stays itself; a fraction (1.5 points) takes the form of 2 (en, es, pt:
    plural; the Russian texts of such counts have no noun to agree)."""
    value = float(count)  # type: ignore[arg-type]
    return int(value) if value.is_integer() else 2


def tn(key: str, count: object, lang: str | None = None, /, **kwargs: object) -> str:
    """The plural message ``key`` (its forms separated by ``|``, in gettext's order) in the
    form ``count`` takes in ``lang`` -- the CLDR rule (``minitape._lang.PLURAL_FORMS``: one for 1 in
    en/es/pt; 1, 21 / 2-4, 22 / 5-20 in Russian) --, formatted with ``kwargs``."""
    if not key.endswith(PLURAL_SUFFIX):
        raise KeyError(f"{key!r} is not a plural grader message (plural keys end in {PLURAL_SUFFIX!r})")
    code = current_language() if lang is None else normalize_language(lang)
    try:
        texts = MESSAGES[key]
    except KeyError:
        raise KeyError(f"no grader message {key!r} (grader/messages.py)") from None
    text = texts.get(code) or texts[SOURCE_LANG]
    forms = text.split(SEPARATOR)
    n_forms, rule = plural_rule(code)
    if len(forms) != n_forms:
        raise ValueError(f"grader message {key!r} [{code}] has {len(forms)} plural form(s); "
                         f"{code} needs {n_forms}")
    return forms[rule(abs(_plural_count(count)))].format(**kwargs)


# The language of a notebook being graded (nbgrader's preprocessors, the output bounds)
def lang_of_assignment(assignment: str) -> str:
    variant = split_variant(assignment or "")
    return variant[1] if variant else "en"


def notebook_language(nb: dict, resources: dict | None = None) -> str:
    """The course language of a lesson notebook: its ``metadata.minitape.lang``, else the
    ``-<lang>`` of the nbgrader assignment it belongs to, else English."""
    lang = nb.get("metadata", {}).get("minitape", {}).get("lang")
    if lang in LANGS:
        return lang
    assignment = ((resources or {}).get("nbgrader") or {}).get("assignment") or ""
    return lang_of_assignment(assignment)
