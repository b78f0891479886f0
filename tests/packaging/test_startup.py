"""What every instructor command pays before it does anything: the imports.

``jsonschema`` 4.25+ imports ``rfc3987_syntax`` (through the format-nongpl extra that jupyter-events
requires), which compiles a Lark grammar at import time: 0.9 s of CPU in every process that imports
``nbformat`` -- each ``nbgrader`` and ``python -m grader`` command, JupyterLab, nbclient and every
grading worker. pyproject.toml bounds jsonschema below 4.25 for that; this test keeps the grammar
out of those processes (it fails if the bound is lifted while the import is still eager).
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.course import REPO, env

SLOW_AT_IMPORT = ("rfc3987_syntax", "lark")


def test_instructor_commands_do_not_compile_a_grammar_at_import():
    code = ("import json, sys\n"
            "import nbformat, nbclient, nbgrader.apps, grader.autograde.cli\n"
            f"print(json.dumps(sorted(m for m in {SLOW_AT_IMPORT!r} if m in sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env(), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert loaded == [], (
        f"importing nbformat/nbgrader loads {loaded}: jsonschema's IRI checker (rfc3987-syntax) "
        "compiles a grammar on import, 0.9 s per command; see the jsonschema bound in pyproject.toml")


def test_the_binder_pins_respect_the_bound():
    from packaging.requirements import Requirement
    from packaging.version import Version

    pins = {}
    for line in (REPO / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            req = Requirement(line)
            (spec,) = req.specifier
            pins[req.name.lower()] = Version(spec.version)
    import tomllib

    course = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]["course"]
    bound = next(Requirement(r) for r in course if Requirement(r).name == "jsonschema")
    assert pins["jsonschema"] in bound.specifier, (pins["jsonschema"], str(bound))
    assert "rfc3987-syntax" not in pins and "lark" not in pins
