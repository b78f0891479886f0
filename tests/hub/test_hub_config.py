"""hub/jupyterhub_config.py read as JupyterHub reads it, without starting a hub: the roster decides
who logs in and each student's language, the instructors are the admins, and a missing or
malformed roster stops the hub with one line. (The hub itself: test_hub_course.py.)"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "hub" / "jupyterhub_config.py"


def load(monkeypatch, roster: Path, instructors: str = "ines"):
    from traitlets.config.loader import PyFileConfigLoader

    monkeypatch.setenv("MINITAPE_HUB_ROSTER", str(roster))
    monkeypatch.setenv("MINITAPE_HUB_INSTRUCTORS", instructors)
    monkeypatch.setenv("MINITAPE_HUB_ENV", "/opt/env")
    return PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()


def spawner(name: str):
    return SimpleNamespace(user=SimpleNamespace(name=name), cmd=["students"], notebook_dir="~")


def test_the_roster_is_who_logs_in_and_in_which_language(tmp_path, monkeypatch):
    roster = tmp_path / "students.csv"
    roster.write_text("id,first_name,last_name,email,lang\nana,Ana,P,a@x,es\nben,Ben,S,b@x,PT\n"
                      "olga,Olga,K,o@x,ru\nzoe,Zoe,Z,z@x,\nyan,Yan,Y,y@x,fr\n", encoding="utf-8")
    c = load(monkeypatch, roster, "ines,ivan")
    assert c.Authenticator.allowed_users == {"ana", "ben", "olga", "zoe", "yan", "ines", "ivan"}
    assert c.Authenticator.admin_users == {"ines", "ivan"}
    language = c.Spawner.environment["MINITAPE_LAB_LANG"]
    assert [language(spawner(n)) for n in ("ana", "ben", "olga", "zoe", "yan", "ines")] == \
        ["es", "pt", "ru", "en", "en", "en"]
    assert c.Spawner.cmd == ["/opt/env/bin/python", "-m", "lessons", "hub-server"]
    assert c.JupyterHub.spawner_class == "localprocess" and c.Spawner.default_url == "/lab"
    # instructors: nbgrader's whole interface (jupyterhub-singleuser), students untouched
    instructor, student = spawner("ines"), spawner("ana")
    c.Spawner.pre_spawn_hook(instructor)
    c.Spawner.pre_spawn_hook(student)
    assert instructor.cmd == ["/opt/env/bin/jupyterhub-singleuser"] and student.cmd == ["students"]
    assert instructor.notebook_dir == "~"      # no ~ines/autodiff on this machine


def test_a_missing_or_malformed_roster_stops_the_hub_with_one_line(tmp_path, monkeypatch):
    with pytest.raises(SystemExit) as stop:
        load(monkeypatch, tmp_path / "nowhere.csv")
    assert str(stop.value).startswith(f"error: the course's roster {tmp_path / 'nowhere.csv'}: No such file")
    bad = tmp_path / "bad.csv"
    bad.write_text("name,lang\nana,es\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        load(monkeypatch, bad)
    assert "the roster needs an `id` column" in str(stop.value) and "\n" not in str(stop.value)


def test_make_hub_refuses_with_one_line_where_it_cannot_run(tmp_path, monkeypatch, capsys):
    from hub import course_hub

    monkeypatch.setattr(course_hub.os, "geteuid", lambda: 1000)
    assert course_hub.main(["--root", str(tmp_path / "hub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: make hub creates the hub's system users") and "sudo make hub" in err
    assert err.count("\n") == 1
    monkeypatch.setattr(course_hub.os, "geteuid", lambda: 0)
    monkeypatch.setattr(course_hub.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    (tmp_path / "hub").mkdir()
    (tmp_path / "hub" / "left-over").write_text("")
    assert course_hub.main(["--root", str(tmp_path / "hub")]) == 2
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'hub'} is not empty" in err and err.count("\n") == 1
