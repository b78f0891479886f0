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


# Two students' labs, each started once for the tests that need its command line: `python -m lessons
# lab --lang es` and plain `python -m lessons lab` on a Russian system (LANG=ru_RU.UTF-8), as students
# start them. Read-only tests: nothing a test does changes what another one reads.
LABS = {"es": (["--lang", "es"], {}), "system-ru": ([], {"LANG": "ru_RU.UTF-8"})}


@pytest.fixture(scope="module")
def students_labs(tmp_path_factory):
    """``{name: (base url, server log)}`` for LABS, started on first use and stopped with the module."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        started = {}

        def get(name):
            if name not in started:
                args, env = LABS[name]
                home = tmp_path_factory.mktemp(f"lab-{name}")
                started[name] = stack.enter_context(
                    _server([sys.executable, "-m", "lessons", "lab", *args], {**_env(home), **env}, home))
            return started[name]

        yield get


@pytest.mark.kernel  # a JupyterLab server
def test_students_lab_shows_lessons_only_and_no_nbgrader(students_labs):
    base, log = students_labs("system-ru")   # plain `python -m lessons lab`
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


# ---------------------------------------------------------------------------------------------
# JupyterLab's own interface in the course language the student chose (issue 27), no news prompt
# ---------------------------------------------------------------------------------------------
TRANSLATION = "@jupyterlab/translation-extension:plugin"
NOTIFICATION = "@jupyterlab/apputils-extension:notification"


@pytest.mark.parametrize("choice, env, lang", [
    ("es", {"LANG": "ru_RU.UTF-8"}, "es"),  # --lang wins
    ("RU", {}, "ru"),
    (None, {"MINITAPE_LANG": "pt", "LANG": "es_ES.UTF-8"}, "pt"),  # the course's own setting next
    (None, {"LANG": "pt_BR.UTF-8"}, "pt"),
    (None, {"LC_ALL": "es_AR.UTF-8", "LANG": "ru_RU.UTF-8"}, "es"),  # LC_ALL before LANG (POSIX)
    (None, {"LC_ALL": "", "LC_MESSAGES": "ru_RU", "LANG": "es_ES.UTF-8"}, "ru"),
    (None, {"LANG": "fr_FR.UTF-8"}, "en"),  # not a course language: English
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_lab_language_follows_the_students_choice(choice, env, lang):
    from lessons.lab import lab_language

    assert lab_language(choice, env) == lang


def test_lab_language_refuses_a_language_the_course_does_not_have():
    from lessons.lab import lab_language

    with pytest.raises(ValueError, match="en, es, pt, ru"):
        lab_language("fr")
    proc = subprocess.run([sys.executable, "-m", "lessons", "lab", "--lang", "fr"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "--lang 'fr'" in proc.stderr and "Starting" not in proc.stdout


def test_lab_settings_name_a_shipped_language_pack_and_turn_news_off():
    """lessons/jupyter_config/lab_settings/<lang>/overrides.json, one per course language: the
    locale of a language pack that Binder's requirements and the course extra install, the news
    prompt and update checks off; the server config picks the folder from MINITAPE_LAB_LANG."""
    import tomllib

    from lessons import LANGS
    from lessons.lab import CONFIG, LAB_LOCALES, environment

    assert set(LAB_LOCALES) == set(LANGS)
    pins = (REPO / "binder" / "requirements.txt").read_text(encoding="utf-8").lower()
    course = " ".join(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
                      ["project"]["optional-dependencies"]["course"]).lower()
    folders = sorted(p.name for p in (CONFIG / "lab_settings").iterdir())
    assert folders == sorted(LANGS)
    for lang, locale in LAB_LOCALES.items():
        overrides = json.loads((CONFIG / "lab_settings" / lang / "overrides.json").read_text(encoding="utf-8"))
        assert overrides[TRANSLATION] == {"locale": locale}
        assert overrides[NOTIFICATION] == {"fetchNews": "false", "checkForUpdates": False}
        if lang != "en":
            pack = "jupyterlab-language-pack-" + locale.replace("_", "-").lower()
            assert f"{pack}==" in pins and pack in course, pack
    server = json.loads((CONFIG / "jupyter_server_config.json").read_text(encoding="utf-8"))
    assert server["LabApp"]["news_url"] is None
    # the Python config file that points the server at the folder of the chosen language
    for lang, expected in [("ru", "ru"), ("", "en"), ("xx", "en")]:
        namespace = {"c": _Config(), "__file__": str(CONFIG / "jupyter_server_config.py")}
        old = os.environ.get("MINITAPE_LAB_LANG")
        os.environ["MINITAPE_LAB_LANG"] = lang
        try:
            exec((CONFIG / "jupyter_server_config.py").read_text(encoding="utf-8"), namespace)
        finally:
            os.environ.pop("MINITAPE_LAB_LANG") if old is None else os.environ.update(MINITAPE_LAB_LANG=old)
        assert namespace["c"].LabApp.app_settings_dir == str(CONFIG / "lab_settings" / expected)
    assert environment({}, lang="pt")["MINITAPE_LAB_LANG"] == "pt"
    with pytest.raises(ValueError):
        environment({}, lang="fr")


class _Config:
    """Enough of traitlets' config object for `c.LabApp.app_settings_dir = ...`."""

    def __init__(self):
        self.LabApp = type("Section", (), {})()


def _settings(base: str, plugin: str) -> dict:
    status, body = _get(f"{base}/lab/api/settings/{plugin}")
    assert status == 200, body[:500]
    return json.loads(body)


@pytest.mark.kernel  # a JupyterLab server
@pytest.mark.parametrize("lab, locale, word", [
    ("es", "es_ES", "Archivo"),
    ("system-ru", "ru_RU", "Файл"),  # no --lang: the system's language
])
def test_students_lab_serves_its_settings_in_the_chosen_language(students_labs, lab, locale, word):
    """What JupyterLab's page reads at start: the translation plugin's default locale is the
    chosen language's pack, the pack is installed (the translations API answers with its strings),
    and the news prompt is off."""
    base, log = students_labs(lab)
    translation = _settings(base, TRANSLATION)
    assert translation["schema"]["properties"]["locale"]["default"] == locale
    notification = _settings(base, NOTIFICATION)["schema"]["properties"]
    assert notification["fetchNews"]["default"] == "false"
    assert notification["checkForUpdates"]["default"] is False
    status, body = _get(f"{base}/lab/api/translations/{locale}")
    strings = json.loads(body)["data"]["jupyterlab"]
    assert status == 200 and strings["menu\x04File"] == [word]
    assert "interface in" in log.read_text()


@pytest.mark.browser
@pytest.mark.kernel  # a JupyterLab server
def test_students_lab_menu_bar_speaks_spanish(students_labs, browser):
    """One real page: with --lang es the menu bar's first menu reads 'Archivo', and no news
    prompt is shown."""
    base, _ = students_labs("es")
    page = browser.new_page()
    try:
        page.goto(f"{base}/lab?token={TOKEN}")
        page.wait_for_selector(".lm-MenuBar-itemLabel", timeout=60_000)
        page.wait_for_function("() => [...document.querySelectorAll('.lm-MenuBar-itemLabel')]"
                               ".some(e => e.textContent.trim() === 'Archivo')", timeout=60_000)
        labels = page.eval_on_selector_all(".lm-MenuBar-itemLabel", "els => els.map(e => e.textContent.trim())")
        lang = page.evaluate("() => document.documentElement.lang")
        page.wait_for_timeout(1500)
        toasts = page.inner_text("body")
    finally:
        page.close()
    assert labels[0] == "Archivo" and "File" not in labels, labels
    assert lang.startswith("es"), lang
    assert "Jupyter news" not in toasts and "noticias" not in toasts.lower()
