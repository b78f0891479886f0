"""A student's server on a JupyterHub: ``python -m lessons hub-server`` (docs/jupyterhub.md).

What the hub's spawner starts for each student (``c.Spawner.cmd`` in ``hub/jupyterhub_config.py``),
from the hub's environment: the student distribution's wheel over the pinned packages of
``requirements/hub.txt``. It is JupyterHub's single-user server (``jupyterhub-singleuser``: JupyterLab
in the student's home, logged in through the hub) with the course's students' configuration
(``jupyter_config/hub/``, put first on ``JUPYTER_CONFIG_PATH`` for this server only):

* nbgrader's student interface is on: the *Assignments* tab (fetch, submit, fetch feedback) and
  the *Validate* button, through nbgrader's exchange (the hub's ``/etc/jupyter/nbgrader_config.py``
  names it and the course);
* its instructor interface is off: no *Formgrader*, *Create Assignment* or *Courses*, neither in
  JupyterLab nor as server extensions;
* JupyterLab's menus speak the student's language: ``MINITAPE_LAB_LANG`` (the hub sets it from the
  student's ``lang-<xx>`` group), else ``MINITAPE_LANG``, else the system's language where it is
  one of the course's, else English; Settings > Language still changes it. No news prompt, no
  update checks.

It refuses to start where instructor material can be reached from this environment (a checkout or
an editable install of the instructor's repository: reference solutions, hidden cases): students'
servers run the student distribution (``python -m lessons student-dist``), never the checkout.
Extra arguments go to ``jupyterhub-singleuser``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .lab import CONFIG, LAB_LANG_VAR, instructor_material, lab_language

HUB_CONFIG = CONFIG / "hub"  # the students' Jupyter configuration on a hub


def settings_dir(lang: str) -> Path:
    """JupyterLab's settings defaults for ``lang`` (its language pack, no news prompt)."""
    return CONFIG / "lab_settings" / lang


def command(lang: str, extra: list[str] | None = None) -> list[str]:
    return [sys.executable, "-m", "jupyterhub.singleuser",
            f"--LabApp.app_settings_dir={settings_dir(lang)}", *(extra or [])]


def environment(lang: str, base: dict | None = None) -> dict:
    env = dict(os.environ if base is None else base)
    env[LAB_LANG_VAR] = lang
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        [str(HUB_CONFIG)] + [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p])
    return env


def main(extra: list[str]) -> int:
    env = os.environ
    try:
        lang = lab_language(env.get(LAB_LANG_VAR) or None)
    except ValueError as exc:
        print(f"error: {LAB_LANG_VAR}: {exc}", file=sys.stderr)
        return 2
    material = instructor_material(Path.home())
    if material:
        print(f"error: instructor material can be reached from this server ({', '.join(material)}): "
              "students' servers on a JupyterHub run the student distribution's environment "
              "(python -m lessons student-dist; docs/jupyterhub.md), never the instructor's checkout",
              file=sys.stderr)
        return 2
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        print("error: jupyterhub is not installed in this environment: install requirements/hub.txt "
              "into it (docs/jupyterhub.md)", file=sys.stderr)
        return 2
    argv = command(lang, extra)
    os.execve(argv[0], argv, environment(lang))
