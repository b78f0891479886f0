"""A confined kernel for the students' JupyterLab: ``python -m lessons.lab_kernel -f CONNECTION``.

``python -m lessons lab`` uses it (its kernel spec, ``jupyter_kernels/kernels/python3``) when
instructor material can be reached from the lab -- a checkout of the repository, or an editable
install of one: the kernel then runs in the grader's bubblewrap sandbox (:mod:`grader.infra.sandbox`,
the one autograding uses) and sees

* the Python installation and the packages it imports, read-only, with the instructor folders
  (``grader/course/``, ``lessons/src/`` and any other the lab names) replaced by empty ones;
* the lab's lesson folders (read-write: figures or files a notebook saves; run as root, the
  sandbox runs the kernel as ``nobody``, who may only read them), its own scratch folder, a
  private ``/tmp``; its working directory is the notebook's folder;
* not the rest of the checkout (``tests/``, ``.git``, ``build/``), nor the user's home.

It shares the host's network (the server talks to it over TCP on 127.0.0.1), has no memory or
CPU-time limit (a lab is interactive), and its interrupts are messages (``interrupt_mode``), so
a keyboard interrupt reaches the kernel through the sandbox. The launcher stays outside, waits
for the sandbox and removes the scratch folder; if the launcher is killed, bubblewrap
(``--die-with-parent``) takes the kernel with it.

The lab passes what to confine in ``MINITAPE_LAB_CONFINE`` (JSON: ``hide``, ``folders``); the
kernel does not get that variable.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

ENV_VAR = "MINITAPE_LAB_CONFINE"


def _under(path: str, roots) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def command(connection_file: str, cwd: str, settings: dict):
    """(bwrap argv, scratch folder to remove afterwards)."""
    from grader.infra.sandbox import SANDBOX_HOME, Limits, Sandbox

    limits = Limits(memory_mb=None, cpu_seconds=None, processes=1024, file_size_mb=None, tmp_mb=1024)
    sandbox = Sandbox(limits=limits, hide=list(settings.get("hide", [])), share_network=True)
    own, _work = sandbox.new_kernel_dir(None)
    connection = os.path.join(own, ".kernel", "kernel.json")
    shutil.copyfile(connection_file, connection)
    sandbox.give(connection)
    hidden = sandbox.hidden
    folders = [os.path.realpath(f) for f in settings.get("folders", [])
               if os.path.isdir(f) and not _under(os.path.realpath(f), hidden)]
    cwd = os.path.realpath(cwd)
    if not (_under(cwd, folders) or (_under(cwd, sandbox.readonly) and not _under(cwd, hidden)
                                     and not any(_under(h, [cwd]) for h in hidden))):
        cwd = own  # a folder the kernel may not see: start it in its scratch folder
    env = sandbox.environment(None)
    env.pop(ENV_VAR, None)
    env["JPY_PARENT_PID"] = "1"  # its parent is outside its PID namespace: no parent poller
    confine = {"own": own, "scratch": sandbox.scratch, "home": SANDBOX_HOME, "cwd": cwd,
               "tmp_bytes": limits.tmp_mb << 20, "limits": limits.rlimits(),
               "keep": [*sandbox.readonly, *folders]}
    argv = sandbox.confined_command(confine, [sandbox.python, "-m", "ipykernel_launcher",
                                              "-f", connection])
    wrapped = sandbox.command(argv, writable=sandbox.scratch, cwd=cwd, env=env,
                              binds={f: f for f in folders})
    return wrapped, sandbox


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "-f":
        print("usage: python -m lessons.lab_kernel -f CONNECTION_FILE", file=sys.stderr)
        return 2
    settings = json.loads(os.environ.get(ENV_VAR) or "{}")
    wrapped, sandbox = command(argv[1], os.getcwd(), settings)
    # interrupts are messages; a SIGINT to the process group must not end the launcher
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    proc = subprocess.Popen(wrapped)

    def forward(signum, _frame):
        try:
            proc.send_signal(signum)
        except OSError:
            pass

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGHUP, forward)
    try:
        code = proc.wait()
    finally:
        sandbox.close()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
