"""The sandbox a submission's kernel runs in while it is autograded (Linux, bubblewrap).

A kernel runs the student's code. Without a sandbox it runs as the instructor, inside the course
folder, and can read the gradebook and the instructor's solutions, write into other students'
folders, open network connections and leave processes behind. Here every kernel runs under
`bubblewrap <https://github.com/containers/bubblewrap>`_ (``bwrap``, the sandbox Flatpak uses):

- **files**: a new mount namespace whose root holds only ``/usr`` (read-only), a few files of
  ``/etc`` (dynamic linker cache, time zone, users, fonts), the Python installation and its
  third-party packages (read-only), minitape/grader/lessons *as a student installs them* (the
  student wheel's contents, :mod:`grader.infra.student_site`; never the instructor's package folders,
  whatever way they are installed), a private ``/tmp`` and ``/dev``, and a *scratch copy* of
  the submission's folder (a copy in the kernel's size-limited tmpfs) -- with ``/tmp`` and
  ``/dev/shm`` the only places it can write (the sandbox's root and ``/dev`` are read-only, its
  connection folder read-only to it once its sockets are bound: :mod:`grader.infra.zygote`). Not there: the course folder
  (``gradebook.db``, ``nbgrader_config.py``, ``source/``, other students' folders), the
  instructor's home, the grader's work files, the rest of the repository. Nothing the kernel
  writes is copied back: nbgrader takes the executed notebook from the kernel's messages, and
  the scratch copy is deleted when the kernel is shut down.
- **network**: a network namespace of its own with only a loopback device; the kernel talks to
  the grading worker over Unix sockets (jupyter's ``ipc`` transport) in its scratch folder.
- **processes**: PID, IPC and UTS namespaces; the kernel is started (or forked from the
  preloaded zygote, :mod:`grader.infra.kernels`) so that it is PID 1 of a namespace of its own: when
  it ends, or when the worker is killed, every process it started dies with it.
- **limits** (``setrlimit``): address space, CPU seconds, size of a written file, number of
  processes, no core files; ``/tmp`` is a size-limited ``tmpfs``.
- **user**: run by root, the sandbox drops to the unprivileged user ``nobody`` (bwrap sets the
  sandbox up as root, ``setpriv`` then drops the user and every capability; so the process
  limit is enforced and a file only root may read stays unreadable); otherwise it runs as the
  instructor's user, in a user namespace without capabilities.

What it does not guarantee is in grader/README.md ("Sandbox").
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Limits", "Sandbox", "SandboxError", "find_bwrap", "NO_SANDBOX_WARNING"]

NO_SANDBOX_WARNING = (
    "WARNING: grading without a sandbox (--no-sandbox). Every student's code runs as you, in the "
    "course folder: it can read the gradebook, the instructor notebooks (solutions and hidden "
    "tests) and other students' submissions, change grades and files, use the network, and leave "
    "processes running after grading. Use it only for submissions you trust.")

# files of /etc a Python kernel reads (the dynamic linker, time zone, user names, fonts)
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd", "group",
             "nsswitch.conf", "fonts", "mime.types", "locale.alias", "alternatives")
# environment variables a kernel gets from the worker; everything else (tokens, the
# instructor's paths) stays outside
ENV_NAMES = ("PATH", "LANG", "LANGUAGE", "TZ")
ENV_PREFIXES = ("LC_", "PYTHON", "MPL", "MINITAPE_", "GRADER_", "JPY_", "NBGRADER_", "OMP_",
                "OPENBLAS_", "MKL_", "NUMEXPR_")
SANDBOX_HOME = "/tmp/home"
MAX_COPY_MB = 512  # the most a kernel's working folder (a submission) may hold


class SandboxError(RuntimeError):
    """The sandbox cannot be used here (no bubblewrap, no user namespaces, unreadable files)."""


def find_bwrap() -> str | None:
    return shutil.which("bwrap")


@dataclass
class Limits:
    """Per-kernel resource limits (``None``: no limit)."""

    memory_mb: int | None = 4096      # address space of each process (RLIMIT_AS)
    cpu_seconds: int | None = 1800    # CPU time of each process (RLIMIT_CPU)
    processes: int | None = 256       # processes and threads of one kernel (RLIMIT_NPROC)
    file_size_mb: int | None = 256    # largest file it may write (RLIMIT_FSIZE)
    tmp_mb: int = 256                 # size of its /tmp

    def rlimits(self) -> dict:
        mb = 1024 * 1024
        return {"address_space": None if self.memory_mb is None else self.memory_mb * mb,
                "cpu_seconds": self.cpu_seconds, "processes": self.processes,
                "file_size": None if self.file_size_mb is None else self.file_size_mb * mb,
                "core": 0}


def _under(path: str, roots) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def _python_paths(python: str, exclude=()) -> tuple[list[str], list[str]]:
    """Folders the interpreter ``python`` imports from: its prefixes and ``sys.path`` (without
    the folders ``exclude`` and what lies under them), and the project's own package folders and
    editable-install files (``__editable__*``) inside those: (folders to bind read-only, what to
    hide under them). The project's packages never come from the instructor's installation
    (an editable install maps them to the checkout, whose ``lessons/src`` holds the solutions):
    a sandboxed kernel imports them from the student site (:mod:`grader.infra.student_site`)."""
    probe = ("import json, sys, importlib.util\n"
             "maps = [dict(getattr(m, 'MAPPING', {})) for n, m in list(sys.modules.items())\n"
             "        if n.startswith('__editable__')]\n"
             "own = []\n"
             "for name in ('minitape', 'grader', 'lessons'):\n"
             "    try:\n"
             "        spec = importlib.util.find_spec(name)\n"
             "    except Exception:\n"
             "        spec = None\n"
             "    if spec is not None and spec.submodule_search_locations:\n"
             "        own += list(spec.submodule_search_locations)\n"
             "print(json.dumps({'prefixes': [sys.prefix, sys.base_prefix, sys.exec_prefix,\n"
             "                               sys.base_exec_prefix], 'path': sys.path[1:],\n"
             "                  'mapped': [p for m in maps for p in m.values()], 'own': own}))")
    env = {k: v for k, v in os.environ.items() if k.startswith("PYTHON") or k in ("PATH", "HOME")}
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, cwd="/", env=env,
                         timeout=60)
    if out.returncode != 0:
        raise SandboxError(f"cannot ask {python} for its import paths: {out.stderr.strip()[-500:]}")
    info = json.loads(out.stdout)
    binds: list[str] = []
    # the project's packages as the instructor installed them (checkout, editable, site-packages)
    own = sorted({os.path.realpath(p) for p in [*info["own"], *info["mapped"]]})
    excluded = own + [os.path.realpath(p) for p in exclude]

    def add(path: str) -> None:
        real = os.path.realpath(path)
        if (os.path.exists(real) and not _under(real, ["/usr"]) and real not in binds
                and not _under(real, excluded)):
            binds.append(real)

    prefixes = [os.path.realpath(p) for p in info["prefixes"]]
    for p in prefixes:
        add(p)
    for entry in info["path"]:
        real = os.path.realpath(entry or ".")
        if not os.path.isdir(real) or _under(real, prefixes + ["/usr"]):
            if os.path.isfile(real):  # a zip on sys.path
                add(real)
            continue
        # the project's own checkout (on PYTHONPATH, or the cwd of `python -m`): nothing of it,
        # the kernel imports the project from the student site and the rest of a checkout is
        # instructor or developer material (tests, lesson sources, course folders)
        if any(os.path.dirname(p) == real for p in own):
            continue
        # another source tree: its packages and modules only, not the rest of the folder
        for child in sorted(os.listdir(real)):
            full = os.path.join(real, child)
            if ((os.path.isdir(full) and os.path.isfile(os.path.join(full, "__init__.py")))
                    or child.endswith((".py", ".pth", ".so"))):
                add(full)
    # what of the project lies inside a bound folder (a regular install's site-packages, a
    # checkout on sys.path): hidden; and the editable install's path hooks, which name the checkout
    hide = [p for p in own if _under(p, binds) or _under(p, ["/usr"])]
    folders = {os.path.realpath(e) for e in info["path"] if e} | set(binds)
    for folder in folders | {os.path.join(f, "__pycache__") for f in folders}:
        if os.path.isdir(folder) and (_under(folder, binds) or _under(folder, ["/usr"])):
            for child in os.listdir(folder):
                if child.startswith("__editable__") or (
                        child.endswith((".egg-link", ".dist-info", ".egg-info"))
                        and child.split("-")[0].split(".")[0].lower() == "minitape"):
                    hide.append(os.path.join(folder, child))
    return binds, hide


@dataclass
class Sandbox:
    """How kernels are confined (see the module doc). ``hide`` are folders (the course) made
    empty inside the sandbox if they lie under a folder it shows."""

    limits: Limits = field(default_factory=Limits)
    hide: list[str] = field(default_factory=list)
    python: str = sys.executable
    bwrap: str | None = None
    base: str | None = None  # where scratch areas are made (default: the temporary folder)
    # the host's network (the students' own JupyterLab: its server talks to kernels over TCP on
    # 127.0.0.1); grading never shares it
    share_network: bool = False
    # what kernels import minitape, grader and lessons from: the student wheel's contents
    # (grader.infra.student_site); built and audited once, cached
    student_site: str | None = None
    # the grading world (grader.infra.worlds) this sandbox's kernels import from: "" for the
    # student site itself; see for_world
    world: str = ""
    # packages of the grading Python made unimportable here (a world's other tools): each an
    # empty folder whose __init__ raises ImportError (an empty folder alone would import as an
    # empty namespace package)
    blocked: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bwrap = self.bwrap or find_bwrap()
        if self.bwrap is None:
            raise SandboxError(
                "bubblewrap (bwrap) is not installed, so student code cannot be sandboxed; install it "
                "(Debian/Ubuntu: apt-get install bubblewrap) or, only for trusted submissions, "
                "grade with --no-sandbox")
        if os.geteuid() == 0:  # never run student code as root
            nobody = pwd.getpwnam("nobody")
            self.uid, self.gid = nobody.pw_uid, nobody.pw_gid
            self.setpriv = shutil.which("setpriv")
            if self.setpriv is None:
                raise SandboxError("grading as root needs setpriv (util-linux) to run student code "
                                   "as user nobody; install util-linux or grade as a normal user")
        else:
            self.uid = self.gid = None
        if self.student_site is None:
            from grader.infra.student_site import StudentSiteError, ensure

            try:
                self.student_site = ensure()
            except StudentSiteError as exc:
                raise SandboxError(f"cannot prepare what sandboxed kernels import: {exc}") from None
        self.student_site = os.path.realpath(self.student_site)
        self.readonly, hide = _python_paths(self.python, exclude=[self.student_site, *self.hide])
        self.readonly.append(self.student_site)
        packaged_course = str(Path(__file__).resolve().parents[1] / "course")
        # the student wheel's course folder (nbgrader's configuration): not for kernels either
        site_course = os.path.join(self.student_site, "grader", "course")
        self.hidden = [os.path.realpath(p) for p in [*self.hide, packaged_course, site_course, *hide]]
        self._scratch: str | None = None
        self._counter = 0
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:  # sent to a spawned grading process (a Dask worker's)
        state = dict(self.__dict__)
        state["_lock"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def for_this_process(self, base: str | None = None) -> "Sandbox":
        """A copy for a forked worker: same settings, a scratch area of its own (in ``base``)."""
        import copy

        box = copy.copy(self)
        box._scratch, box._counter, box._lock = None, 0, threading.Lock()
        box.base = base or self.base
        return box

    def for_world(self, name: str) -> "Sandbox":
        """A sandbox like this one whose kernels import the grading world ``name``
        (:mod:`grader.infra.worlds`: the student site without a forbidden tool) in place of the
        student site: the student site itself is not in it (hidden where it lies under a folder
        the sandbox shows), and neither are the grading Python's other packages that do the
        tool's job. A scratch area of its own."""
        from grader.infra.worlds import WorldError, ensure_world, other_autodiff_dirs

        try:
            site = os.path.realpath(ensure_world(self.student_site, name))
        except WorldError as exc:
            raise SandboxError(f"cannot prepare the grading world {name!r}: {exc}") from None
        box = self.for_this_process()
        box.readonly = [p for p in self.readonly if p != self.student_site] + [site]
        box.hidden = [*self.hidden, self.student_site]
        box.blocked = other_autodiff_dirs(name)
        box.student_site, box.world = site, name
        return box

    # -- scratch folders ---------------------------------------------------------------------
    @property
    def scratch(self) -> str:
        """This process's scratch folder: one sub-folder per kernel, nothing else."""
        if self._scratch is None or not os.path.isdir(self._scratch):
            base = self.base or tempfile.gettempdir()
            if len(base) > 48:  # the kernel's Unix socket paths must stay under 108 bytes
                base = "/tmp"
            self._scratch = tempfile.mkdtemp(prefix="grader-sandbox-", dir=base)
            self._own(self._scratch)
        return self._scratch

    def _own(self, path: str) -> None:
        """Make ``path`` (recursively) the sandbox user's."""
        if self.uid is None:
            return
        for root, dirs, files in os.walk(path):
            os.chown(root, self.uid, self.gid)
            for name in dirs + files:
                os.chown(os.path.join(root, name), self.uid, self.gid, follow_symlinks=False)

    def new_kernel_dir(self, cwd: str | None) -> tuple[str, str]:
        """A fresh folder for one kernel holding a copy of ``cwd`` (its submission); returns
        (kernel folder, the copy: the kernel's working directory)."""
        with self._lock:
            self._counter += 1
            own = os.path.join(self.scratch, f"k{self._counter}")
        os.mkdir(own, 0o700)
        os.mkdir(os.path.join(own, ".kernel"), 0o700)  # connection file and sockets (short paths)
        work = os.path.join(own, os.path.basename(os.path.normpath(cwd)) if cwd else "work")
        if cwd and os.path.isdir(cwd):
            size = 0
            for root, _dirs, files in os.walk(cwd):
                size += sum(os.path.getsize(os.path.join(root, f)) for f in files
                            if os.path.isfile(os.path.join(root, f)))
                if size > MAX_COPY_MB << 20:
                    shutil.rmtree(own, ignore_errors=True)
                    raise SandboxError(f"the kernel's folder {cwd} holds over {MAX_COPY_MB} MB; a "
                                       "sandboxed kernel works on a copy of it (a submission folder)")
            shutil.copytree(cwd, work, symlinks=True)
        else:
            os.mkdir(work)
        self._own(own)
        return own, work

    def give(self, path: str) -> None:
        if self.uid is not None and os.path.exists(path):
            os.chown(path, self.uid, self.gid)

    @staticmethod
    def remove(path: str) -> None:
        def retry(func, p, _exc):
            try:
                os.chmod(os.path.dirname(p), 0o700)
                os.chmod(p, 0o700)
                func(p)
            except OSError:
                pass
        shutil.rmtree(path, onerror=retry)

    def close(self) -> None:
        if self._scratch is not None and os.path.isdir(self._scratch):
            self.remove(self._scratch)
        self._scratch = None

    # -- the command -------------------------------------------------------------------------
    def environment(self, env: dict | None) -> dict:
        """What a sandboxed process gets of ``env``: no secrets, no paths into the course or the
        instructor's home; matplotlib's configuration in the scratch area (below)."""
        env = dict(os.environ if env is None else env)
        keep = {k: v for k, v in env.items() if k in ENV_NAMES or k.startswith(ENV_PREFIXES)}
        keep.pop("GRADER_SEED", None)  # the hidden points' seed stays with the trusted side
        keep.update(HOME=SANDBOX_HOME, TMPDIR="/tmp", USER="student", LOGNAME="student",
                    MPLCONFIGDIR=self.matplotlib_dir(),
                    # the student's packages, first; the instructor's are not in the sandbox
                    PYTHONPATH=self.student_site)
        return keep

    def script(self, name: str = "zygote.py") -> str:
        """A script of the grader's kernel infrastructure (the zygote) as a sandboxed process
        sees it: the student site's copy (the instructor's package folder is not in the sandbox)."""
        return os.path.join(self.student_site, "grader", "infra", name)

    def confined_command(self, confine: dict, argv: list[str]) -> list[str]:
        """The command that runs ``argv`` inside this sandbox confined as a forked kernel is
        (:func:`grader.infra.zygote.exec_confined`, run from the student site's copy): for a
        kernel that starts fresh, such as the lessons' sandboxed lab kernel."""
        return [self.python, self.script(), "--exec-confined", json.dumps(confine), *argv]

    def matplotlib_dir(self) -> str:
        """matplotlib's config and cache folder for sandboxed processes: a copy of the
        instructor's font list (else each sandbox would rebuild it, seconds), in the scratch
        area: the zygote reads it once; a kernel forked from it no longer sees the scratch area,
        and a kernel started fresh gets a copy in its own folder (:meth:`new_kernel_dir`)."""
        path = os.path.join(self.scratch, ".matplotlib")
        if not os.path.isdir(path):
            os.mkdir(path, 0o700)
            source = os.environ.get("MPLCONFIGDIR") or os.path.join(
                os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "matplotlib")
            if os.path.isdir(source):
                for name in os.listdir(source):
                    if name.startswith("fontlist") and name.endswith(".json"):
                        shutil.copy(os.path.join(source, name), path)
            self._own(path)
        return path

    def command(self, argv: list[str], writable: str, cwd: str, env: dict,
                binds: dict[str, str] | None = None) -> list[str]:
        """``argv`` run by bwrap with ``writable`` (a scratch folder, shown at the same path)
        the only folder it may write besides its private ``/tmp``."""
        args = [self.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-uts",
                "--unshare-cgroup-try", "--die-with-parent", "--hostname", "grader-sandbox"]
        if not self.share_network:
            args.insert(3, "--unshare-net")
        if self.uid is None:
            args += ["--unshare-user"]
        else:  # bwrap runs as root (it could not reach the files of a root-only Python), setpriv
            # then drops to the sandbox user and every capability before anything else runs
            args += ["--cap-add", "CAP_SETUID,CAP_SETGID,CAP_SETPCAP"]
            argv = [self.setpriv, f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--", *argv]
        args += ["--ro-bind", "/usr", "/usr"]
        for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            path = "/" + name
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        # /proc: each kernel mounts its own (grader.infra.zygote._confine). Linux allows that in a
        # user namespace only where a /proc is already mounted and fully visible; bwrap, when
        # it runs as root, covers parts of its /proc, so there the sandbox keeps the grader's
        # (seen only by the zygote and by the keeper processes, never by student code)
        args += ["--bind", "/proc", "/proc"] if self.uid is not None else ["--proc", "/proc"]
        args += ["--dev", "/dev", "--perms", "1777",
                 "--size", str(self.limits.tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
        made = {"/", "/tmp", "/usr", "/etc", SANDBOX_HOME}

        def parents(path: str) -> list[str]:
            out = []
            for parent in reversed(Path(path).parents):
                p = str(parent)
                if p not in made and not _under(p, ["/usr", "/proc", "/dev"]):
                    made.add(p)
                    out += ["--perms", "0755", "--dir", p]
            return out

        args += ["--perms", "0755", "--dir", "/etc"]
        for name in ETC_FILES:
            args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        args += ["--perms", "0777", "--dir", SANDBOX_HOME]
        for path in self.readonly:
            args += parents(path) + ["--ro-bind", path, path]
        for path in self.hidden:
            if _under(path, self.readonly):
                if os.path.isdir(path):
                    args += ["--tmpfs", path]
                else:  # a file (an editable install's path hook): empty
                    args += ["--ro-bind", "/dev/null", path]
        if self.blocked:
            from grader.infra.worlds import BLOCKER

            blocker = os.path.join(self.student_site, BLOCKER)
            for path in self.blocked:
                if _under(path, self.readonly):
                    if os.path.isdir(path):
                        args += ["--tmpfs", path, "--ro-bind", blocker, os.path.join(path, "__init__.py")]
                    else:  # a single-file module
                        args += ["--ro-bind", blocker, path]
        args += parents(writable) + ["--bind", writable, writable]
        for source, dest in (binds or {}).items():  # more writable folders, e.g. a private copy
            args += parents(dest) + ["--bind", source, dest]
        # the sandbox's own root and /dev are bwrap's tmpfs: read-only once built, so that all a
        # kernel can write is its size-limited spaces (its folder's copy, /tmp, /dev/shm)
        args += ["--remount-ro", "/dev", "--remount-ro", "/"]
        args += ["--chdir", cwd, "--clearenv"]
        for key, value in sorted(env.items()):
            args += ["--setenv", key, value]
        return [*args, "--", *argv]

    def popen_kwargs(self) -> dict:
        """How to start bwrap (kept for callers; bwrap runs as the grader's user)."""
        return {}

    def check(self) -> None:
        """Start a sandbox once, with a kernel's own confinement inside it (namespaces, /proc,
        limits, capabilities dropped): a clear error where that cannot work here."""
        script = self.script()
        had_scratch = self._scratch is not None
        try:
            self._check(script)
        finally:
            if not had_scratch:  # environment() made one (matplotlib's folder): not left behind
                self.close()

    def _check(self, script: str) -> None:
        with tempfile.TemporaryDirectory(prefix="grader-sandbox-check-",
                                         dir=None if len(tempfile.gettempdir()) <= 48 else "/tmp") as tmp:
            own = os.path.join(tmp, "k")
            os.mkdir(own)
            os.mkdir(os.path.join(own, ".kernel"))
            self._own(tmp)
            confine = {"own": own, "scratch": tmp, "home": SANDBOX_HOME, "cwd": own,
                       "tmp_bytes": self.limits.tmp_mb << 20, "limits": self.limits.rlimits(),
                       "keep": list(self.readonly), "seal": True}
            # confined as a kernel is, its connection folder sealed (read-only) as a kernel's is
            probe = ("import os\ntry:\n    open('.kernel/probe', 'w').close()\n    sealed = ''\n"
                     "except OSError:\n    sealed = 'sealed'\n"
                     "print('pid', os.getpid(), sorted(os.listdir('/proc'))[0], sealed)")
            cmd = self.command([self.python, script, "--exec-confined", json.dumps(confine),
                                self.python, "-c", probe], tmp, tmp, self.environment(None))
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, **self.popen_kwargs())
        if out.returncode != 0 or "pid 1" not in out.stdout or "sealed" not in out.stdout:
            user = "" if self.uid is None else " as user nobody"
            raise SandboxError(
                f"bubblewrap cannot start a sandbox here{user} ({out.stderr.strip()[-400:] or out.returncode}); "
                "it needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 / "
                "user.max_user_namespaces > 0) and a Python installation readable by that user. "
                "Only for trusted submissions: grade with --no-sandbox")
