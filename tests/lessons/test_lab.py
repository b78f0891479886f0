"""The two JupyterLabs: the students' (`python -m lessons lab`, = `make lab`) and the instructors'
(`python -m grader lab`), started as users start them, with no virtualenv on PATH."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOKEN = "minitape-test-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "JPY_"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and "venv" not in p)
    env["HOME"] = str(tmp_path)  # no user-level Jupyter settings of this machine
    return env


def _get(url: str) -> tuple[int, str]:
    req = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@contextmanager
def _server(argv: list[str], env: dict, cwd: Path):
    port = _free_port()
    log = cwd / f"server-{port}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([*argv, "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                                 f"--IdentityProvider.token={TOKEN}"],
                                cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"server exited ({proc.returncode}):\n{log.read_text()}")
            try:
                if _get(f"{base}/api/status")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"server did not start:\n{log.read_text()}")
            time.sleep(0.5)
        yield base, log
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _page_config(html: str) -> dict:
    start = html.index('id="jupyter-config-data"')
    start = html.index(">", start) + 1
    return json.loads(html[start:html.index("</script>", start)])


@pytest.mark.kernel  # a JupyterLab server
def test_students_lab_shows_lessons_only_and_no_nbgrader(tmp_path):
    with _server([sys.executable, "-m", "lessons", "lab"], _env(tmp_path), tmp_path) as (base, log):
        status, body = _get(f"{base}/api/contents/")
        assert status == 200
        assert sorted(c["name"] for c in json.loads(body)["content"]) == ["en", "es", "pt", "ru"]
        status, body = _get(f"{base}/api/contents/es")
        names = sorted(c["name"] for c in json.loads(body)["content"])
        assert names and all(n.endswith(".ipynb") for n in names) and "01-gradients.ipynb" in names
        assert _get(f"{base}/formgrader")[0] == 404
        assert _get(f"{base}/assignments")[0] == 404
        status, html = _get(f"{base}/lab")
        assert status == 200
        assert "@jupyter/nbgrader" in _page_config(html)["disabledExtensions"]
        text = log.read_text()
    assert "nbgrader" not in text.lower(), text


@pytest.mark.kernel  # a JupyterLab server
def test_instructors_lab_has_nbgrader(tmp_path):
    course = tmp_path / "course"
    subprocess.run([sys.executable, "-m", "grader", "init-course", str(course)], check=True,
                   capture_output=True, env=_env(tmp_path))
    with _server([sys.executable, "-m", "grader", "lab", "--course", str(course)],
                 _env(tmp_path), tmp_path) as (base, log):
        # formgrader opens the course's gradebook: works with no virtualenv on PATH
        status, body = _get(f"{base}/formgrader/manage_assignments")
        assert status == 200, log.read_text()
        status, body = _get(f"{base}/formgrader/api/assignments")
        assert status == 200 and "01-gradients-es" in {a["name"] for a in json.loads(body)}, body[:500]
        status, html = _get(f"{base}/lab")
        assert "@jupyter/nbgrader" not in _page_config(html)["disabledExtensions"]
        status, body = _get(f"{base}/api/contents/")
        names = {c["name"] for c in json.loads(body)["content"]}
        assert {"nbgrader_config.py", "source"} <= names
    assert (course / "gradebook.db").exists()


def test_lab_commands_reject_a_missing_course(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "lab", "--course", str(tmp_path / "nope")],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=60)
    assert proc.returncode != 0 and "does not exist" in proc.stderr


@pytest.mark.parametrize("args", [["lab", "--help"], ["--help"]])
def test_lessons_cli_documents_lab(args):
    proc = subprocess.run([sys.executable, "-m", "lessons", *args], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and "lab" in proc.stdout
