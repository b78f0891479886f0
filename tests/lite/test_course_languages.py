"""The JupyterLite site is built for the course's languages: lite/build.py keeps its own list
(it runs in .venv-lite, where the course is not importable), so this holds it to the course's one
owner, minitape._lang (codes, order and each language's own name)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from minitape import _lang

REPO = Path(__file__).resolve().parents[2]


def test_the_lite_build_has_the_courses_languages():
    spec = importlib.util.spec_from_file_location("minitape_lite_build_langs", REPO / "lite" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert build.LANGS == _lang.LANGS
    assert build.LANG_NAMES == _lang.LANGUAGES
