"""A real JupyterHub for the course on this machine: ``make hub`` (a demo) and tests/hub/ build it.

It is the production setup of docs/jupyterhub.md, made in one folder instead of /opt, /srv and
/etc, with these parts, each made the way the docs say:

* **system users**, one per student and one instructor, each with a private home (mode 0700),
  created with ``useradd`` and named ``<name>-<tag>`` (the comment ``minitape hub <tag> pid N``
  marks them; :func:`remove_stale_users` deletes those whose process is gone);
* **the hub's environment** (``env/``): a venv of the machine's own Python with
  ``requirements/hub.txt`` (uv, from its cache) and the student distribution's wheel: every
  user's server and the instructor's commands run from it;
* **nbgrader's exchange** (``exchange/``, mode 0777 as nbgrader documents) and the hub's
  ``nbgrader_config.py`` (``etc/jupyter/``: ``hub/nbgrader_config.py`` with the exchange's path);
* **the roster** ``students.csv`` (id, names, e-mail, lang) and **configurable-http-proxy** from
  npm (``hub/package-lock.json``, run with the machine's Node.js);
* **the hub**: ``env/bin/jupyterhub`` with ``hub/jupyterhub_config.py`` loaded as is, plus what a
  demo or a test changes (:func:`write_hub_config`): ports on 127.0.0.1, JupyterHub's
  ``DummyAuthenticator`` instead of PAM (no passwords to set), ``etc/jupyter`` on the servers'
  configuration path instead of ``/etc/jupyter``, and the checkout this runs from hidden from
  the students' servers (a bubblewrap mount namespace): on a real hub the instructor's checkout
  lives in the instructor's private home, here it is wherever it was cloned.

Runs as root (it creates users and starts servers as them). Nothing outside ``root`` is changed
but the system users (deleted by :meth:`Site.remove`).
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import json
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HUB = REPO / "hub"
PROXY = HUB / "node_modules" / ".bin" / "configurable-http-proxy"
COURSE_ID = "minitape-autodiff"
MARK = "minitape hub"
SUPPORTED_PYTHONS = ("3.11", "3.12", "3.13")


class HubError(RuntimeError):
    """A step of building the hub failed; the message says which and why."""


def step(message: str, log=print):
    """Say what is being done (long steps of a demo need progress output)."""
    log(f"==> {message}")


# ---------------------------------------------------------------------------------------------
# configurable-http-proxy (npm) and the hub's environment (uv)
# ---------------------------------------------------------------------------------------------
def install_proxy() -> Path:
    """configurable-http-proxy of hub/package-lock.json, installed with `npm ci` when missing or
    another version; the path of its command."""
    pinned = json.loads((HUB / "package.json").read_text())["dependencies"]["configurable-http-proxy"]
    installed = HUB / "node_modules" / "configurable-http-proxy" / "package.json"
    with open(HUB / ".install.lock", "w") as lock:  # one `npm ci` at a time (test workers)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed.exists() or json.loads(installed.read_text())["version"] != pinned:
            npm = shutil.which("npm")
            if npm is None or shutil.which("node") is None:
                raise HubError("Node.js and npm are needed for JupyterHub's proxy "
                               "(configurable-http-proxy): apt-get install nodejs npm")
            run = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HUB,
                                 capture_output=True, text=True, timeout=300)
            if run.returncode != 0:
                raise HubError(f"npm ci in {HUB} failed:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    return PROXY


def _world_executable(path: Path) -> bool:
    """Whether every user can run ``path``, or reach it if it is a folder (it and every folder
    above it searchable by others)."""
    path = path.resolve()
    return all(os.stat(p).st_mode & stat.S_IXOTH for p in [path, *path.parents])


def shared_python() -> str:
    """A Python 3.11-3.13 every user of the machine can run (the system's: a pyenv interpreter
    under /root is not one); the hub's environment is a venv of it."""
    for version in SUPPORTED_PYTHONS:
        for folder in ("/usr/bin", "/usr/local/bin"):
            candidate = Path(folder) / f"python{version}"
            if candidate.exists() and _world_executable(candidate):
                probe = subprocess.run([str(candidate), "-c", "import venv"], capture_output=True)
                if probe.returncode == 0:
                    return str(candidate)
    raise HubError("no Python 3.11-3.13 that every user can run, with venv: apt-get install python3 python3-venv")


def build_env(env: Path, wheel: Path, log=print) -> Path:
    """The hub's environment at ``env``: requirements/hub.txt and the student wheel ``wheel``."""
    step(f"The hub's environment in {env}: requirements/hub.txt and {wheel.name} (uv; seconds with its cache)", log)
    python = shared_python()
    subprocess.run([python, "-m", "venv", "--without-pip", str(env)], check=True)
    # --system-certs: the machine's certificate store, as pip uses it (uv's own roots refuse an
    # index behind a proxy or mirror with a local certificate authority)
    uv = [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--system-certs",
          "--python", str(env / "bin" / "python")]
    for args in (["--require-hashes", "-r", str(REPO / "requirements" / "hub.txt")], ["--no-deps", str(wheel)]):
        run = subprocess.run(uv + args, capture_output=True, text=True, timeout=900)
        if run.returncode != 0:
            raise HubError(f"installing the hub's environment failed ({' '.join(args)}):\n{run.stderr[-3000:]}")
    return env


# ---------------------------------------------------------------------------------------------
# system users
# ---------------------------------------------------------------------------------------------
def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_users(log=print) -> list[str]:
    """Delete the system users an earlier hub of this module left (its process is gone)."""
    removed = []
    for entry in pwd.getpwall():
        words = entry.pw_gecos.split()
        if entry.pw_gecos.startswith(MARK) and len(words) >= 5 and words[-2] == "pid" and words[-1].isdigit():
            if not _pid_alive(int(words[-1])):
                delete_user(entry.pw_name)
                removed.append(entry.pw_name)
    if removed:
        log(f"removed system users left by an earlier hub: {', '.join(removed)}")
    return removed


def create_user(name: str, home: Path, tag: str) -> pwd.struct_passwd:
    """A system user ``name`` with its own group and the private home ``home`` (mode 0700)."""
    run = subprocess.run(["useradd", "--create-home", "--home-dir", str(home), "--shell", "/bin/bash",
                          "--user-group", "--comment", f"{MARK} {tag} pid {os.getpid()}", name],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise HubError(f"useradd {name} failed: {run.stderr.strip()}")
    home.chmod(0o700)
    return pwd.getpwnam(name)


def delete_user(name: str) -> None:
    if shutil.which("pkill"):
        subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
    subprocess.run(["userdel", "--remove", name], capture_output=True)


# ---------------------------------------------------------------------------------------------
# the site
# ---------------------------------------------------------------------------------------------
@dataclass
class Site:
    """Everything of one hub, under ``root``."""

    root: Path
    tag: str
    instructor: str
    students: dict[str, str]                      # id -> course language
    names: dict[str, tuple[str, str]] = field(default_factory=dict)   # id -> (first, last)
    hide: list[Path] = field(default_factory=list)  # hidden from students' servers
    port: int = 0

    @property
    def env(self) -> Path:
        return self.root / "env"

    @property
    def exchange(self) -> Path:
        return self.root / "exchange"

    @property
    def etc(self) -> Path:
        return self.root / "etc" / "jupyter"

    @property
    def state(self) -> Path:
        return self.root / "state"

    @property
    def roster(self) -> Path:
        return self.root / "students.csv"

    @property
    def homes(self) -> Path:
        return self.root / "home"

    def home(self, user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    @property
    def course(self) -> Path:
        return self.home(self.instructor) / "autodiff"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def users(self) -> list[str]:
        return [self.instructor, *self.students]

    # -- making it ---------------------------------------------------------------------------
    def make_folders(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)            # users reach their homes, the exchange and the env
        self.homes.mkdir(exist_ok=True)
        self.homes.chmod(0o755)
        self.state.mkdir(exist_ok=True)
        self.state.chmod(0o700)           # the hub's database and cookie secret: root only
        # nbgrader's exchange: "readable and writable by everyone" (mkdir; chmod ugo+rw)
        self.exchange.mkdir(exist_ok=True)
        self.exchange.chmod(0o777)
        self.etc.mkdir(parents=True, exist_ok=True)
        self.write_nbgrader_config()
        self.write_roster()

    def write_nbgrader_config(self) -> None:
        """hub/nbgrader_config.py with this site's exchange instead of /srv/nbgrader/exchange."""
        text = (HUB / "nbgrader_config.py").read_text(encoding="utf-8")
        production = 'c.Exchange.root = "/srv/nbgrader/exchange"'
        if text.count(production) != 1:
            raise HubError(f"hub/nbgrader_config.py no longer sets {production}")
        (self.etc / "nbgrader_config.py").write_text(
            text.replace(production, f"c.Exchange.root = {str(self.exchange)!r}"), encoding="utf-8")

    def write_roster(self) -> None:
        with open(self.roster, "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["id", "first_name", "last_name", "email", "lang"])
            for student, lang in self.students.items():
                first, last = self.names.get(student, (student.split("-")[0].title(), "Student"))
                out.writerow([student, first, last, f"{student}@example.org", lang])
        self.roster.chmod(0o644)

    def make_users(self, log=print) -> None:
        step(f"System users: {self.instructor} (instructor), {', '.join(self.students)} (students), "
             f"homes in {self.homes} (0700)", log)
        for user in self.users:
            create_user(user, self.homes / user, self.tag)

    def remove(self) -> None:
        """Delete the system users and the site's folder."""
        for user in self.users:
            with contextlib.suppress(KeyError):
                pwd.getpwnam(user)
                delete_user(user)
        shutil.rmtree(self.root, ignore_errors=True)

    # -- acting as a user ----------------------------------------------------------------------
    def user_env(self, user: str, **extra: str) -> dict[str, str]:
        """The environment of ``user``'s commands: the hub's environment first on PATH, the
        hub's nbgrader configuration (as /etc/jupyter is on a real hub), their home."""
        return {"PATH": f"{self.env / 'bin'}:/usr/local/bin:/usr/bin:/bin", "HOME": str(self.home(user)),
                "USER": user, "LOGNAME": user, "LANG": "C.UTF-8", "JUPYTER_CONFIG_PATH": str(self.etc),
                **extra}

    def run_as(self, user: str, argv: list[str], cwd: Path | None = None, timeout: float = 900,
               check: bool = True, **extra_env: str) -> subprocess.CompletedProcess:
        """Run ``argv`` as the system user ``user`` (in their home unless ``cwd``)."""
        entry = pwd.getpwnam(user)
        proc = subprocess.run([str(a) for a in argv], cwd=cwd or entry.pw_dir, env=self.user_env(user, **extra_env),
                              user=entry.pw_uid, group=entry.pw_gid, extra_groups=[], capture_output=True,
                              text=True, timeout=timeout)
        if check and proc.returncode != 0:
            raise HubError(f"{' '.join(map(str, argv))} as {user} failed ({proc.returncode}):\n"
                           f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
        return proc

    def instructor_run(self, *argv: str, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
        """A command of the hub's environment (nbgrader, python -m grader) run by the instructor in
        the course folder."""
        exe = self.env / "bin" / argv[0]
        return self.run_as(self.instructor, [str(exe), *argv[1:]], cwd=self.course, check=check, timeout=timeout)

    # -- the instructor's course --------------------------------------------------------------
    def make_course(self, assignments: list[str], released: Path | None = None, log=print) -> None:
        """The instructor's course folder ``~<instructor>/autodiff``: ``python -m grader
        init-course`` (run from this checkout: the instructor material is only here) and, as the
        instructor, ``nbgrader generate_assignment`` of ``assignments`` -- or a copy of
        ``released``, a course folder where that was done (the tests share one) -- then the roster
        imported and the assignments released into the exchange."""
        course = self.course
        if released is None:
            step(f"The course folder {course}: python -m grader init-course, nbgrader generate_assignment "
                 f"{' '.join(assignments)} (about 15 s each)", log)
            subprocess.run([sys.executable, "-m", "grader", "init-course", str(course)], check=True,
                           capture_output=True, timeout=300)
        else:
            step(f"The course folder {course}: a copy of a course with {' '.join(assignments)} generated", log)
            shutil.copytree(released, course, ignore=shutil.ignore_patterns("__pycache__"))
        entry = pwd.getpwnam(self.instructor)
        for path in [course, *course.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
        if released is None:
            for assignment in assignments:
                self.instructor_run("nbgrader", "generate_assignment", assignment)
        shutil.copy2(self.roster, course / "students.csv")
        os.chown(course / "students.csv", entry.pw_uid, entry.pw_gid)
        step(f"As {self.instructor}: nbgrader db student import students.csv, nbgrader release_assignment "
             f"{' '.join(assignments)}", log)
        self.instructor_run("nbgrader", "db", "student", "import", "students.csv")
        for assignment in assignments:
            self.instructor_run("nbgrader", "release_assignment", assignment)

    # -- the hub -------------------------------------------------------------------------------
    def write_hub_config(self, proxy_api_port: int, hub_port: int, service_token: str) -> Path:
        """hub/jupyterhub_config.py loaded as is, and what this site changes (see the module's doc)."""
        hidden = []
        for path in self.hide:   # a folder other users cannot reach is hidden already (and cannot be mounted over)
            if path.exists() and _world_executable(path):
                hidden += ["--tmpfs", str(path)]
        text = f'''# Generated by hub/course_hub.py: the production configuration, and what a demo or a test changes.
load_subconfig({str(HUB / "jupyterhub_config.py")!r})  # noqa: F821
c = get_config()  # noqa: F821
# no passwords to set up: any password logs a roster user in (a demo, a test)
c.JupyterHub.authenticator_class = "dummy"
# the hub's nbgrader configuration, where /etc/jupyter/nbgrader_config.py is on a real hub
c.Spawner.environment["JUPYTER_CONFIG_PATH"] = {str(self.etc)!r}
# the checkout this hub is built from, hidden from students' servers (on a real hub it is in the
# instructor's private home): a bubblewrap mount namespace around the production command
c.Spawner.cmd = ["bwrap", "--dev-bind", "/", "/", *{hidden!r}, "--die-with-parent", "--", *c.Spawner.cmd]
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
# a loaded machine (a test run) starts servers slowly
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
# a service whose token the test or the demo uses on the hub's API (servers, users' tokens)
c.JupyterHub.services = [{{"name": "course-admin", "api_token": {service_token!r}}}]
c.JupyterHub.load_roles = [{{"name": "course-admin", "services": ["course-admin"],
                            "scopes": ["admin:users", "admin:servers", "tokens", "access:servers", "list:users",
                                       "read:users"]}}]
'''
        path = self.state / "jupyterhub_config.py"
        path.write_text(text, encoding="utf-8")
        return path

    def hub_environment(self) -> dict[str, str]:
        return {"PATH": f"{self.env / 'bin'}:/usr/local/bin:/usr/bin:/bin", "HOME": str(self.state),
                "LANG": "C.UTF-8", "MINITAPE_HUB_ENV": str(self.env), "MINITAPE_HUB_PROXY": str(PROXY),
                "MINITAPE_HUB_STATE": str(self.state), "MINITAPE_HUB_URL": self.url,
                "MINITAPE_HUB_ROSTER": str(self.roster), "MINITAPE_HUB_INSTRUCTORS": self.instructor}


@dataclass
class RunningHub:
    site: Site
    process: subprocess.Popen
    log: Path
    token: str      # the course-admin service's API token

    def api(self, method: str, path: str, body: dict | None = None, token: str | None = None,
            timeout: float = 60):
        """The hub's REST API (/hub/api/...) with the service's token; the decoded JSON or None."""
        import urllib.request

        req = urllib.request.Request(f"{self.site.url}/hub/api/{path.lstrip('/')}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"token {token or self.token}"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            data = resp.read()
        return json.loads(data) if data else None

    def user_token(self, user: str) -> str:
        """An API token of ``user`` (to reach their server as them)."""
        return self.api("POST", f"users/{user}/tokens", {"note": "course test", "expires_in": 3600})["token"]

    def wait_for_server(self, user: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            model = self.api("GET", f"users/{user}")
            server = model.get("servers", {}).get("", {})
            if server.get("ready"):
                return
            if self.process.poll() is not None:
                raise HubError(f"the hub exited:\n{self.log.read_text()[-4000:]}")
            time.sleep(0.5)
        raise HubError(f"{user}'s server did not start in {timeout:.0f} s:\n{self.log.read_text()[-4000:]}")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_hub(site: Site, log: Path, timeout: float = 120) -> Iterator[RunningHub]:
    """``env/bin/jupyterhub`` with the site's configuration, until the hub answers; stopped (with
    every server it started) on the way out."""
    from tests.support.server import running_server

    site.port = site.port or free_port()
    token = secrets.token_hex(24)
    config = site.write_hub_config(free_port(), free_port(), token)
    argv = [str(site.env / "bin" / "jupyterhub"), "-f", str(config)]
    with running_server(argv, cwd=site.state, env=site.hub_environment(), log=log,
                        status_url=f"{site.url}/hub/api/", name="JupyterHub", timeout=timeout) as proc:
        yield RunningHub(site, proc, log, token)


# ---------------------------------------------------------------------------------------------
# make hub: the demo
# ---------------------------------------------------------------------------------------------
DEMO_STUDENTS = {"ana": "es", "ben": "pt"}
DEMO_NAMES = {"ana": ("Ana", "Pérez"), "ben": ("Ben", "Souza")}


def main(argv: list[str] | None = None) -> int:
    """``make hub``: the course on a real JupyterHub on 127.0.0.1, until Ctrl+C."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(prog="python -m hub.course_hub", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/minitape-hub"),
                        help="the folder the hub's users, exchange and environment live in (default /tmp/minitape-hub)")
    parser.add_argument("--port", type=int, default=8000, help="the hub's port on 127.0.0.1 (default 8000)")
    parser.add_argument("--tag", default="demo", help="the users' suffix: ana-TAG, ben-TAG, ines-TAG (default demo)")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("error: make hub creates the hub's system users (one per student, as on a real hub) and "
              "starts servers as them: run it as root (sudo make hub)", file=sys.stderr)
        return 2
    missing = [tool for tool in ("useradd", "bwrap", "node", "npm") if shutil.which(tool) is None]
    if missing:
        print(f"error: make hub needs {', '.join(missing)}: apt-get install passwd bubblewrap nodejs npm",
              file=sys.stderr)
        return 2
    if args.root.exists() and any(args.root.iterdir()):
        print(f"error: {args.root} is not empty (another hub, or one that did not stop cleanly): remove it "
              "or choose another folder: make hub HUB_ROOT=/tmp/other-hub", file=sys.stderr)
        return 2
    remove_stale_users()
    students = {f"{name}-{args.tag}": lang for name, lang in DEMO_STUDENTS.items()}
    taken = [u for u in [*students, f"ines-{args.tag}"] if _exists(u)]
    if taken:
        print(f"error: the system users {', '.join(taken)} exist already (a hub still running?): stop it, "
              "or choose other names: make hub HUB_TAG=other", file=sys.stderr)
        return 2
    site = Site(root=args.root, tag=args.tag, instructor=f"ines-{args.tag}", students=students,
                names={f"{n}-{args.tag}": v for n, v in DEMO_NAMES.items()}, hide=[REPO], port=args.port)
    # Ctrl+C (even where a shell started this with SIGINT ignored) and SIGTERM stop and clean up
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        site.make_folders()
        step("The student distribution (python -m lessons student-dist; about 30 s)")
        dist = args.root / "student-dist"
        subprocess.run([sys.executable, "-m", "lessons", "student-dist", str(dist), "--allow-placeholder"],
                       check=True, cwd=REPO)
        step("configurable-http-proxy (npm ci, hub/package-lock.json)")
        install_proxy()
        site.make_users()
        build_env(site.env, next((dist / "binder").glob("minitape-*.whl")))
        site.make_course([f"01-gradients-{lang}" for lang in DEMO_STUDENTS.values()])
        step(f"JupyterHub on {site.url} (log: {site.state / 'hub.log'})")
        with running_hub(site, site.state / "hub.log"):
            print(f"""
JupyterHub is running: {site.url}
  log in (any password) as {', '.join(f'{u} ({lang})' for u, lang in students.items())}: JupyterLab in
  their language, Nbgrader > Assignment List: fetch, validate, submit, fetch feedback;
  or as {site.instructor}, the instructor (Formgrader, the course folder {site.course}).
The instructor's commands, in a terminal of their server (in {site.course}), or here as root:
  runuser -u {site.instructor} -- env HOME={site.home(site.instructor)} PATH={site.env}/bin:/usr/bin:/bin \\
      JUPYTER_CONFIG_PATH={site.etc} sh -c 'cd {site.course} && nbgrader collect 01-gradients-es && \\
      python -m grader autograde-all 01-gradients-es && nbgrader generate_feedback 01-gradients-es && \\
      nbgrader release_feedback 01-gradients-es'
Ctrl+C stops the hub and removes its users and {site.root}.""", flush=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        print("\nstopping: the hub, its servers, its users and their homes", flush=True)
    except (HubError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        site.remove()
    return 0


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
