"""Messages with a count, in the right plural form for each language.

A plural message is a catalog entry (``lessons/messages/*.json``) whose key ends in ``.plural``
and whose text holds the language's plural forms separated by ``|``, in gettext's order::

    "l07.recorded.plural": {
      "en": "{count} operation recorded|{count} operations recorded",
      "ru": "записана {count} операция|записаны {count} операции|записано {count} операций"
    }

Which form a count takes comes from the CLDR plural rules written as gettext ``Plural-Forms``
expressions (:data:`PLURAL_FORMS`: two forms for English, Spanish and Portuguese, three for
Russian: 1, 21 -> form 0; 2-4, 22 -> form 1; 5-20, 11-14 -> form 2), evaluated by the standard
library's ``gettext.c2py``. They are the expressions Babel ships
(``babel.messages.plurals.get_plural``; ``tests/lessons/test_plural.py`` compares them), kept here
so that lessons need no Babel at run time: the in-browser course (JupyterLite) has none.
Nothing here writes endings by hand::

    >>> from lessons.plural import tn
    >>> tn("l07.recorded.plural", 3, "ru", ops="mul, sin, add")
    'записаны 3 операции: mul, sin, add'
"""

from __future__ import annotations

import functools
import gettext
from typing import Callable

from .i18n import current_language, normalize_language, t

__all__ = ["PLURAL_FORMS", "PLURAL_SUFFIX", "SEPARATOR", "plural_rule", "plural_index", "forms", "tn"]

#: gettext plural expressions (CLDR), per language: (number of forms, expression in ``n``).
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "en": (2, "(n != 1)"),
    "es": (2, "(n != 1)"),
    "pt": (2, "(n != 1)"),
    "ru": (3, "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"),
}

PLURAL_SUFFIX = ".plural"
SEPARATOR = "|"


@functools.lru_cache(maxsize=None)
def plural_rule(lang: str) -> tuple[int, Callable[[int], int]]:
    """``(number of forms, n -> form index)`` for ``lang``, from :data:`PLURAL_FORMS`."""
    count, expr = PLURAL_FORMS[normalize_language(lang)]
    return count, gettext.c2py(expr)


def plural_index(count: int, lang: str) -> int:
    """The index of the plural form that ``count`` takes in ``lang``."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"a plural count must be an int, got {type(count).__name__} {count!r}")
    return plural_rule(lang)[1](abs(count))


def forms(key: str, lang: str) -> list[str]:
    """The plural forms of message ``key`` in ``lang`` (checked against the language's rule)."""
    if not key.endswith(PLURAL_SUFFIX):
        raise KeyError(f"{key!r} is not a plural message: plural keys end in {PLURAL_SUFFIX!r}")
    code = normalize_language(lang)
    texts = t(key, code).split(SEPARATOR)
    expected = plural_rule(code)[0]
    if len(texts) != expected:
        raise ValueError(f"message {key!r} [{code}] has {len(texts)} plural form(s) separated by "
                         f"{SEPARATOR!r}; {code} needs {expected}")
    return texts


def tn(key: str, count: int, lang: str | None = None, /, **kwargs: object) -> str:
    """Plural message ``key`` for ``count`` in ``lang`` (default: the notebook's language).

    ``count`` is also passed to the text as ``{count}``, next to ``kwargs``.
    """
    code = current_language() if lang is None else normalize_language(lang)
    text = forms(key, code)[plural_index(count, code)]
    return text.format(count=count, **kwargs)
