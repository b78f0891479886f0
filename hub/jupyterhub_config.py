# JupyterHub for the minitape course on one machine (docs/jupyterhub.md): one system user per
# student and instructor, each user's JupyterLab a process of that user (LocalProcessSpawner) in
# their home folder, assignments through nbgrader's exchange (/etc/jupyter/nbgrader_config.py).
#
# Install: copy this file to /etc/jupyterhub/jupyterhub_config.py, set the site's settings below,
# and start the hub as root:
#     /opt/minitape/env/bin/jupyterhub -f /etc/jupyterhub/jupyterhub_config.py
# (docs/jupyterhub.md has a systemd unit for it). `make hub` (a demo) and tests/hub/ load this very
# file and set the site's settings through the MINITAPE_HUB_* variables.
import os

c = get_config()  # noqa: F821  (provided by JupyterHub when it loads this file)

# --- a site's settings ----------------------------------------------------------------------
# The hub's environment: a venv of the machine's Python with requirements/hub.txt (the course's
# pinned packages and jupyterhub) and the student distribution's wheel (no instructor material).
# Every user's server runs from it; it must be readable by everyone and writable by root only.
ENV = os.environ.get("MINITAPE_HUB_ENV", "/opt/minitape/env")
# configurable-http-proxy, installed with `npm ci` in a copy of this folder (package-lock.json)
PROXY = os.environ.get("MINITAPE_HUB_PROXY", "/opt/minitape/hub/node_modules/.bin/configurable-http-proxy")
# where the hub keeps its database and cookie secret (root only: chmod 0700)
STATE = os.environ.get("MINITAPE_HUB_STATE", "/srv/jupyterhub")
# where the hub listens: behind a TLS-terminating proxy (nginx, Caddy) on the same machine
BIND_URL = os.environ.get("MINITAPE_HUB_URL", "http://127.0.0.1:8000")
# the course's roster, the students.csv the instructor imports into the gradebook
# (nbgrader db student import), with a `lang` column: en, es, pt or ru
ROSTER = os.environ.get("MINITAPE_HUB_ROSTER", "/etc/jupyterhub/students.csv")
# the instructors' user names (the hub's admins), comma-separated
INSTRUCTORS = set(os.environ.get("MINITAPE_HUB_INSTRUCTORS", "ines").split(","))

LANGS = ("en", "es", "pt", "ru")


def read_roster(path: str) -> dict[str, str]:
    """{student id: course language} of the roster (a missing or unknown `lang` is English)."""
    import csv

    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as exc:
        raise SystemExit(f"error: the course's roster {path}: {exc.strerror} (MINITAPE_HUB_ROSTER; "
                         "docs/jupyterhub.md: copy the students.csv you import into the gradebook)") from None
    if rows and "id" not in rows[0]:
        raise SystemExit(f"error: {path}: the roster needs an `id` column (id,first_name,last_name,email,lang)")
    roster = {}
    for row in rows:
        lang = (row.get("lang") or "").strip().lower()
        if (row.get("id") or "").strip():
            roster[row["id"].strip()] = lang if lang in LANGS else "en"
    return roster


STUDENTS = read_roster(ROSTER)

# --- who logs in -----------------------------------------------------------------------------
# The machine's own users and passwords (PAM). Each student is a system user named by their id in
# the roster, which is what nbgrader's collect checks a submission's owner against; see
# docs/jupyterhub.md for creating them (or an OAuth authenticator with system users instead).
# The roster is read when the hub starts: restart it after changing students.csv.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = set(STUDENTS) | INSTRUCTORS
c.Authenticator.admin_users = INSTRUCTORS

# --- each user's server ----------------------------------------------------------------------
c.JupyterHub.spawner_class = "localprocess"
# students: JupyterLab in their language with nbgrader's Assignments tab and Validate button and
# nothing of the instructor's interface (python -m lessons hub-server, lessons/hub.py)
c.Spawner.cmd = [f"{ENV}/bin/python", "-m", "lessons", "hub-server"]
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"


def course_language(spawner) -> str:
    return STUDENTS.get(spawner.user.name, "en")


c.Spawner.environment = {"MINITAPE_LAB_LANG": course_language, "MINITAPE_LANG": course_language}


def instructor_server(spawner) -> None:
    """Instructors: jupyterhub-singleuser with nbgrader's whole interface (Formgrader, Create
    Assignment), in their course folder where they have one (~/autodiff)."""
    if spawner.user.name in INSTRUCTORS:
        spawner.cmd = [f"{ENV}/bin/jupyterhub-singleuser"]
        home = os.path.expanduser(f"~{spawner.user.name}")
        if os.path.isfile(os.path.join(home, "autodiff", "nbgrader_config.py")):
            # Formgrader reads the course's nbgrader_config.py from the server's working folder
            spawner.cmd = ["/bin/sh", "-c", f'cd "$HOME/autodiff" && exec {ENV}/bin/jupyterhub-singleuser "$@"',
                           "jupyterhub-singleuser"]
            spawner.notebook_dir = "~/autodiff"


c.Spawner.pre_spawn_hook = instructor_server

# --- the hub itself ---------------------------------------------------------------------------
c.JupyterHub.bind_url = BIND_URL
c.ConfigurableHTTPProxy.command = [PROXY]
c.JupyterHub.db_url = f"sqlite:///{STATE}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{STATE}/jupyterhub_cookie_secret"
c.ConfigurableHTTPProxy.pid_file = f"{STATE}/jupyterhub-proxy.pid"
