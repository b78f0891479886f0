"""The course's languages: the one home of its language rules, outside the engine.

minitape's teaching instruments (:mod:`minitape.debugging`), the lessons, the grader and the
JupyterLite build all take their languages from here; this package imports nothing but the
standard library (the lite build loads it without NumPy, and ``tests/test_layout.py`` holds it
below every package that uses it). ``minitape._lang`` keeps its public names by delegating here.
See ``docs/languages.md``.

* :data:`LANGUAGES`: code -> the language's own name (``en`` is the source language);
* :func:`resolve`: the one resolver. First match wins:

  1. the explicit argument (``lang="es"``; an unknown one is a ValueError);
  2. ``set_language("es")`` called in this process;
  3. environment variable ``MINITAPE_LANG`` (an unknown value is warned about and skipped);
  4. the notebook's path: ``JPY_SESSION_NAME`` (what Jupyter gives the kernel), then the
     kernel's working directory -- a folder ``lessons/<lang>`` or one ending in ``-<lang>``
     (an nbgrader assignment such as ``01-gradients-es``), the deepest wins;
  5. :data:`SOURCE_LANG` (``"en"``).

  :func:`current_language` is :func:`resolve` without an argument (steps 2-5).
* :data:`PLURAL_FORMS`, :func:`plural_rule`, :func:`plural_index`: CLDR's plural rules (Russian
  has three forms);
* :func:`variant_name`, :func:`split_variant`, :func:`lang_of_assignment`,
  :func:`notebook_language`: nbgrader's ``<lesson>-<lang>`` naming of assignments;
* :class:`Catalog`: the one catalog shape (key-major ``{key: {lang: text}}``, a plural key ends
  in ``.plural`` and holds its forms separated by ``|``) and the one :meth:`Catalog.t` /
  :meth:`Catalog.tn`.
"""
from __future__ import annotations

import functools
import gettext
import os
import warnings
from pathlib import PurePath
from typing import Callable, Mapping

__all__ = [
    "LANGUAGES", "LANGS", "SOURCE_LANG", "PLURAL_FORMS", "PLURAL_SUFFIX", "SEPARATOR",
    "Catalog", "CatalogView", "current_language", "lang_of_assignment", "language_from_path", "normalize_language",
    "notebook_language", "plural_index", "plural_rule", "resolve", "set_language", "split_variant",
    "variant_name",
]

# code -> the language's own name (README tables, menus, the lite site).  English is the source
# language.  A new language is one line here, one in PLURAL_FORMS, and its translations.
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
# run time (the in-browser course has none).
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "en": (2, "(n != 1)"),
    "es": (2, "(n != 1)"),
    "pt": (2, "(n != 1)"),
    "ru": (3, "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"),
}
PLURAL_SUFFIX = ".plural"  # a plural message's key ends in this
SEPARATOR = "|"            # between a plural message's forms, in gettext's order

_explicit: list = [None]  # set_language()'s choice, None for automatic detection


# ---------------------------------------------------------------------------------------------
# Languages and the resolver

def normalize_language(lang: str) -> str:
    """``"es"``, ``"ES"``, ``"es-MX"``, ``"pt_BR"`` -> the catalog's code; ValueError otherwise."""
    if not isinstance(lang, str):
        raise TypeError(f"language must be a string such as 'es', got {type(lang).__name__}")
    code = lang.strip().replace("_", "-").split("-")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; choose one of {', '.join(LANGS)}")
    return code


def set_language(lang: str | None) -> None:
    """Fix the language of this process (``None`` goes back to automatic detection)."""
    _explicit[0] = None if lang is None else normalize_language(lang)


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
    """The language of the running notebook: :func:`resolve` without an argument."""
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


def resolve(lang: str | None = None) -> str:
    """The language to speak: ``lang`` when given (checked: ValueError when unknown, TypeError
    when not a string), else :func:`current_language` (see the module docstring for the order)."""
    return current_language() if lang is None else normalize_language(lang)


# ---------------------------------------------------------------------------------------------
# Plural rules

@functools.lru_cache(maxsize=None)
def plural_rule(lang: str) -> tuple[int, Callable[[int], int]]:
    """``(number of forms, n -> form index)`` for ``lang``, from :data:`PLURAL_FORMS`."""
    count, expr = PLURAL_FORMS[normalize_language(lang)]
    return count, gettext.c2py(expr)


def plural_index(count: object, lang: str, *, fractions: bool = False) -> int:
    """The index of the plural form that ``count`` takes in ``lang``.

    ``count`` is an int; with ``fractions=True`` also any real number, a fraction (1.5 points)
    taking the form of 2 (en, es, pt: plural).  Anything else is a TypeError.
    """
    if isinstance(count, bool) or not isinstance(count, int):
        if not fractions or isinstance(count, (bool, str, bytes)):
            raise TypeError(f"a plural count must be an int, got {type(count).__name__} {count!r}")
        try:
            value = float(count)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise TypeError(f"a plural count must be a number, got {type(count).__name__} {count!r}") from None
        count = int(value) if value.is_integer() else 2
    return plural_rule(lang)[1](abs(count))


# ---------------------------------------------------------------------------------------------
# nbgrader's naming: one notebook per lesson and language, ``<lesson>-<lang>``

def variant_name(lesson: str, lang: str) -> str:
    """The name of a lesson's notebook in one language: ``01-gradients`` + ``es`` -> ``01-gradients-es``."""
    return f"{lesson}-{lang}"


def split_variant(name: str) -> tuple[str, str] | None:
    """``"01-gradients-es"`` -> ``("01-gradients", "es")``; None when ``name`` ends in no language."""
    head, sep, tail = name.rpartition("-")
    if sep and head and tail in LANGUAGES:
        return head, tail
    return None


def lang_of_assignment(assignment: str) -> str:
    """The language of an nbgrader assignment id (``01-gradients-ru`` -> ``ru``), else English."""
    variant = split_variant(assignment or "")
    return variant[1] if variant else SOURCE_LANG


def notebook_language(nb: Mapping, resources: Mapping | None = None) -> str:
    """The course language of a lesson notebook being processed: its ``metadata.minitape.lang``,
    else the ``-<lang>`` of the nbgrader assignment it belongs to (``resources["nbgrader"]``),
    else English."""
    lang = ((nb.get("metadata") or {}).get("minitape") or {}).get("lang")
    if lang in LANGUAGES:
        return lang
    assignment = ((resources or {}).get("nbgrader") or {}).get("assignment") or ""
    return lang_of_assignment(assignment)


# ---------------------------------------------------------------------------------------------
# Catalogs: one shape, one t and tn

def typeset(text: str, lang: str) -> str:
    """``text`` set for ``lang`` (``course_lang.typography``: Russian no-break spaces, nested
    quotes). Imported when first used: ``lite/build.py`` loads this file alone, by path, for the
    language list, where a package-relative import at the top could not run."""
    from .typography import typeset as _typeset

    return _typeset(text, lang)


class Catalog:
    """Messages in the course's one shape: key-major ``{key: {lang: text}}``, each key holding
    its text in every language side by side (a translator sees the English beside their own).

    Texts are ``str.format`` templates with named fields.  A plural message's key ends in
    ``.plural`` and its text holds the language's forms separated by ``|`` in gettext's order
    (``"{count} operation|{count} operations"``; Russian three forms).  A language missing a key
    falls back to English; an unknown key is a KeyError naming ``where`` the catalog lives.

    ``messages`` is kept by reference (the owner's dict stays the catalog; tests may patch it);
    ``load`` is called once, before the first lookup, to add messages kept elsewhere (files).
    ``fractions``: whether a plural count may be a fraction (scores such as 1.5 points).
    ``missing``: the KeyError's text for an unknown key (``{key}``, ``{name}``, ``{where}``).
    """

    def __init__(self, name: str, messages: dict[str, dict[str, str]] | None = None, *,
                 where: str = "", load: Callable[["Catalog"], None] | None = None,
                 fractions: bool = False,
                 missing: str = "no message {key!r} in the {name} catalog ({where})") -> None:
        self.name = name
        self.where = where
        self.missing = missing
        self.fractions = fractions
        self.messages: dict[str, dict[str, str]] = {} if messages is None else messages
        for key, texts in self.messages.items():
            self._checked(key, texts, where or name)
        self._load = load

    # -- contents ---------------------------------------------------------------------------
    @staticmethod
    def _checked(key: object, texts: object, origin: str) -> dict[str, str]:
        if not isinstance(key, str) or not key:
            raise ValueError(f"{origin}: message keys must be non-empty strings, got {key!r}")
        if not isinstance(texts, Mapping):
            raise ValueError(f"{origin}: message {key!r} must map languages to text, got {type(texts).__name__}")
        unknown = sorted(set(texts) - set(LANGS))
        if unknown:
            raise ValueError(f"{origin}: message {key!r} has unknown language(s) {unknown}; use {list(LANGS)}")
        if SOURCE_LANG not in texts:
            raise ValueError(f"{origin}: message {key!r} has no English text (English is the fallback)")
        for lang, text in texts.items():
            if not isinstance(text, str):
                raise ValueError(f"{origin}: message {key!r} [{lang}] must be a string")
        return dict(texts)

    def add(self, messages: Mapping[str, Mapping[str, str]], origin: str = "add") -> None:
        """Add messages (``{key: {lang: text}}``); a key may not be defined twice."""
        checked = {key: self._checked(key, texts, origin) for key, texts in messages.items()}
        clash = sorted(set(checked) & set(self.messages))
        if clash:
            raise ValueError(f"{origin}: message key(s) already defined: {', '.join(clash)}")
        self.messages.update(checked)

    def _loaded(self) -> dict[str, dict[str, str]]:
        if self._load is not None:
            load, self._load = self._load, None
            try:
                load(self)
            except BaseException:
                self._load = load
                raise
        return self.messages

    def keys(self) -> list[str]:
        return list(self._loaded())

    def entries(self) -> dict[str, dict[str, str]]:
        """Every message (a copy), ``{key: {lang: text}}``."""
        return {key: dict(texts) for key, texts in self._loaded().items()}

    def __contains__(self, key: object) -> bool:
        return key in self._loaded()

    # -- lookups -----------------------------------------------------------------------------
    def text(self, key: str, lang: str | None = None) -> str:
        """The unformatted text of ``key`` in ``lang`` (resolved; English when it lacks one)."""
        try:
            texts = self._loaded()[key]
        except KeyError:
            raise KeyError(self.missing.format(key=key, name=self.name, where=self.where or self.name)) from None
        code = resolve(lang)
        return typeset(texts.get(code) or texts[SOURCE_LANG], code)

    def t(self, key: str, lang: str | None = None, /, **kwargs: object) -> str:
        """The message ``key`` in ``lang`` (default: :func:`current_language`), formatted with
        ``kwargs``."""
        code = resolve(lang)
        text = self.text(key, code)
        return typeset(text.format(**kwargs), code) if kwargs else text

    def forms(self, key: str, lang: str) -> list[str]:
        """The plural forms of ``key`` in ``lang``, checked against the language's rule."""
        if not key.endswith(PLURAL_SUFFIX):
            raise KeyError(f"{key!r} is not a plural message: plural keys end in {PLURAL_SUFFIX!r}")
        code = normalize_language(lang)
        texts = self.text(key, code).split(SEPARATOR)
        expected = plural_rule(code)[0]
        if len(texts) != expected:
            raise ValueError(f"message {key!r} [{code}] has {len(texts)} plural form(s) separated by "
                             f"{SEPARATOR!r}; {code} needs {expected}")
        return texts

    def tn(self, key: str, count: object, lang: str | None = None, /, **kwargs: object) -> str:
        """The plural message ``key`` in the form ``count`` takes in ``lang`` (CLDR's rule),
        formatted with ``kwargs``; ``count`` is also ``{count}`` unless ``kwargs`` gives one."""
        code = resolve(lang)
        text = self.forms(key, code)[plural_index(count, code, fractions=self.fractions)]
        return typeset(text.format(**{"count": count, **kwargs}), code)

    def view(self, prefix: str, lang: str | None = None) -> "CatalogView":
        """``view("draw.", "es")["next"]`` is ``t("draw.next", "es")`` (unformatted)."""
        return CatalogView(self, prefix, resolve(lang))


class CatalogView:
    """The texts of one catalog under one key prefix in one language, read by their short name."""

    __slots__ = ("catalog", "prefix", "lang")

    def __init__(self, catalog: Catalog, prefix: str, lang: str) -> None:
        self.catalog, self.prefix, self.lang = catalog, prefix, lang

    def __getitem__(self, name: str) -> str:
        return self.catalog.text(self.prefix + name, self.lang)

    def tn(self, name: str, count: object, /, **kwargs: object) -> str:
        return self.catalog.tn(self.prefix + name, count, self.lang, **kwargs)

