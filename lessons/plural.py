"""Messages with a count, in the right plural form for each language.

A plural message is a catalog entry (``lessons/messages/*.json``) whose key ends in ``.plural``
and whose text holds the language's plural forms separated by ``|``, in gettext's order::

    "l07.recorded.plural": {
      "en": "{count} operation recorded|{count} operations recorded",
      "ru": "записана {count} операция|записаны {count} операции|записано {count} операций"
    }

Which form a count takes comes from the CLDR plural rules written as gettext ``Plural-Forms``
expressions in ``course_lang`` (the one home of the course's languages: two forms for English,
Spanish and Portuguese, three for Russian: 1, 21 -> form 0; 2-4, 22 -> form 1; 5-20, 11-14 ->
form 2), evaluated by the standard library's ``gettext.c2py``. They are the expressions Babel
ships (``babel.messages.plurals.get_plural``; ``tests/lessons/test_plural.py`` compares them),
so that lessons need no Babel at run time: the in-browser course (JupyterLite) has none.
The lookup is the course's one ``Catalog.tn`` (the grader's and ``minitape.debugging``'s too).
Nothing here writes endings by hand::

    >>> from lessons.plural import tn
    >>> tn("l07.recorded.plural", 3, "ru", ops="mul, sin, add")
    'записаны 3 операции: mul, sin, add'
"""

from __future__ import annotations

from course_lang import PLURAL_FORMS, PLURAL_SUFFIX, SEPARATOR, plural_rule
from course_lang import plural_index as _plural_index

from .i18n import CATALOG, _numbers

__all__ = ["PLURAL_FORMS", "PLURAL_SUFFIX", "SEPARATOR", "plural_rule", "plural_index", "forms", "tn"]


def plural_index(count: int, lang: str) -> int:
    """The index of the plural form that ``count`` (an int) takes in ``lang``."""
    return _plural_index(count, lang)


def forms(key: str, lang: str) -> list[str]:
    """The plural forms of message ``key`` in ``lang`` (checked against the language's rule)."""
    return CATALOG.forms(key, lang)


def tn(key: str, count: int, lang: str | None = None, /, **kwargs: object) -> str:
    """Plural message ``key`` for ``count`` in ``lang`` (default: the notebook's language).

    ``count`` is also passed to the text as ``{count}``, next to ``kwargs``.
    """
    return CATALOG.tn(key, count, lang, **_numbers(lang, kwargs))
