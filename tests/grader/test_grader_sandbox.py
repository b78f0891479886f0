"""Adversarial submissions against the grading sandbox (grader.infra.sandbox, grader.infra.kernels).

One class of lesson 1 is graded with ``autograde-all`` (sandboxed, the default): every student
answers every exercise correctly *and* attacks the grader in one exercise's solution. Each
attack must fail without costing the others anything: exact per-cell scores, statuses, and
nothing leaked into the course folder, the gradebook or the host.
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import nbformat
import pytest

from grader.infra.parallel import read_rows
from tests.support.course import (LESSON, REPO, autograde_summary, env, grader_cli, nbgrader, released, released_course,
                                  reference_solutions, set_duedate, submit, with_answers)

pytestmark = [pytest.mark.slow, pytest.mark.kernel,
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

EN = f"{LESSON}-en"
FULL = {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 2.0, "l01_ex4": 2.0, "l01_ex5": 2.0}
TOKEN = "sandbox-probe-7f3a"  # in the command line of every process a daemon starts


def _attack(sol: dict, exercise: str, prelude: str) -> dict:
    """The reference solutions, with ``prelude`` run at the top of ``exercise``'s solution cell."""
    return {**sol, exercise: prelude + "\n" + sol[exercise]}


def _probes(course, port: int) -> dict[str, str]:
    c = str(course)
    other = os.path.join(c, "submitted", "a_correct", EN, f"{LESSON}.ipynb")
    daemon = (f"import time, sqlite3; time.sleep(8); open({c + '/daemon-was-here'!r}, 'w').write('x'); "
              f"db = sqlite3.connect({c + '/gradebook.db'!r}); "
              "db.execute('update grade set manual_score = 99'); db.commit()")
    return {
        # reading the course: instructor notebooks, gradebook, config, another student
        "b_reads": f"""
import os
found = []
for path in [{c + '/source/' + EN + '/' + LESSON + '.ipynb'!r}, {c + '/gradebook.db'!r},
             {c + '/nbgrader_config.py'!r}, {other!r}, '../../../source/{EN}/{LESSON}.ipynb',
             '../../../gradebook.db', '../../../nbgrader_config.py',
             {os.path.expanduser('~/.bashrc')!r}, {os.path.expanduser('~/.cache/matplotlib')!r}]:
    try:
        with open(path, 'rb') as fh:
            fh.read(10)
        found.append(path)
    except OSError:
        try:
            os.listdir(path)
            found.append(path)
        except OSError:
            pass
print('READABLE:', found)
""",
        # writing outside its scratch copy
        "c_writes": f"""
import os
written = []
for path in [{c + '/nbgrader_config.py'!r}, {c + '/gradebook.db'!r}, {c + '/planted.txt'!r},
             {c + '/source/' + EN + '/planted.py'!r}, {other!r}, '../../../planted.txt',
             '../../a_correct/{EN}/planted.txt', '/tmp/{TOKEN}-planted']:
    try:
        with open(path, 'a') as fh:
            fh.write('# written by a student\\n')
        written.append(path)
    except OSError:
        pass
open('left-in-scratch.txt', 'w').write('x')
print('WRITTEN:', written)
""",
        # the network: a server of the test on this machine, and the outside world
        "d_network": f"""
import socket
reached = []
for addr in [('127.0.0.1', {port}), ('1.1.1.1', 53), ('8.8.8.8', 53)]:
    s = socket.socket()
    s.settimeout(2)
    try:
        s.connect(addr)
        reached.append(addr)
    except OSError:
        pass
    finally:
        s.close()
print('REACHED:', reached)
""",
        # a daemon (double fork, new session) that would write the gradebook after grading
        "e_daemon": f"""
import os, sys, subprocess
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        subprocess.Popen([sys.executable, '-c', {daemon!r}, '{TOKEN}'], start_new_session=True)
    os._exit(0)
import time
print('DAEMON STARTED AT', time.time())
""",
        # a fork bomb and a memory hog hit the limits; grading goes on
        "g_bomb": """
import os, time
children = 0
try:
    while children < 5000:
        pid = os.fork()
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        children += 1
except OSError:
    pass
print('FORKED', children < 5000)
try:
    hog = bytearray(16 * 1024 ** 3)
    print('MEMORY 16 GiB')
except MemoryError:
    print('MEMORY REFUSED')
""",
    }


# the kernel's parent and the grading worker: the sandbox hides both (the kernel is PID 1 of a
# namespace of its own, in a process group of its own), so the kills reach nothing: not the
# worker, not the kernel's keeper (issue 43: it shared the kernel's group, and its death killed
# the kernel), not the kernel itself (PID 1 ignores a SIGKILL from inside its namespace). The
# function then returns None: that exercise scores 0, the next one is graded as usual
KILLS_PARENT = {
    "l01_ex3": "import os, signal\n\ndef gradients_by_name(params, x):\n"
               "    for pid in (int(os.environ.get('JPY_PARENT_PID', '0') or 0), os.getppid()):\n"
               "        try:\n            os.kill(pid, signal.SIGKILL)\n"
               "        except OSError:\n            pass\n"
               "    os.kill(0, signal.SIGKILL)  # its whole process group\n",
}


def _server():
    """A TCP server on 127.0.0.1: (socket, event that stops it, connections it accepted)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    accepted, done = [], threading.Event()

    def run():
        srv.settimeout(0.5)
        while not done.is_set():
            try:
                accepted.append(srv.accept()[0].getpeername())
            except OSError:
                pass
        srv.close()
    threading.Thread(target=run, daemon=True).start()
    return srv, done, accepted


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cell_text(course, student, grade_id) -> str:
    """All output text of the solution cell right above test cell ``grade_id`` (autograded)."""
    nb = nbformat.read(course / "autograded" / student / EN / f"{LESSON}.ipynb", as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id \
                and cell.metadata.nbgrader.get("grade"):
            for j in range(i - 1, -1, -1):
                if nb.cells[j].metadata.get("nbgrader", {}).get("solution"):
                    return "".join(o.get("text", "") + str(o.get("evalue", ""))
                                   for o in nb.cells[j].get("outputs", []))
    raise KeyError(grade_id)


def _token_processes() -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if TOKEN in line and "ps -eo" not in line]


def test_adversarial_class_is_contained(tmp_path):
    course = released_course(tmp_path / "course", langs=("en",), timeout=30)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    srv, stop_server, accepted = _server()
    port = srv.getsockname()[1]
    probes = _probes(course, port)
    answers = {
        "a_correct": sol,
        "b_reads": _attack(sol, "l01_ex1", probes["b_reads"]),
        "c_writes": _attack(sol, "l01_ex1", probes["c_writes"]),
        "d_network": _attack(sol, "l01_ex2", probes["d_network"]),
        "e_daemon": _attack(sol, "l01_ex1", probes["e_daemon"]),
        "f_kills_parent": {**sol, **KILLS_PARENT},
        "g_bomb": _attack(sol, "l01_ex4", probes["g_bomb"]),
        "h_correct": sol,
    }
    for student, code in answers.items():
        submit(course, student, EN, with_answers(rel, code), "2030-01-01 10:00:00 UTC")
    protected = {p: _digest(course / p) for p in
                 ("nbgrader_config.py", f"source/{EN}/{LESSON}.ipynb",
                  f"submitted/a_correct/{EN}/{LESSON}.ipynb")}

    out = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet").stdout
    stop_server.set()
    summary = autograde_summary(out, EN)
    assert (summary["submissions"], summary["graded"], summary["failed"]) == (8, 8, 0)
    # the kernel that killed its own process group lost only that exercise: nothing to flag
    # but what its answer is (no GradientTape, which exercises 1 to 4 ask for: a note)
    assert summary["statuses"] == {"ok": 7, "technique": 1}, summary
    assert summary["students"] == {"technique": ["f_kills_parent"]}, summary
    assert "8 forked from preloaded processes, 0 started fresh" in out

    db = f"sqlite:///{course / 'gradebook.db'}"
    scores = {s: {g: v["auto_score"] for g, v in read_rows(db, EN, s)["notebooks"][LESSON]["grades"].items()}
              for s in answers}
    expected = {s: FULL for s in answers}
    expected["f_kills_parent"] = {**FULL, "l01_ex3": 0.0}  # returned None after its kills
    assert scores == expected

    # each attack failed, and said so in its own cell
    assert "READABLE: []" in _cell_text(course, "b_reads", "l01_ex1")
    # the kernel may write its scratch copy and its private /tmp (both discarded), nothing else
    written = _cell_text(course, "c_writes", "l01_ex1")
    assert written.startswith("WRITTEN: [") and str(course) not in written, written
    assert "REACHED: []" in _cell_text(course, "d_network", "l01_ex2") and accepted == []
    daemon = _cell_text(course, "e_daemon", "l01_ex1")
    assert "DAEMON STARTED AT " in daemon, daemon
    started = float(daemon.split("DAEMON STARTED AT ")[1].split()[0])
    bomb = _cell_text(course, "g_bomb", "l01_ex4")
    assert "FORKED True" in bomb and "MEMORY REFUSED" in bomb
    # nothing reached the course folder, other students or the host
    assert {p: _digest(course / p) for p in protected} == protected
    assert not (course / "planted.txt").exists() and not (course / "source" / EN / "planted.py").exists()
    assert not list(course.glob(f"autograded/*/{EN}/left-in-scratch.txt"))
    assert not list(course.glob(f"autograded/*/{EN}/planted.txt"))
    assert not os.path.exists(f"/tmp/{TOKEN}-planted")
    # the daemon died with its kernel: nothing runs, nothing writes the gradebook later
    assert _token_processes() == []
    # had it survived, it would write 8 s after it started (the kernel printed when): wait for
    # that moment and 4 s more for its own start (the rest of the class was graded meanwhile, so
    # this is short)
    time.sleep(max(0.0, started + 12 - time.time()))
    assert not (course / "daemon-was-here").exists()
    assert _token_processes() == []
    assert {s: {g: v["auto_score"] for g, v in read_rows(db, EN, s)["notebooks"][LESSON]["grades"].items()}
            for s in answers} == expected

    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    status = {s: rows[s][f"{LESSON}:status"] for s in answers}
    assert status == {**{s: "ok" for s in answers}, "f_kills_parent": "technique"}


def test_refuses_to_grade_without_bubblewrap_unless_told(tmp_path):
    course = released_course(tmp_path / "course", langs=("en",), timeout=30)
    sol, rel = reference_solutions(course, EN), released(course, EN)
    submit(course, "a_correct", EN, with_answers(rel, sol), "2030-01-01 10:00:00 UTC")
    bare = tmp_path / "bin"  # a PATH with no bwrap on it
    bare.mkdir()
    e = dict(env(), PATH=str(bare))
    proc = subprocess.run([sys.executable, "-m", "grader", "autograde-all", EN, "--course", str(course),
                           "--quiet"], cwd=course, env=e, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "error: grading refused: bubblewrap (bwrap) is not installed" in proc.stderr
    assert "--no-sandbox" in proc.stderr
    assert not (course / "autograded").exists()
    proc = subprocess.run([sys.executable, "-m", "grader", "autograde-all", EN, "--course", str(course),
                           "--quiet", "--no-sandbox"], cwd=course, env=e, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING: grading without a sandbox (--no-sandbox)" in proc.stderr
    assert "can read the gradebook" in proc.stderr
    assert f"{EN}: 1 submission(s): 1 graded (1 ok), 0 failed;" in proc.stdout


def _class(root, answers: dict):
    course = released_course(root, langs=("en",), timeout=30)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    for student, code in answers(sol).items():
        submit(course, student, EN, with_answers(rel, code), "2030-01-01 10:00:00 UTC")
    return course


def _scores(course, students):
    db = f"sqlite:///{course / 'gradebook.db'}"
    out = {}
    for s in students:
        rows = read_rows(db, EN, s)
        out[s] = None if rows is None else {g: v["auto_score"] for g, v in rows["notebooks"][LESSON]["grades"].items()}
    return out


def _export_status(course, tmp_path):
    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        return {r["student_id"]: r[f"{LESSON}:status"] for r in csv.DictReader(fh)}


def test_a_worker_killed_mid_grading_costs_no_one_anything(tmp_path):
    """A grading worker dies (here: killed from outside, as the OOM killer would) while it grades
    a slow submission: that one and the one beside it are graded again on fresh workers, the
    rest on a fresh pool; every score is exact and the summary counts 5 graded."""
    students = ["a_correct", "b_correct", "c_correct", "d_correct"]
    # the kill lands 1 s after the worker names s_slow as the one it grades: its 4 s sleep keeps
    # the window open under load, and its regrade on a fresh worker sleeps 4 s, not 8
    slow = "import time\ntime.sleep(4)\n"
    course = _class(tmp_path / "c", lambda sol: {**{s: sol for s in students},
                                                 "s_slow": _attack(sol, "l01_ex1", slow)})
    work = tmp_path / "tmp"
    work.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "grader", "autograde-all", EN, "--jobs", "2",
                             "--quiet", "--course", str(course)], cwd=course,
                            env=dict(env(), TMPDIR=str(work)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    killed = None
    deadline = time.time() + 300
    while killed is None and time.time() < deadline and proc.poll() is None:
        for marker in work.glob("grader-autograde-*/running-*"):
            try:
                if marker.read_text(encoding="utf-8").strip() == "s_slow":
                    killed = int(marker.name.split("-")[1])
                    time.sleep(1)  # grading s_slow (≥ 4 s): well inside it
                    os.kill(killed, 9)
                    break
            except (OSError, ValueError):
                pass
        time.sleep(0.1)
    out, err = proc.communicate(timeout=600)
    assert killed is not None, out + err
    assert proc.returncode == 0, out + err
    assert f"{EN}: 5 submission(s): 5 graded (5 ok), 0 failed;" in out
    assert _scores(course, students + ["s_slow"]) == {s: FULL for s in students + ["s_slow"]}
    assert set(_export_status(course, tmp_path).values()) == {"ok"}


def test_without_sandbox_a_student_killing_its_worker_is_graded_as_crashed(tmp_path):
    """With --no-sandbox a kernel can kill its grading worker (JPY_PARENT_PID) or the worker's
    whole process group: that submission is graded again alone, kills its worker again, and is
    then graded from what that worker recorded before it died -- crashed in the cell that killed
    it, with the points of the cells before, exactly as the sandboxed path records a kernel that
    kills itself; the others are graded normally and the parent (the gradebook's only writer,
    not in the workers' process groups) survives."""
    head = "import os, signal\n\ndef gradients_by_name(params, x):\n"
    kills_parent = {"l01_ex3": head + "    os.kill(int(os.environ['JPY_PARENT_PID']), signal.SIGKILL)\n"}
    kills_group = {"l01_ex3": head + "    os.killpg(os.getpgid(int(os.environ['JPY_PARENT_PID'])), "
                                     "signal.SIGKILL)\n"}
    course = _class(tmp_path / "c", lambda sol: {"a_correct": sol, "k_kills_worker": {**sol, **kills_parent},
                                                 "p_kills_group": {**sol, **kills_group},
                                                 "z_correct": sol})
    proc = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet", "--no-sandbox", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = autograde_summary(proc.stdout, EN)
    assert (summary["graded"], summary["failed"], summary["statuses"].get("ok")) == (4, 0, 2), summary
    [(status, who)] = list(summary["students"].items())
    assert "crashed" in status.split(";") and who == ["k_kills_worker", "p_kills_group"], summary
    for student in ("k_kills_worker", "p_kills_group"):
        assert f"{student}: the grading worker died twice while grading this submission" in proc.stderr
    # graded from the record: every visible case of every exercise ran before any hidden one
    # (issue 36), and the worker died in ex3's visible checks, so the exercises before it keep
    # their visible checks' share
    crashed = {"l01_ex1": 0.3333, "l01_ex2": 0.5, "l01_ex3": 0.0, "l01_ex4": 0.0,
               "l01_ex5": 0.0}
    assert _scores(course, ["a_correct", "k_kills_worker", "p_kills_group", "z_correct"]) == {
        "a_correct": FULL, "k_kills_worker": crashed, "p_kills_group": crashed, "z_correct": FULL}
    assert _export_status(course, tmp_path) == {"a_correct": "ok", "k_kills_worker": "crashed;not_run",
                                                "p_kills_group": "crashed;not_run", "z_correct": "ok"}
    # the feedback-facing notebook says where the worker died, and the later test cell did not run
    nb = nbformat.read(course / "autograded" / "k_kills_worker" / EN / f"{LESSON}.ipynb", as_version=4)
    errors = {c.metadata.get("nbgrader", {}).get("grade_id"): [o.get("ename") for o in c.get("outputs", [])
                                                               if o.get("output_type") == "error"]
              for c in nb.cells if c.cell_type == "code"}
    assert errors["l01_ex3"] == ["DeadKernelError"] and errors["l01_ex4"] == ["NotRun"]
    issues = nb.metadata["grader"]["issues"]
    assert {"kind": "crashed", "cell": "l01_ex3", "detail": "the grading worker died"} in issues


# ---------------------------------------------------------------------------------------------
# Issue 24, class G: the sandbox holds only what a student may hold (the student wheel's
# contents), never lessons/src, the exercise definitions, source notebooks or the course folder,
# whatever way the instructor installed the project (these tests run with an editable install
# and the checkout on PYTHONPATH, the two ways that exposed the checkout).
# ---------------------------------------------------------------------------------------------

def _in_kernel_audit(course) -> str:
    """Code run inside a graded kernel: the student-distribution audit (lessons.student.audit:
    instructor paths, exercise registrations, solution and hidden-test fingerprints) over what
    the kernel imports, a scan of every path it can see for instructor folders, and attempts to
    read the instructor files by their host paths. Prints ``AUDIT: <json>``."""
    import base64
    import json
    import zlib

    from lessons.student import REPO as CHECKOUT, Fingerprints

    # the fingerprints travel compressed: the notebook itself never holds instructor text
    blob = base64.b64encode(zlib.compress(json.dumps(Fingerprints.of_checkout().blocks).encode(), 9)).decode()
    targets = [str(CHECKOUT / "lessons/src/01-gradients.py"), str(CHECKOUT / "grader/course/definitions/l01.py"),
               str(CHECKOUT / f"grader/course/source/{EN}/{LESSON}.ipynb"), str(course / "exercises/l01.py"),
               str(course / "gradebook.db"), str(course / "nbgrader_config.py")]
    return f"""
import base64 as _b, json as _j, os as _o, sys as _s, zlib as _z, importlib as _il
from pathlib import Path as _P
from lessons.student import Fingerprints as _F, audit as _audit, INSTRUCTOR_PATH as _IP
_fp = _F(); _fp.blocks = _j.loads(_z.decompress(_b.b64decode({blob!r})))
_found = []
_roots = set()
for _name in ('minitape', 'grader', 'lessons'):
    _m = _il.import_module(_name)
    _roots.update(_o.path.realpath(p) for p in _m.__path__)
_prefixes = [_o.path.realpath(p) for p in {{_s.prefix, _s.base_prefix, _s.exec_prefix}}]
for _e in _s.path:
    _r = _o.path.realpath(_e or '.')
    if _o.path.isdir(_r) and not any(_r == p or _r.startswith(p + '/') for p in _prefixes + ['/usr']) \\
            and _r != _o.path.realpath(_o.getcwd()):
        _roots.add(_r)
for _root in sorted(_roots):
    _found += [f'{{_root}}: {{p}}' for p in _audit(_P(_root), _fp)]
for _top in ['/']:
    for _dir, _dirs, _files in _o.walk(_top):
        if _dir in ('/proc', '/sys', '/dev', '/usr'):
            _dirs[:] = []
            continue
        for _n in _dirs + _files:
            _p = _o.path.join(_dir, _n)
            if _IP.search(_p) or (_n in ('gradebook.db', 'nbgrader_config.py')
                                  and '/site-packages/nbgrader/' not in _p) \\
                    or (_n.startswith('__editable__') and _o.path.getsize(_p) > 0):
                _found.append('visible: ' + _p)
for _t in {targets!r}:
    try:
        open(_t, 'rb').read(1)
        _found.append('readable: ' + _t)
    except OSError:
        pass
print('AUDIT: ' + _j.dumps({{'roots': sorted(_roots), 'found': _found[:50]}}))
"""


def test_the_student_distribution_audit_run_inside_a_graded_kernel_finds_nothing(tmp_path):
    course = released_course(tmp_path / "course", langs=("en",), timeout=60)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    # the attack: a stub notebook that runs the lesson's solutions from lessons/src
    steal = """
import os, re
from pathlib import Path
STOLEN = []
for base in {sys_path}:
    src = Path(base) / 'lessons' / 'src' / '01-gradients.py'
    try:
        text = src.read_text()
    except OSError:
        continue
    STOLEN.append(str(src))
    for block in re.findall(r'### BEGIN SOLUTION\\n(.*?)### END SOLUTION', text, re.S):
        try:
            exec(block, globals())
        except Exception:
            pass
print('STOLEN:', STOLEN)
""".replace("{sys_path}", "[p for p in __import__('sys').path] + [os.path.dirname(os.path.dirname("
            "__import__('lessons').__path__[0])), os.path.dirname(__import__('grader').__path__[0])]")
    answers = {"a_audits": _attack(sol, "l01_ex1", _in_kernel_audit(course)),
               "b_steals": {"l01_ex1": steal}}
    for student, code in answers.items():
        submit(course, student, EN, with_answers(rel, code), "2030-01-01 10:00:00 UTC")

    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    text = _cell_text(course, "a_audits", "l01_ex1")
    line = next((ln for ln in text.splitlines() if ln.startswith("AUDIT: ")), None)
    assert line is not None, text
    import json

    result = json.loads(line[len("AUDIT: "):])
    assert result["found"] == [], result
    # the kernel imported the student site, never the checkout
    assert result["roots"] and not any(r.startswith(str(REPO)) for r in result["roots"]), result
    assert "STOLEN: []" in _cell_text(course, "b_steals", "l01_ex1")
    scores = _scores(course, ["a_audits", "b_steals"])
    assert scores["a_audits"] == FULL
    assert scores["b_steals"] == {g: 0.0 for g in FULL}


# ---------------------------------------------------------------------------------------------
# Issue 24, class I: bounded and robust. A deep probe message flags only its exercise; notebooks
# written are strict JSON; outputs bounded per cell and notebook with a note in the student's
# language; a kernel that fills its scratch space gets an error (ENOSPC), not the machine's disk;
# no /tmp/grader-sandbox-* folder is left behind.
# ---------------------------------------------------------------------------------------------

DEEP_PROBE = """
import IPython as _ip
_k = _ip.get_ipython().kernel
_deep = (b'{"data": {"application/vnd.minitape.probe+json": ' + b'[' * 100000 + b']' * 100000
         + b'}, "metadata": {}}')
_parent = _k.get_parent("shell") if hasattr(_k, "get_parent") else _k._parent_header
_k.session.send(_k.iopub_socket, "display_data", content=_deep, parent=_parent, ident=b"display_data")
"""

NAN_OUTPUT = """
import IPython as _ip
_k = _ip.get_ipython().kernel
_parent = _k.get_parent("shell") if hasattr(_k, "get_parent") else _k._parent_header
_k.session.send(_k.iopub_socket, "display_data", ident=b"display_data", parent=_parent,
                content=b'{"data": {"application/json": {"v": NaN, "w": -Infinity}, "text/plain": "x"},'
                        b' "metadata": {"seconds": NaN}}')
"""

FLOOD = """
from IPython.display import display as _display
for _i in range(3000):
    _display(_i)
print("x" * 30_000_000)
"""

FILL_SCRATCH = """
import errno, os
_results = []
for _i in range(4):
    try:
        with open(f"fill-{_i}.bin", "wb") as _f:
            for _j in range(100):
                _f.write(b"\\0" * (1 << 20))
        _results.append("ok")
    except OSError as _e:
        _results.append(errno.errorcode.get(_e.errno, str(_e.errno)))
        break
print("FILLED:", _results)
for _i in range(4):
    try:
        os.unlink(f"fill-{_i}.bin")
    except OSError:
        pass
"""


def _function_body_prelude(code: str, sol: str, name: str) -> str:
    """``sol`` with ``code`` run at the start of every call of ``name`` (indented into it)."""
    lines = sol.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"def {name}("):
            j = i + 1
            while lines[j].rstrip().endswith((",", "(")) or not lines[j].startswith(" "):
                j += 1
            body = "\n".join("    " + ln for ln in code.strip().splitlines())
            return "\n".join(lines[:j] + [body] + lines[j:])
    raise ValueError(f"no def {name} in {sol!r}")


def test_hostile_outputs_flag_only_their_exercise_and_scratch_is_bounded(tmp_path):
    import json
    import re
    import tempfile

    from grader.student.registry import get

    course = released_course(tmp_path / "course", langs=("en",), timeout=60)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    ex2 = get("l01_ex2").function
    answers = {
        "a_correct": sol,
        "b_deep": {**sol, "l01_ex2": _function_body_prelude(DEEP_PROBE, sol["l01_ex2"], ex2)},
        "c_nan": _attack(sol, "l01_ex1", NAN_OUTPUT),
        "d_flood": _attack(sol, "l01_ex1", FLOOD),
        "e_fills": _attack(sol, "l01_ex1", FILL_SCRATCH),
        "f_many_cells": sol,
    }
    for student, code in answers.items():
        nb = with_answers(rel, code)
        if student == "f_many_cells":  # issue 36, class 7: 1,200 printing cells after the answers
            nb.cells += [nbformat.v4.new_code_cell(f"print({i})") for i in range(1200)]
        submit(course, student, EN, nb, "2030-01-01 10:00:00 UTC")
    tmp = tempfile.mkdtemp(prefix="g24-", dir="/tmp")  # the grader's temporary folder, short
    try:
        proc = subprocess.run([sys.executable, "-m", "grader", "autograde-all", EN, "--jobs", "2",
                               "--quiet"], cwd=course, env=dict(env(), TMPDIR=tmp), capture_output=True,
                              text=True, timeout=900)
        left = sorted(os.listdir(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # every attack is checked (and reported) separately
    problems = []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    expect(proc.returncode == 0, f"autograde-all failed: {proc.stdout[-1500:]}{proc.stderr[-1500:]}")
    expect(left == [], f"left behind in the temporary folder: {left}")
    expect(f"{EN}: 6 submission(s): 6 graded" in proc.stdout, f"not every submission graded: {proc.stdout[:300]}")
    nbgrader(course, "generate_feedback", EN, check=False)

    scores = _scores(course, list(answers))
    expect(scores["a_correct"] == FULL, f"a_correct: {scores['a_correct']}")
    # the deep message is that exercise's malformed result; the others keep their points
    deep = scores["b_deep"] or {}
    expect(deep and deep == FULL | {"l01_ex2": deep.get("l01_ex2")}, f"b_deep: {deep}")
    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    expect("malformed_result" in rows["b_deep"][f"{LESSON}:status"]
           and "l01_ex2" in rows["b_deep"][f"{LESSON}:notes"], f"b_deep: {rows['b_deep'][f'{LESSON}:status']}")
    expect(rows["a_correct"][f"{LESSON}:status"] == "ok", "a_correct not ok")
    for student in ("c_nan", "d_flood", "e_fills", "f_many_cells"):
        expect(scores[student] == FULL, f"{student}: {scores[student]}")
    # the notebook's bound counts its own notes: 1,000 outputs in all, one note among them
    many = nbformat.read(course / "autograded" / "f_many_cells" / EN / f"{LESSON}.ipynb", as_version=4)
    student_cells = [c for c in many.cells if c.cell_type == "code"
                     and not c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    kept = sum(len(c.outputs) for c in student_cells)
    notes = [o for c in student_cells for o in c.outputs if "in this cell and the cells after it" in o.get("text", "")]
    expect(kept <= 1000 and len(notes) == 1, f"f_many_cells: {kept} outputs, {len(notes)} notebook notes")

    def strict(text):  # JSON.parse: no NaN, no Infinity
        return json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))

    for student in answers:
        path = course / "autograded" / student / EN / f"{LESSON}.ipynb"
        try:
            strict(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            problems.append(f"{student}: autograded notebook is not strict JSON: {exc}")
    # the flood: bounded, with a note in the student's language
    flood_nb = course / "autograded" / "d_flood" / EN / f"{LESSON}.ipynb"
    expect(flood_nb.stat().st_size < 4 << 20, f"d_flood notebook: {flood_nb.stat().st_size} bytes")
    expect("not kept" in _cell_text(course, "d_flood", "l01_ex1"), "d_flood: no truncation note")
    feedback = course / "feedback" / "d_flood" / EN / f"{LESSON}.html"
    expect(feedback.is_file() and feedback.stat().st_size < 6 << 20,
           f"d_flood feedback: {feedback.stat().st_size if feedback.is_file() else 'missing'}")
    # the kernel that filled its scratch space got "no space left", after at most its tmpfs size
    filled = re.search(r"FILLED: \[(.*?)\]", _cell_text(course, "e_fills", "l01_ex1"))
    expect(filled and filled.group(1).endswith("'ENOSPC'") and filled.group(1).count("'ok'") <= 2,
           f"e_fills: {filled and filled.group(1)}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Issue 36, class 5: what a kernel inherits from the host. A kernel holds no descriptor of the
# host but its own pipes (every forked kernel held the worker's log: readable through
# /proc/self/fd, naming earlier students and the course, writable), and all it can write is
# inside its size-limited spaces (its connection folder was the host's disk: 600 MB written)
# ---------------------------------------------------------------------------------------------
INHERITS = r"""
import errno as _errno, json as _json, os as _os
_report = {"fds": {}, "writes": {}}
for _fd in sorted(int(n) for n in _os.listdir("/proc/self/fd")):
    try:
        _report["fds"][_fd] = _os.readlink(f"/proc/self/fd/{_fd}")
    except OSError:
        pass
for _fd, _target in _report["fds"].items():
    if _fd > 2 and _target.startswith("/"):
        try:
            _os.write(_fd, b"written by a student\n")
            _report["writes"][f"fd {_fd}"] = "written"
        except OSError as _e:
            _report["writes"][f"fd {_fd}"] = _errno.errorcode.get(_e.errno, str(_e.errno))
def _fill(_path, _mb=300):
    _done = 0
    try:
        with open(_path, "wb") as _fh:
            while _done < _mb:
                _fh.write(b"\0" * (1 << 20))
                _fh.flush()
                _done += 1
        _why = "ok"
    except OSError as _e:
        _why = _errno.errorcode.get(_e.errno, str(_e.errno))
    try:
        _os.unlink(_path)
    except OSError:
        pass
    return [_done, _why]
for _name, _path in [("cwd", "./big.bin"), ("tmp", "/tmp/big.bin"), ("shm", "/dev/shm/big.bin"),
                     ("dev", "/dev/big.bin"), ("root", "/big.bin"), ("etc", "/etc/big.bin"),
                     ("connection folder", _os.path.join(_os.path.dirname(_os.getcwd()), ".kernel", "big.bin"))]:
    _report["writes"][_name] = _fill(_path)
print("INHERITS: " + _json.dumps(_report))
"""


@pytest.mark.parametrize("kernels", ["forked", "fresh"])
def test_a_kernel_holds_no_descriptor_of_the_host_and_writes_only_its_bounded_spaces(tmp_path, kernels):
    import json

    course = _class(tmp_path / "c", lambda sol: {"a_earlier_student": sol,
                                                 "b_inherits": _attack(sol, "l01_ex1", INHERITS)})
    args = ["--jobs", "1", "--quiet"] + (["--fresh-kernels"] if kernels == "fresh" else [])
    grader_cli(course, "autograde-all", EN, *args)  # one worker: its log names a_earlier_student
    line = next((ln for ln in _cell_text(course, "b_inherits", "l01_ex1").splitlines()
                 if ln.startswith("INHERITS: ")), None)
    assert line is not None, _cell_text(course, "b_inherits", "l01_ex1")
    report = json.loads(line[len("INHERITS: "):])
    fds = {int(fd): target for fd, target in report["fds"].items()}
    # its own: /dev/null, its pipes to its keeper, its sockets and event descriptors, files it
    # opened itself read-only (matplotlib's fonts); never the worker's log or anything writable
    assert fds[0] == "/dev/null" and fds[1].startswith("pipe:") and fds[2].startswith("pipe:"), fds
    paths = {fd: t for fd, t in fds.items() if t.startswith("/") and fd > 2}
    assert all(report["writes"][f"fd {fd}"] == "EBADF" for fd in paths), report
    assert not any("log" in t or str(course) in t or "grader-autograde" in t for t in fds.values()), fds
    assert "a_earlier_student" not in line
    writes = report["writes"]
    for name in ("connection folder", "root", "etc", "dev"):  # nothing at all
        assert writes[name][0] == 0 and writes[name][1] in ("EROFS", "EACCES"), (name, writes[name])
    for name in ("cwd", "tmp", "shm"):  # at most its size-limited tmpfs (256 MB), then refused
        assert writes[name][0] <= 256 and writes[name][1] in ("ENOSPC", "EFBIG"), (name, writes[name])
    assert _scores(course, ["a_earlier_student", "b_inherits"]) == {"a_earlier_student": FULL,
                                                                   "b_inherits": FULL}


# ---------------------------------------------------------------------------------------------
# Issue 43, item 1: a kernel that kills its process group (what a cell stopping a runaway child
# does) used to kill its keeper, and so itself a moment later: the death surfaced in the next
# cell, a test cell, and every later exercise scored 0 (0 of 11, about half the time under load)
# ---------------------------------------------------------------------------------------------
L3 = "03-none-gradients"
L3_FULL = {"l03_ex1": 2.0, "l03_ex2": 2.0, "l03_ex3": 2.0, "l03_ex4": 3.0, "l03_ex5": 2.0, "l03_ex6": 2.0}


def test_a_kernel_killing_its_process_group_costs_nothing_beyond_its_own_cell(tmp_path):
    course = released_course(tmp_path / "course", timeout=30, lesson=L3)
    set_duedate(course, f"{L3}-en", "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, f"{L3}-en", lesson=L3), released(course, f"{L3}-en", lesson=L3)
    group_kill = "import os, signal\nos.kill(0, signal.SIGKILL)  # stop any runaway child\n"
    killpg = "import os, signal\nos.killpg(os.getpgid(0), signal.SIGKILL)\n"
    # a death that shows in the next cell, whatever the machine's load: a hook run before it
    next_cell_dies = "\nimport os\nget_ipython().events.register('pre_run_cell', lambda *a: os._exit(1))\n"
    answers = {"k01_group_kill": {**sol, "l03_ex2": group_kill + sol["l03_ex2"]},
               "k02_killpg": {**sol, "l03_ex2": killpg + sol["l03_ex2"]},
               "k03_dies_in_the_next_cell": {**sol, "l03_ex2": sol["l03_ex2"] + next_cell_dies},
               "k04_correct": sol}
    for student, code in answers.items():
        submit(course, student, f"{L3}-en", with_answers(rel, code), "2030-01-01 10:00:00 UTC", lesson=L3)
    # a second busy process: the race (the keeper's death lands after the kernel answered) shows
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        out = grader_cli(course, "autograde-all", f"{L3}-en", "--jobs", "2", "--quiet").stdout
    finally:
        busy.kill()
        busy.wait()
    summary = autograde_summary(out, f"{L3}-en")
    assert (summary["graded"], summary["failed"], summary["statuses"]) == (4, 0, {"ok": 3, "crashed": 1}), out
    assert summary["students"] == {"crashed": ["k03_dies_in_the_next_cell"]}, out
    db = f"sqlite:///{course / 'gradebook.db'}"
    scores = {s: {g: v["auto_score"] for g, v in read_rows(db, f"{L3}-en", s)["notebooks"][L3]["grades"].items()}
              for s in answers}
    assert scores == {
        # the kill reaches only the kernel's own children: the kernel (PID 1) and its keeper live
        "k01_group_kill": L3_FULL,
        # in its own group the kernel is PID 1 and alone: killpg(1) finds no one to kill and
        # raises, so the cell stops there (as on a laptop, where it would kill the kernel)
        "k02_killpg": {**L3_FULL, "l03_ex2": 0.0},
        # the death is blamed on the cell that caused it, graded without it
        "k03_dies_in_the_next_cell": {**L3_FULL, "l03_ex2": 0.0},
        "k04_correct": L3_FULL}
    grader_cli(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    assert {s: rows[s][f"{L3}:status"] for s in answers} == {
        "k01_group_kill": "ok", "k02_killpg": "ok", "k03_dies_in_the_next_cell": "crashed",
        "k04_correct": "ok"}
    assert "crashed (l03_ex2_solution)" in rows["k03_dies_in_the_next_cell"][f"{L3}:notes"]
