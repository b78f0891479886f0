"""``python -m lessons hub-server`` (lessons/hub.py): a student's server on a JupyterHub.

What it starts and with which configuration, without starting it; the real one runs in
tests/hub/test_hub_course.py, a student's JupyterLab on a real hub in Chromium.
"""

from __future__ import annotations

import json
import os
import sys

from lessons import hub
from lessons.lab import CONFIG


def test_the_students_hub_configuration_keeps_the_assignments_tab_and_drops_the_instructors():
    server = json.loads((hub.HUB_CONFIG / "jupyter_server_config.json").read_text())
    extensions = server["ServerApp"]["jpserver_extensions"]
    assert extensions["nbgrader.server_extensions.assignment_list"] is True
    assert extensions["nbgrader.server_extensions.validate_assignment"] is True
    assert extensions["nbgrader.server_extensions.formgrader"] is False
    assert extensions["nbgrader.server_extensions.course_list"] is False
    assert server["LabApp"]["news_url"] is None
    page = json.loads((hub.HUB_CONFIG / "labconfig" / "page_config.json").read_text())
    disabled = {name for name, off in page["disabledExtensions"].items() if off}
    assert disabled == {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                        "@jupyter/nbgrader:course-list"}
    # the students' lab outside a hub (make lab, Binder) keeps all of nbgrader off
    lab = json.loads((CONFIG / "labconfig" / "page_config.json").read_text())
    assert lab["disabledExtensions"] == {"@jupyter/nbgrader": True}


def test_command_and_environment_put_the_hub_configuration_first_in_the_students_language():
    argv = hub.command("pt", ["--debug"])
    assert argv[:3] == [sys.executable, "-m", "jupyterhub.singleuser"]
    assert argv[3] == f"--LabApp.app_settings_dir={CONFIG / 'lab_settings' / 'pt'}" and argv[4:] == ["--debug"]
    assert (CONFIG / "lab_settings" / "pt" / "overrides.json").is_file()
    env = hub.environment("pt", base={"JUPYTER_CONFIG_PATH": "/etc/elsewhere", "PATH": "/usr/bin"})
    first, _, rest = env["JUPYTER_CONFIG_PATH"].partition(os.pathsep)
    assert first == str(hub.HUB_CONFIG) and rest == "/etc/elsewhere"
    assert env["MINITAPE_LAB_LANG"] == "pt" and env["PATH"] == "/usr/bin"


def test_refuses_to_serve_a_student_from_the_instructors_checkout(capsys, monkeypatch):
    monkeypatch.setenv("MINITAPE_LAB_LANG", "es")
    monkeypatch.setattr(os, "execve", lambda *a: (_ for _ in ()).throw(AssertionError("started")))
    assert hub.main([]) == 2     # this checkout holds lessons/src and grader/course/source
    err = capsys.readouterr().err
    assert err.startswith("error: instructor material can be reached from this server (")
    assert "python -m lessons student-dist" in err and err.count("\n") == 1


def test_an_unknown_language_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv("MINITAPE_LAB_LANG", "fr")
    assert hub.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: MINITAPE_LAB_LANG: ") and err.count("\n") == 1
