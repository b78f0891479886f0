"""The course language, as minitape's teaching instruments and existing callers know it.

The rules themselves (the language list, the resolver and its order, the plural rules, the
nbgrader ``<lesson>-<lang>`` naming, the catalogs) live in :mod:`course_lang`, outside the
engine, where minitape.debugging, the lessons, the grader and the JupyterLite build all read
them (``docs/languages.md``).  This module keeps its public names by delegating there:
``set_language`` here and there is one setting.  nbgrader's naming is not the engine's
business: ``variant_name`` and ``split_variant`` are :mod:`course_lang`'s only.
"""
from __future__ import annotations

from course_lang import (LANGS, LANGUAGES, PLURAL_FORMS, SOURCE_LANG, current_language,  # noqa: F401
                         language_from_path, normalize_language, plural_rule, resolve,
                         set_language)

__all__ = ["LANGS", "LANGUAGES", "PLURAL_FORMS", "SOURCE_LANG", "current_language",
           "language_from_path", "normalize_language", "plural_rule", "resolve", "set_language"]
