"""The course language: the one owner of the language list and of how a language is found.

The lessons, the grader, the export and :mod:`minitape.debugging` all read the language from
here (the lowest layer of the project, so that minitape needs nothing above it):

* :data:`LANGUAGES` lists the languages; adding one is one line here plus its translations;
* :func:`current_language` resolves the running notebook's language, first match wins:

  1. ``set_language("es")`` called in this process;
  2. environment variable ``MINITAPE_LANG``;
  3. environment variable ``JPY_SESSION_NAME`` (the notebook path Jupyter gives the kernel);
  4. the kernel's working directory;
  5. :data:`SOURCE_LANG` (``"en"``).

  For 3 and 4 a path names a language when one of its folders is ``lessons/<lang>`` or ends
  in ``-<lang>`` (an nbgrader assignment such as ``01-gradients-es``); the deepest wins;
* :func:`variant_name` and :func:`split_variant` are the ``<lesson>-<lang>`` naming rule of
  assignments and exported notebooks;
* :data:`PLURAL_FORMS` and :func:`plural_rule`: each language's CLDR plural rule, for the
  lessons' and the grader's messages with a count.
"""
from __future__ import annotations

import functools
import gettext
import os
import warnings
from pathlib import PurePath

# code -> the language's own name (README tables, menus).  English is the source language.
LANGUAGES = {
    "en": "English",
    "es": "Español",
    "pt": "Português",
    "ru": "Русский",
}
LANGS = tuple(LANGUAGES)
SOURCE_LANG = "en"

# code -> CLDR's plural rule as a gettext ``Plural-Forms`` expression: (number of forms,
# expression in n).  Two forms for English, Spanish and Portuguese; three for Russian (1, 21 ->
# form 0; 2-4, 22 -> form 1; 5-20, 11-14 -> form 2).  They are the expressions Babel ships
# (tests/lessons/test_plural.py compares them), written here so that nothing needs Babel at
# run time (the in-browser course has none).  A new language adds its line here too.
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "en": (2, "(n != 1)"),
    "es": (2, "(n != 1)"),
    "pt": (2, "(n != 1)"),
    "ru": (3, "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"),
}

_explicit: list = [None]  # set_language()'s choice, None for automatic detection


def normalize_language(lang: str) -> str:
    """``"es"``, ``"ES"``, ``"es-MX"``, ``"pt_BR"`` -> the catalog's code; ValueError otherwise."""
    if not isinstance(lang, str):
        raise TypeError(f"language must be a string such as 'es', got {type(lang).__name__}")
    code = lang.strip().replace("_", "-").split("-")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; choose one of {', '.join(LANGS)}")
    return code


@functools.lru_cache(maxsize=None)
def plural_rule(lang: str):
    """``(number of forms, n -> form index)`` for ``lang``, from :data:`PLURAL_FORMS`."""
    count, expr = PLURAL_FORMS[normalize_language(lang)]
    return count, gettext.c2py(expr)


def set_language(lang: str | None) -> None:
    """Fix the language of this process (``None`` goes back to automatic detection)."""
    _explicit[0] = None if lang is None else normalize_language(lang)


def variant_name(lesson: str, lang: str) -> str:
    """The name of a lesson's notebook in one language: ``01-gradients`` + ``es`` -> ``01-gradients-es``."""
    return f"{lesson}-{lang}"


def split_variant(name: str) -> tuple[str, str] | None:
    """``"01-gradients-es"`` -> ``("01-gradients", "es")``; None when ``name`` ends in no language."""
    head, sep, tail = name.rpartition("-")
    if sep and head and tail in LANGUAGES:
        return head, tail
    return None


def language_from_path(path: str | os.PathLike) -> str | None:
    """The language a path names, or None.

    A folder ``lessons/<lang>`` or a folder ending in ``-<lang>`` (nbgrader assignment
    ``01-gradients-es``, its ``submitted/<student>/01-gradients-es`` copies) names ``<lang>``.
    The deepest folder that names a language wins; the file name itself is ignored when the
    path ends in ``.ipynb``.
    """
    parts = PurePath(os.fspath(path)).parts
    if parts and parts[-1].endswith(".ipynb"):
        parts = parts[:-1]
    for i in range(len(parts) - 1, -1, -1):
        part = parts[i].lower()
        if part in LANGUAGES and i > 0 and parts[i - 1].lower() == "lessons":
            return part
        variant = split_variant(part)
        if variant is not None:
            return variant[1]
    return None


def current_language() -> str:
    """The language of the running notebook (see the module docstring for the order)."""
    if _explicit[0] is not None:
        return _explicit[0]
    env = os.environ.get("MINITAPE_LANG", "").strip()
    if env:
        try:
            return normalize_language(env)
        except ValueError:
            warnings.warn(
                f"MINITAPE_LANG={env!r} is not one of {', '.join(LANGS)}; ignoring it",
                stacklevel=2,
            )
    session = os.environ.get("JPY_SESSION_NAME", "").strip()
    if session:
        lang = language_from_path(session)
        if lang:
            return lang
    try:
        cwd = os.getcwd()
    except OSError:  # the working directory was deleted
        cwd = ""
    if cwd:
        lang = language_from_path(cwd)
        if lang:
            return lang
    return SOURCE_LANG
