"""Reproduce what repo2docker (mybinder.org) does with binder/, and use the result.

Students' Binder runs the student distribution (`python -m lessons student-dist`, built here from
a clean copy of the project): its binder/requirements.txt is this checkout's pins with the course's
wheel instead of the checkout. repo2docker copies the repository, runs
`pip install -r binder/requirements.txt` from its root in the image's Python 3.11 environment, runs
`binder/postBuild` if there is one, and starts JupyterLab there through `binder/start`. This test
does the same in a fresh virtual environment, then imports the packages and executes notebooks
with a kernel of that environment, from the folder JupyterLab would start it in: the answers are
not there, and `check()` works from the visible cases shipped as data.
"""

from __future__ import annotations

import json
import stat
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from tests.support.project import PACKAGES, clean_env, run, student_distribution

# Executed inside the Binder venv: run one notebook with nbclient, report outputs as JSON.
EXECUTE = textwrap.dedent(
    """
    import json, sys
    import nbclient, nbformat
    path, cwd, allow_errors = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300, allow_errors=allow_errors,
                                     resources={"metadata": {"path": cwd}})
    client.execute()
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            cells.append({"source": cell.source, "outputs": cell.get("outputs", [])})
    json.dump(cells, sys.stdout)
    """
)

GRADIENT_NOTEBOOK = [
    "import sys\nimport minitape as tf\nimport grader\nimport lessons\nprint(sys.prefix)",
    "x = tf.Variable(3.0)\nwith tf.GradientTape() as tape:\n    y = x * x\nprint(float(tape.gradient(y, x).numpy()))",
    # the answers are not installed: no definitions, no course folder; check() works from data
    "import importlib.util, grader.student.registry\n"
    "print(importlib.util.find_spec('grader.course.definitions') is None, grader.student.registry.definitions_available())",
    "def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n        y = x ** 3 - 2 * x\n"
    "    return tape.gradient(y, x)\nfrom grader import check\nprint(check('l01_ex1').passed)",
]


def _errors(cells: list[dict]) -> list[tuple[str, str, str]]:
    return [(c["source"].splitlines()[0] if c["source"] else "", o["ename"], o["evalue"])
            for c in cells for o in c["outputs"] if o["output_type"] == "error"]


def _stream(cell: dict) -> str:
    return "".join(o["text"] for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout")


@pytest.mark.slow
@pytest.mark.install
def test_binder_environment_runs_the_course(tmp_path: Path) -> None:
    import shutil

    # what Binder links open: the student distribution, built from a copy of the project as a
    # fresh clone has it (once per session, shared with tests/lessons/test_student_access.py)
    project_copy = tmp_path / "minitape-student"
    shutil.copytree(student_distribution(), project_copy, symlinks=True)
    assert (project_copy / "binder/requirements.txt").is_file() and not (project_copy / "grader").exists()
    venv = tmp_path / "binder-venv"
    run([sys.executable, "-m", "venv", venv], cwd=tmp_path, env=clean_env(), timeout=300)
    py = venv / "bin" / "python"
    # Keep Jupyter's per-user folders out of the way so only the venv's kernel can be picked.
    jupyter_home = tmp_path / "jupyter-home"
    env = clean_env(venv, JUPYTER_CONFIG_DIR=str(jupyter_home / "config"),
                    JUPYTER_DATA_DIR=str(jupyter_home / "data"), IPYTHONDIR=str(jupyter_home / "ipython"),
                    MPLCONFIGDIR=str(jupyter_home / "matplotlib"), JUPYTER_PLATFORM_DIRS="1")

    # 1. what repo2docker runs, from the repository root (pip's cache keeps it reasonable), without
    #    compiling every installed module to bytecode up front (40 % of the install's CPU, 28.6 ->
    #    17.1 s): the kernels below compile what they import, and what is installed is the same.
    run([py, "-m", "pip", "install", "--quiet", "--no-compile", "-r", "binder/requirements.txt"],
        cwd=project_copy, env=env, timeout=1800)
    post_build = project_copy / "binder" / "postBuild"
    if post_build.exists():
        post_build.chmod(post_build.stat().st_mode | stat.S_IXUSR)
        run([post_build], cwd=project_copy, env=env, timeout=600)

    # 2. the packages import from the environment (not from the checkout) in a neutral folder.
    neutral = tmp_path / "elsewhere"
    neutral.mkdir()
    imports = ("import importlib, json; print(json.dumps({m: getattr(importlib.import_module(m), '__file__', None)"
               f" for m in {list(PACKAGES)!r}}}))")
    proc = run([py, "-c", imports], cwd=neutral, env=env, timeout=120)
    for package, file in json.loads(proc.stdout).items():
        assert file is not None, f"{package} has no __init__.py: it imports only as an empty namespace package"
        assert Path(file).resolve().is_relative_to(venv.resolve()), f"{package} imported from {file}"
    # the pins are consistent with every package's own requirements
    run([py, "-m", "pip", "check"], cwd=neutral, env=env, timeout=120)

    driver = tmp_path / "execute_notebook.py"
    driver.write_text(EXECUTE)

    def execute(notebook: Path, allow_errors: bool) -> list[dict]:
        proc = run([py, driver, notebook, notebook.parent, "1" if allow_errors else "0"],
                   cwd=notebook.parent, env=env, timeout=900)
        return json.loads(proc.stdout)

    # 3. a kernel of the environment computes a gradient with minitape.
    tiny = project_copy / "binder-smoke.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in GRADIENT_NOTEBOOK])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tiny)
    cells = execute(tiny, allow_errors=False)
    assert Path(_stream(cells[0]).strip()).resolve() == venv.resolve(), "kernel ran outside the Binder venv"
    assert _stream(cells[1]).strip() == "6.0"
    assert _stream(cells[2]).split() == ["True", "False"]
    assert _stream(cells[3]).strip() == "True"

    # binder/start puts the installed course's students' configuration first and starts the server
    out = run([project_copy / "binder/start", "sh", "-c", 'printf %s "$JUPYTER_CONFIG_PATH"'],
              cwd=project_copy, env=dict(env, JUPYTER_CONFIG_PATH="/elsewhere"), timeout=120).stdout
    first, rest = out.split(":", 1)
    assert Path(first).is_relative_to(venv) and Path(first).name == "jupyter_config" and rest == "/elsewhere"
    assert (Path(first) / "labconfig/page_config.json").is_file()

    # 4. the first lesson, as a Binder student opens it (lessons/en/01-*.ipynb), when it exists.
    #    The only error a student notebook may show before the student writes anything is an
    #    unfilled exercise stub (nbgrader's `raise NotImplementedError()`).
    lessons = sorted((project_copy / "lessons" / "en").glob("01-*.ipynb"))
    if lessons:
        cells = execute(lessons[0], allow_errors=True)
        unexpected = [e for e in _errors(cells) if e[1] != "NotImplementedError"]
        assert not unexpected, f"{lessons[0].name} fails in the Binder environment: {unexpected}"
        assert sum(bool(c["outputs"]) for c in cells) >= 3, f"{lessons[0].name} produced (almost) no output"
