"""The students' JupyterLab: ``python -m lessons lab`` (what ``make lab`` runs).

A JupyterLab server rooted at the lessons, as a student should meet it:

* the file browser opens on the lesson notebooks only: one folder per language (``en/``,
  ``es/``, ...); the package's tooling beside them (``build.py``, ``src/`` with the solutions,
  ``messages/``, ...) is hidden from the server (``ContentsManager.hide_globs``), computed from
  the folder itself: whatever is not a folder of notebooks; the server refuses those paths
  too when asked for them by name (:mod:`lessons.lab_contents`);
* nbgrader's instructor interface is off for this server only (``jupyter_config/``, put first
  on ``JUPYTER_CONFIG_PATH``): no *Create Assignment* sidebar, no *Formgrader*, no *Validate*,
  and no "No nbgrader_config.py file found" warning;
* it runs this interpreter's JupyterLab (``python -m jupyterlab``), so no virtualenv needs to
  be activated, and passes ``--allow-root`` when run as root (containers, CI machines), which
  Jupyter otherwise refuses;
* ``--root DIR`` serves another folder of lesson notebooks (the student distribution's
  ``make lab`` serves its ``lessons/``);
* JupyterLab's own interface (menus, dialogs) speaks the course language the student chose:
  ``--lang es`` (``make lab LAB_LANG=es``), else ``MINITAPE_LANG``, else the system's language
  (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) where it is a course language, else English. The
  language packs are in Binder's requirements; ``jupyter_config/jupyter_server_config.py`` points
  the server at ``jupyter_config/lab_settings/<lang>/overrides.json`` (named by
  ``MINITAPE_LAB_LANG``), which also turns JupyterLab's "news" prompt and update checks off.
  Only the defaults are set: Settings > Language still changes the language. The notebooks'
  own language follows their folder, as before.

**Instructor material.** Where the lab can reach it -- this package is a checkout (or an editable
install of one: ``lessons/src/``, ``grader/course/definitions/``, ``grader/course/source/`` exist),
or a folder above the lab's root holds them -- the kernels run confined
(:mod:`lessons.lab_kernel`: the grader's bubblewrap sandbox, which shows them the Python
packages with those folders emptied and the lesson folders, not the checkout) and the server
has no terminals (a terminal would not be confined). Without bubblewrap the lab refuses to start
there unless ``--no-sandbox`` is given, with a warning saying what that allows. Where nothing can
be reached (the student distribution, the installed wheel) kernels are ordinary kernels.

Extra arguments go to JupyterLab (``python -m lessons lab --port 8890 --no-browser``).
Instructors open the course with nbgrader's interface through ``python -m grader lab``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from minitape._lang import LANGUAGES as LANGUAGE_NAMES

ROOT = Path(__file__).resolve().parent
CONFIG = ROOT / "jupyter_config"
KERNELS = ROOT / "jupyter_kernels"  # the confined kernel's spec (lessons.lab_kernel)
# instructor material, relative to a checkout (lessons.student.INSTRUCTOR_DIRS)
INSTRUCTOR_DIRS = ("grader/course/definitions", "grader/course/source", "lessons/src")
# JupyterLab's locale per course language: the language packs of binder/requirements.txt
# (jupyterlab-language-pack-es-ES, ...); English is JupyterLab's own.
LAB_LOCALES = {"en": "en", "es": "es_ES", "pt": "pt_BR", "ru": "ru_RU"}
LAB_LANG_VAR = "MINITAPE_LAB_LANG"  # read by jupyter_config/jupyter_server_config.py
NO_SANDBOX_WARNING = (
    "WARNING: starting the lab without a sandbox (--no-sandbox) although instructor material is "
    "reachable from it ({}): every notebook's code can read the reference solutions, hidden "
    "cases and instructor notebooks. Students get the student distribution "
    "(python -m lessons student-dist), never this checkout.")


def lab_language(choice: str | None = None, env: dict | None = None) -> str:
    """The interface language of the lab: ``choice`` (``--lang``), else ``MINITAPE_LANG``, else
    the system's language (``LC_ALL`` > ``LC_MESSAGES`` > ``LANG``, e.g. ``es_AR.UTF-8``) where it
    is a course language, else English. Raises ValueError for a ``choice`` that is not one."""
    if choice is not None:
        lang = choice.strip().lower()
        if lang not in LAB_LOCALES:
            raise ValueError(f"--lang {choice!r}: the course's languages are {', '.join(LAB_LOCALES)}")
        return lang
    env = os.environ if env is None else env
    course = env.get("MINITAPE_LANG", "").strip().lower()
    if course in LAB_LOCALES:
        return course
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if value:  # the first one set decides, as for any program (POSIX)
            lang = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return lang if lang in LAB_LOCALES else "en"
    return "en"


def lesson_folders(root: Path = ROOT) -> list[str]:
    """Folders of ``root`` that hold notebooks: what a student is shown."""
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.ipynb")))


def hidden_names(root: Path = ROOT) -> list[str]:
    """Everything else in ``root`` (tooling, sources with solutions, configuration)."""
    shown = set(lesson_folders(root))
    return sorted(p.name for p in root.iterdir() if p.name not in shown and not p.name.startswith("."))


def instructor_material(root: Path = ROOT) -> list[str]:
    """Instructor folders a lab on ``root`` could reach: those of the packages it imports
    (a checkout or an editable install) and those of every folder above ``root``."""
    import grader

    found = [ROOT / "src", *(Path(grader.__file__).resolve().parent / d for d in ("course/exercises", "course/source"))]
    for above in [Path(root).resolve(), *Path(root).resolve().parents]:
        found += [above / d for d in INSTRUCTOR_DIRS]
    return sorted({str(p) for p in found if p.is_dir()})


def command(root: Path = ROOT, extra: list[str] | None = None, confined: bool = False) -> list[str]:
    from jupyter_server.services.contents.filemanager import FileContentsManager

    globs = list(dict.fromkeys([*FileContentsManager().hide_globs, *hidden_names(root)]))
    argv = [sys.executable, "-m", "jupyterlab", str(root)]
    argv += [f"--ContentsManager.hide_globs={g}" for g in globs]
    # hidden from listings and refused by path too (lessons/lab_contents.py)
    argv.append("--ServerApp.contents_manager_class=lessons.lab_contents.StudentContentsManager")
    if confined:  # a terminal would run unconfined, as the user, beside the confined kernels
        argv.append("--ServerApp.terminals_enabled=False")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    return argv + list(extra or [])


def environment(base: dict | None = None, confine: dict | None = None, lang: str = "en") -> dict:
    """The server's environment: the students' Jupyter configuration first, the interface
    language ``lang``; with ``confine`` (what :mod:`lessons.lab_kernel` hides and shows) the
    confined kernel spec first too."""
    from .lab_kernel import ENV_VAR

    env = dict(os.environ if base is None else base)
    if lang not in LAB_LOCALES:
        raise ValueError(f"{lang!r} is not a course language ({', '.join(LAB_LOCALES)})")
    env[LAB_LANG_VAR] = lang
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        [str(CONFIG)] + [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p])
    env.pop(ENV_VAR, None)
    if confine is not None:
        env["JUPYTER_PATH"] = os.pathsep.join(
            [str(KERNELS)] + [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p])
        env[ENV_VAR] = json.dumps(confine)
    return env


def confinement(root: Path, material: list[str]) -> dict:
    """What the lab's kernels hide and show; raises grader.infra.sandbox.SandboxError where bubblewrap
    cannot confine them here."""
    from grader.infra.sandbox import Sandbox

    Sandbox(hide=material, share_network=True).check()
    return {"hide": material, "folders": [str(Path(root).resolve() / f) for f in lesson_folders(root)]}


def main(extra: list[str], root: Path | None = None, no_sandbox: bool = False,
         lang: str | None = None) -> int:
    try:
        lang = lab_language(lang)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    root = Path(root or ROOT).resolve()
    if not root.is_dir():
        print(f"error: {root} is not a folder", file=sys.stderr)
        return 2
    folders = lesson_folders(root)
    if not folders:
        hint = " (run `python -m lessons build`)" if root == ROOT else ""
        print(f"error: no lesson notebooks under {root}{hint}", file=sys.stderr)
        return 2
    material = instructor_material(root)
    confine = None
    if material and no_sandbox:
        print(NO_SANDBOX_WARNING.format(", ".join(material)), file=sys.stderr, flush=True)
    elif material:
        from grader.infra.sandbox import SandboxError

        try:
            confine = confinement(root, material)
        except SandboxError as exc:
            from grader.infra.sandbox import find_bwrap

            # in the words of starting a lab, not of grading (the sandbox's own text says "grade")
            reason = (str(exc) if find_bwrap() else "bubblewrap (bwrap), which that sandbox needs, "
                      "is not installed: sudo apt-get install bubblewrap (Debian/Ubuntu)")
            print(f"error: this lab can reach instructor material ({', '.join(material)}), so its "
                  f"kernels run in a sandbox, and {reason}. Students get the student distribution "
                  "(python -m lessons student-dist), never this checkout; to start this lab "
                  "unconfined anyway: python -m lessons lab --no-sandbox (make lab LAB_ARGS=--no-sandbox)",
                  file=sys.stderr)
            return 2
    argv = command(root, extra=extra, confined=confine is not None)
    how = " (kernels confined: instructor material is not visible to them)" if confine else ""
    print(f"Starting JupyterLab on the lessons in {root} ({', '.join(folders)}){how}, its "
          f"interface in {LANGUAGE_NAMES[lang]} (--lang {'/'.join(LAB_LOCALES)} to choose); "
          "stop it with Ctrl+C.", flush=True)
    os.execve(argv[0], argv, environment(confine=confine, lang=lang))
