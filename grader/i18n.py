"""Language of the grader's messages: the running notebook's language, en/es/pt/ru.

The course's language rules live in :mod:`course_lang` (its one resolver: an explicit ``lang``
argument > ``set_language()`` > ``MINITAPE_LANG`` > ``JPY_SESSION_NAME`` path > working directory
path (``lessons/<lang>/`` or an nbgrader assignment folder ending in ``-<lang>``) > ``"en"``; the
nbgrader ``<lesson>-<lang>`` naming; the plural rules); the grader uses them as they are
(``docs/languages.md``).  The grader's own texts live in :mod:`grader.messages`, in the course's
one catalog shape (key-major: each key holds its text in every language side by side), and are
looked up with :func:`t` and :func:`tn`, the course's one ``Catalog.t`` / ``Catalog.tn``.
"""

from __future__ import annotations

from course_lang import (LANGS, PLURAL_FORMS, SOURCE_LANG, Catalog, current_language,  # noqa: F401
                         lang_of_assignment, normalize_language, notebook_language, plural_rule,
                         set_language, split_variant)

from .messages import MESSAGES

__all__ = ["CATALOG", "LANGS", "current_language", "lang_of_assignment", "normalize_language",
           "notebook_language", "set_language", "split_variant", "t", "tn"]

# fractions: a score such as 1.5 points takes the form of 2 (en, es, pt: plural; the Russian
# texts of such counts have no noun to agree)
CATALOG = Catalog("grader", MESSAGES, where="grader/messages.py", fractions=True,
                  missing="no grader message {key!r} ({where})")


def t(key: str, lang: str | None = None, /, **kwargs: object) -> str:
    """The grader message ``key`` in ``lang`` (default: the current language), formatted.

    A language missing the key falls back to English; an unknown key is a KeyError.
    """
    return CATALOG.t(key, lang, **kwargs)


def tn(key: str, count: object, lang: str | None = None, /, **kwargs: object) -> str:
    """The plural message ``key`` (its forms separated by ``|``, in gettext's order) in the
    form ``count`` takes in ``lang`` -- the CLDR rule (``course_lang.PLURAL_FORMS``: one for 1 in
    en/es/pt; 1, 21 / 2-4, 22 / 5-20 in Russian) --, formatted with ``kwargs``."""
    return CATALOG.tn(key, count, lang, **kwargs)
