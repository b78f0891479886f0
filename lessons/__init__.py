"""minitape lessons: one jupytext source per lesson, notebooks in en, es, pt and ru.

* ``python -m lessons lab``     the students' JupyterLab on the lessons (``make lab``)
* ``python -m lessons student-dist OUT``  what students get: notebooks, wheel, Binder files
* ``python -m lessons site``    execute every lesson in every language into a static HTML site
* ``python -m lessons build``   regenerate every notebook from ``lessons/src/*.py``
* ``python -m lessons check``   exit 1 if a committed notebook is stale
* ``python -m lessons status``  per-language translation status (ok / stale / missing)
* ``python -m lessons stamp``   mark reviewed translations as up to date
* ``python -m lessons timing``  execute the lessons and print kernel time per lesson

The source format is documented in ``lessons/README.md``. Importing this package is cheap:
the build tooling (jupytext, nbgrader) is only imported by the commands that need it, so a
notebook can ``from lessons.widgets import tangent_explorer`` without pulling in nbgrader.
"""

from course_lang import LANGS, SOURCE_LANG  # the course's one list of languages (course_lang)

# LANGS: the languages every lesson is written in; SOURCE_LANG: English, the source language.

__all__ = ["LANGS", "SOURCE_LANG"]
