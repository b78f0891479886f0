"""nbgrader preprocessor :class:`GraderExecute` (replaces nbgrader's ``Execute``): when the kernel dies (``os._exit``,
segfault, out of memory) nbgrader abandons the whole submission and it exports as a silent 0;
here the cell that killed the kernel gets an error, every later cell is marked "not run"
(a test cell with no output would otherwise get *full* credit), and grading goes on. When
one of the student's own cells killed it (``os._exit(1)`` at top level), the kernel is
restarted instead, the cells that ran are replayed without that cell (and without any that
kills it again on replay; ``max_kernel_restarts``), the killing cell gets an error in the
student's language, and grading goes on: only what depends on that cell is lost. A death
seen in a test cell (a placeholder where no student code runs: the probes run at the end) is
the doing of the student's last cell that ran (a kernel that answered, then died of what it
started): that cell is blamed and the notebook replayed without it the same way. When an
exercise's function kills it while its checks run (the probes, at the end), the kernel is
restarted the same way and the other exercises' checks go on; the rest of that exercise's
checks are not run (every visible case still comes before any hidden one). Two
timeouts in a row (a kernel that ignores the interrupt) stop execution the same way. The
kernel runs with ``MINITAPE_LANG`` set from the assignment id (``01-gradients-ru`` -> ru),
so feedback is in the language the student worked in.

Grading worlds. The probes of an exercise that forbids a tool (``Exercise.absent``; lesson 7:
minitape's own autodiff) come last (:class:`~grader.autograde.inject_probes.InjectProbes`).
When the first of them is reached, the student's kernel is shut down and a fresh kernel of
that grading world is started (:mod:`grader.infra.worlds`: minitape without the tool, forked
from that world's zygote in its own sandbox), the cells the student's kernel kept are replayed
into it in order (their outputs stay those of the first run: the lesson's given cells ran
there, for the record), and the probes run in it. A replayed cell that kills the world's kernel
is left out as in the student's kernel. Which cells each kernel kept is passed on
(``resources["grader_kept"]``): the source reading (:mod:`grader.autograde.technique`) follows
them, not the notebook as written.

What decides the grading flow is observed here, never read from what the kernel sends: a
timeout is one nbclient waited out (not an error output named ``CellTimeoutError``), a probe
cell is one carrying this run's mark (:func:`~grader.autograde.issues.probe_mark`), and the
outputs that say a cell stopped (crashed, timed out, not run) are made here and recorded in
``resources["grader_stops"]`` (what feedback may show).

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

import contextlib
import os

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import NotebookNode
from traitlets import Bool, Integer, Unicode, default

from nbgrader import utils
from nbgrader.preprocessors import Execute

from grader.i18n import split_variant
from grader.autograde.issues import add_issue, cell_name, error_output, issues_of, probe_mark

__all__ = ["GraderExecute"]


KILLED_DETAIL = "the kernel died; it was restarted and the notebook graded without this cell"
PROBE_KILLED_DETAIL = ("the kernel died while the exercise's function was called; it was "
                       "restarted for the other exercises")
WORLD_DETAIL = {"no-autodiff": "the kernel without minitape's autodiff"}


def _students_own(cell: NotebookNode, resources) -> bool:
    """A cell of the student's code: neither a probe nor a test cell (the grader's code, which
    calls the student's functions: when it kills the kernel, the notebook stops there)."""
    return probe_mark(cell, resources) is None and \
        not (utils.is_grade(cell) and not utils.is_solution(cell))


def _runs_no_student_code(cell: NotebookNode, resources) -> bool:
    """A test cell (its code is the grader's: a placeholder while the probes run at the end).
    A probe calls the student's function, so a death there may be that function's doing."""
    return not _students_own(cell, resources) and probe_mark(cell, resources) is None


def _probe_nonces(resources) -> dict[str, str]:
    return {gid: entry["plan"].nonce
            for gid, entry in ((resources or {}).get("grader_probes") or {}).items()}


def _cells_digest(nb: NotebookNode, nonces: dict[str, str]) -> str:
    """What identifies the notebook a grading worker ran: its cells' types and sources (the
    probes' nonces, drawn afresh at every run, left out)."""
    import hashlib

    h = hashlib.sha256()
    for cell in nb.cells:
        source = cell.get("source", "")
        for nonce in nonces.values():
            source = source.replace(nonce, "")
        h.update(cell.cell_type.encode() + b"\0" + source.encode() + b"\0")
    return h.hexdigest()


class GraderExecute(Execute):
    """nbgrader's ``Execute`` that survives a dead or unresponsive kernel (see module doc)."""

    set_language = Bool(
        True, help="Run the kernel with MINITAPE_LANG taken from the assignment id suffix "
                   "(-en, -es, -pt, -ru) so that feedback is in the student's language."
    ).tag(config=True)

    not_run_message = Unicode(
        "Not run: the kernel stopped earlier in this notebook ({reason} in {cell}).",
        help="Error text put in cells that could not run after the kernel died or hung."
    ).tag(config=True)

    checkpoint = Unicode(
        "", help="Record each cell's outputs, as it finishes, in <checkpoint>.<notebook>.jsonl "
                 "(autograde-all sets it: if the student's code kills the grading worker, the "
                 "notebook is graded up to the cell that killed it)").tag(config=True)

    replay = Bool(
        False, help="Run no kernel: take the outputs from the checkpoint a grading worker wrote "
                    "before it died, record the cell it died in as crashed and the later cells "
                    "as not run (autograde-all, for a submission that killed its worker twice)"
    ).tag(config=True)

    worker_died_message = Unicode(
        "The grading worker died while this cell ran (the submission's code killed it, or it "
        "ran out of memory); the notebook was graded up to this cell.",
        help="Error text put in the cell a grading worker died in (see `replay`)."
    ).tag(config=True)

    max_kernel_restarts = Integer(
        3, help="How many times a kernel killed by one of the student's own cells (os._exit, a "
                "signal to itself) is restarted: the cells that ran are replayed in a fresh "
                "kernel without the cell(s) that killed it, and grading goes on with the next "
                "cell and the probes. 0: the notebook stops at the first kill, later cells are "
                "not run").tag(config=True)

    sandbox = Bool(
        help="Run the kernels in the bubblewrap sandbox (grader.infra.sandbox). autograde-all "
             "passes --GraderExecute.sandbox=False for --no-sandbox; default: on, unless "
             "GRADER_SANDBOX=0 (for nbgrader's own commands). Off grades as you: only for "
             "submissions you trust").tag(config=True)

    @default("shutdown_kernel")
    def _kill_when_done(self):
        # graded kernels keep nothing: all they sent is in the notebook when they are stopped,
        # and what they wrote is removed with them; a graceful stop waits ~100 ms for ipykernel
        # to wind down (and would run the student's atexit handlers) for nothing
        return "immediate"

    @default("sandbox")
    def _sandbox_from_environment(self):
        return os.environ.get("GRADER_SANDBOX", "1").strip().lower() not in ("0", "no", "false", "off")

    def __init__(self, *args, **kwargs):
        own_manager = "kernel_manager_class" not in kwargs
        super().__init__(*args, **kwargs)
        if own_manager:
            from grader.infra.kernels import kernel_manager_class

            # autograde-all: forked from a warm process; sandboxed unless chosen otherwise
            self.kernel_manager_class = kernel_manager_class(sandbox=self.sandbox)

    def preprocess(self, nb, resources=None, km=None):
        self._stopped: tuple[str, str] | None = None
        self._ran: list[int] = []  # the student's code cells that ran (replayed after a restart)
        self._restarts = 0
        self._kernel_kwargs: dict = {}
        self._last_timed_out = False
        self._assignment = (resources or {}).get("nbgrader", {}).get("assignment", "")
        self._record, self._language_recorded = None, False
        self._world = ""  # the grading world of the current kernel ("": the student's own)
        self._dead_exercises: set[str] = set()  # whose function killed the kernel in a probe
        self._kept: dict[str, list[int]] = {}  # world -> the student's cells its kernel kept
        if resources is not None:
            resources["grader_stops"] = {}  # cell index -> the output made here for a stop
            resources["grader_kept"] = self._kept
        path = self._checkpoint_path(resources)
        if self.replay:
            return self._replay(nb, resources, path)
        if path:
            self._record = open(path, "w", encoding="utf-8")
            nonces = _probe_nonces(resources)
            self._write_record({"cells": len(nb.cells), "digest": _cells_digest(nb, nonces),
                                "nonces": nonces})
        try:
            out = super().preprocess(nb, resources, km)
            self._kept[self._world] = list(self._ran)
            return out
        finally:
            if self._record is not None:
                self._record.close()
                self._record = None

    def _checkpoint_path(self, resources) -> str | None:
        if not self.checkpoint:
            return None
        notebook = (resources or {}).get("nbgrader", {}).get("notebook", "notebook")
        return f"{self.checkpoint}.{notebook}.jsonl"

    def _write_record(self, entry: dict) -> None:
        import json

        # one line per event, flushed: a worker killed the next instant leaves it on disk
        self._record.write(json.dumps(entry) + "\n")
        self._record.flush()

    def _replay(self, nb, resources, path):
        """The notebook as far as the dead worker ran it: outputs of the cells it finished, the
        cell it was running crashed, every later cell not run. Scores are then computed from
        these outputs exactly as for a kernel that died (``ScoreProbes``)."""
        import json

        self.nb, self.resources = nb, resources
        if not path or not os.path.exists(path):
            raise RuntimeError("no record of the dead grading worker's progress to grade from")
        done, started, header = {}, None, None
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    entry = json.loads(line)
                except ValueError:  # a line cut short by the kill
                    break
                if header is None:
                    header = entry
                elif "done" in entry:
                    done[entry["done"]] = entry
                    started = None
                elif "start" in entry:
                    started = entry["start"]
                elif "language_info" in entry:
                    nb.metadata["language_info"] = entry["language_info"]
                elif "kept" in entry:
                    self._kept[entry["world"]] = list(entry["kept"])
        nonces = _probe_nonces(resources)
        if (header is None or header.get("cells") != len(nb.cells)
                or header.get("digest") != _cells_digest(nb, nonces)
                or set(header.get("nonces", {})) != set(nonces)):
            raise RuntimeError("the dead grading worker's record is of another notebook")
        for gid, entry in resources["grader_probes"].items():
            # the outputs recorded answer the probes that worker ran
            entry["plan"].nonce = header["nonces"][gid]
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            if self._stopped is not None:
                self.preprocess_cell(cell, resources, index)  # "not run"
            elif index in done:
                cell.outputs = [NotebookNode(o) for o in done[index]["outputs"]]
                cell.execution_count = done[index]["execution_count"]
                for kind, name, detail in done[index].get("issues", []):
                    add_issue(nb, kind, name, detail)
                if done[index].get("stop"):
                    resources["grader_stops"][index] = NotebookNode(done[index]["stop"])
                if done[index].get("stopped"):
                    self._stop(*done[index]["stopped"])
                if _students_own(cell, resources) and cell.source.strip() and \
                        not any(d.startswith(KILLED_DETAIL) for _, _, d in done[index].get("issues", [])):
                    self._ran.append(index)
            elif cell.source.strip():
                name = cell_name(cell, index)
                cell.outputs = [self._stop_output(index, "DeadKernelError", self.worker_died_message)]
                cell.execution_count = None
                add_issue(nb, "crashed", name, "the grading worker died")
                self._stop("grading worker died", name)
        # a cell the dead worker's kernel dropped (it killed the kernel, in its own run, a
        # replay, or blamed for a death seen in the next cell) is not among the kept cells
        dropped = {i["cell"] for i in issues_of(nb)
                   if i["kind"] == "crashed" and (i.get("detail") or "").startswith(KILLED_DETAIL)}
        self._ran = [i for i in self._ran if cell_name(nb.cells[i], i) not in dropped]
        self._kept.setdefault("", list(self._ran))
        return nb, resources

    def _run_cell_recorded(self, cell, resources, index):
        if self._record is None or cell.cell_type != "code":
            return self._run_cell(cell, resources, index)
        if "language_info" in self.nb.metadata and not getattr(self, "_language_recorded", False):
            self._write_record({"language_info": self.nb.metadata["language_info"]})
            self._language_recorded = True
        issues_before = len(issues_of(self.nb))
        self._write_record({"start": index})
        cell, resources = self._run_cell(cell, resources, index)
        issues = [[i["kind"], i["cell"], i["detail"]] for i in issues_of(self.nb)[issues_before:]]
        self._write_record({"done": index, "outputs": cell.get("outputs", []),
                            "execution_count": cell.get("execution_count"), "issues": issues,
                            "stop": (resources or {}).get("grader_stops", {}).get(index),
                            "stopped": list(self._stopped) if self._stopped else None})
        return cell, resources

    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        variant = split_variant(self._assignment or "")
        if "env" not in kwargs:
            env = dict(os.environ)
            if self.set_language and variant:
                env["MINITAPE_LANG"] = variant[1]
                env.pop("JPY_SESSION_NAME", None)
            kwargs["env"] = env
        # the kernel never needs the seed of the hidden points: the inputs come in the probes
        kwargs["env"] = {k: v for k, v in kwargs["env"].items() if k != "GRADER_SEED"}
        self._kernel_kwargs = {k: v for k, v in kwargs.items() if k != "cleanup_kc"}
        with super().setup_kernel(**kwargs):
            yield

    def _stop(self, reason: str, name: str) -> None:
        self._stopped = (reason, name)

    def _stop_output(self, index: int, ename: str, evalue: str) -> NotebookNode:
        """An output saying why cell ``index`` stopped, made here: the one feedback may show
        (``resources["grader_stops"]``), whatever the kernel itself sent."""
        output = error_output(ename, evalue)
        stops = (self.resources or {}).get("grader_stops")
        if stops is not None:
            stops.setdefault(index, output)
        return output

    async def _async_handle_timeout(self, timeout, cell=None):
        self._timeout_hit = True  # the cell ran past Execute.timeout (not just slow output)
        return await super()._async_handle_timeout(timeout, cell)

    def preprocess_cell(self, cell, resources, index):
        mark = probe_mark(cell, resources)
        probes = (resources or {}).get("grader_probes", {})
        entry = probes.get(mark[0]) if mark else None
        if self._stopped is None and entry is not None and entry.get("world", "") != self._world:
            self._enter_world(entry["world"], cell, index)
        if self._stopped is None and mark is not None and mark[0] in self._dead_exercises:
            # the other part of a probe whose function killed the kernel: it would again
            cell.outputs = [self._stop_output(index, "NotRun", self.not_run_message.format(
                reason="kernel died", cell=mark[0]))]
            cell.execution_count = None
            add_issue(self.nb, "not_run", cell_name(cell, index))
            return cell, resources
        if self._stopped is not None:
            if cell.cell_type == "code" and cell.source.strip():
                reason, where = self._stopped
                cell.outputs = [self._stop_output(
                    index, "NotRun", self.not_run_message.format(reason=reason, cell=where))]
                cell.execution_count = None
                if utils.is_grade(cell) or mark is not None:
                    add_issue(self.nb, "not_run", cell_name(cell, index))
            return cell, resources
        saved_timeout = self.timeout
        if entry is not None and self.timeout is not None and self.timeout > 0:
            # a probe calls the function once per case, each call with its own time limit
            self.timeout = max(self.timeout, entry.get("timeouts", {}).get(mark[1], entry["timeout"]))
        try:
            return self._run_cell_recorded(cell, resources, index)
        finally:
            self.timeout = saved_timeout

    def _enter_world(self, world: str, cell, index: int) -> None:
        """Go on in a fresh kernel of grading ``world`` (see the module doc): the cells the
        current kernel kept, replayed into it. When no kernel of that world can be brought to
        that state (its restarts spent), the rest of the notebook is not run."""
        self._kept[self._world] = list(self._ran)
        if self._record is not None:
            self._write_record({"kept": list(self._ran), "world": self._world})
        self._world = world
        where = WORLD_DETAIL.get(world, f"the {world} kernel")
        if not self.owns_km:  # the caller's kernel: not ours to replace
            self._stop(f"no fresh kernel for {where}", cell_name(cell, index))
            return
        self.log.info("Grading the rest in %s: replaying %d cell(s)", where, len(self._ran))
        for _ in range(self.max_kernel_restarts + 1):
            self._fresh_kernel()  # a failure to start one is the grader's: it propagates
            if self._replay_ran_cells(where):
                return
        self._stop(f"{where} died in every replay", cell_name(cell, index))

    def _run_cell(self, cell, resources, index):
        name = cell_name(cell, index)
        self._timeout_hit = False
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            if _students_own(cell, resources) and self._restart_without(index):
                # one of the student's own cells killed it: graded without that cell
                cell.outputs.append(self._stop_output(index, "DeadKernelError",
                                                      self._killed_message(name)))
                add_issue(self.nb, "crashed", name, KILLED_DETAIL)
                return cell, resources
            mark = probe_mark(cell, resources)
            if mark is not None and self._restart_without(index):
                # the function of this exercise killed it while its checks ran: the rest of
                # its checks are not run, the other exercises' checks go on in a fresh kernel
                cell.outputs.append(self._stop_output(
                    index, "DeadKernelError", "The kernel died while this exercise's function "
                    "was called (os._exit, a crash, or out of memory)."))
                add_issue(self.nb, "crashed", name, PROBE_KILLED_DETAIL)
                self._dead_exercises.add(mark[0])
                return cell, resources
            blamed = self._ran[-1] if _runs_no_student_code(cell, resources) and self._ran else None
            if blamed is not None:
                # a cell with no student code in it (a test cell, now a placeholder) cannot kill
                # the kernel: the death the student's last cell caused surfaced here (a kernel
                # that answered, then died of what that cell did): graded without that cell
                self._ran.remove(blamed)
                if self._restart_without(blamed):
                    culprit = cell_name(self.nb.cells[blamed], blamed)
                    self.nb.cells[blamed].setdefault("outputs", []).append(
                        error_output("DeadKernelError", self._killed_message(culprit)))
                    add_issue(self.nb, "crashed", culprit,
                              KILLED_DETAIL + f" (the death showed in the next cell, {name})")
                    return cell, resources
            cell.outputs.append(self._stop_output(
                index, "DeadKernelError",
                "The kernel died while running this cell (os._exit, a crash, or out of memory)."))
            add_issue(self.nb, "crashed", name, "the kernel died")
            self._stop("kernel died", name)
            return cell, resources
        except CellTimeoutError:
            if not self._timeout_hit:
                # the cell finished (its reply came) but its last output did not arrive within
                # iopub_timeout, e.g. on an overloaded machine: not the student's fault
                self.log.warning("Output of %s still incomplete after %s s", name, self.iopub_timeout)
                return cell, resources
            # nbclient gave up waiting for the kernel even after interrupting it (no output
            # and no idle status): nbgrader would abandon the whole submission here
            cell.outputs.append(self._stop_output(
                index, "CellTimeoutError",
                f"No reply within {self.timeout} s; the kernel did not respond to the interrupt."))
            add_issue(self.nb, "timed_out", name, f"no reply within {self.timeout} s")
            self._stop("kernel unresponsive after a timeout", name)
            return cell, resources
        # timed out: nbclient waited it out here (an error the kernel names CellTimeoutError is
        # only the kernel's word)
        timed_out = self._timeout_hit
        if timed_out:
            self._stop_output(index, "CellTimeoutError", f"No reply within {self.timeout} s.")
            add_issue(self.nb, "timed_out", name, f"no reply within {self.timeout} s")
            if self._last_timed_out:  # the interrupt did not stop it: the kernel is stuck
                self._stop("kernel unresponsive after a timeout", name)
        self._last_timed_out = timed_out
        if cell.cell_type == "code" and _students_own(cell, resources) and cell.source.strip():
            self._ran.append(index)
        return cell, resources

    def _killed_message(self, name: str) -> str:
        from grader.i18n import t

        variant = split_variant(self._assignment or "")
        return t("grading.kernel_killed", variant[1] if variant else "en", cell=name)

    def _restart_without(self, index: int) -> bool:
        """After the student's cell ``index`` killed the kernel: start a fresh kernel and replay
        the cells that ran before it, in order, without ``index``. A replayed cell that kills the
        kernel again is left out too (noted as crashed) and the replay starts over, at most
        ``max_kernel_restarts`` kernels in all. False when no kernel could be brought back to
        that state: the notebook then stops here as before (later cells not run)."""
        if not self.owns_km:
            return False  # the caller's kernel: not ours to replace
        while self._restarts < self.max_kernel_restarts:
            self._restarts += 1
            self.log.warning("The kernel died in %s; restarting it (%d of %d) and replaying "
                             "%d cell(s) without it", cell_name(self.nb.cells[index], index),
                             self._restarts, self.max_kernel_restarts, len(self._ran))
            try:
                self._fresh_kernel()
            except Exception as exc:  # noqa: BLE001 - no kernel: stop as for any dead kernel
                self.log.warning("Could not restart the kernel: %s", exc)
                return False
            if self._replay_ran_cells():
                return True
        return False

    def _fresh_kernel(self) -> None:
        """Replace the kernel by a fresh one of the current grading world."""
        try:
            self._cleanup_kernel()
        except Exception as exc:  # noqa: BLE001 - the dead kernel's leftovers
            self.log.debug("cleaning up the dead kernel: %s", exc)
        self.kc = None
        self.km = self.create_kernel_manager()
        if self._world:
            self.km.world = self._world  # grader.infra.kernels.PreloadedKernelManager
        self.start_new_kernel(**self._kernel_kwargs)
        self.start_new_kernel_client()

    def _replay_ran_cells(self, where: str = "") -> bool:
        """Run again, in the fresh kernel, every cell that ran; their outputs stay those of the
        first run. False (and that cell dropped from the replay) when one kills the kernel."""
        import copy

        for i in list(self._ran):
            original = self.nb.cells[i]
            twin = copy.deepcopy(original)
            twin.outputs = []
            try:
                self.execute_cell(twin, i, store_history=True)
            except DeadKernelError:
                self._ran.remove(i)
                name = cell_name(self.nb.cells[i], i)
                self.nb.cells[i].setdefault("outputs", []).append(
                    error_output("DeadKernelError", self._killed_message(name)))
                detail = KILLED_DETAIL + (f" (when it was run again in {where})" if where
                                          else " (when it was run again)")
                add_issue(self.nb, "crashed", name, detail)
                return False
            except CellTimeoutError:
                continue  # as in its first run; its outputs there say so
            finally:
                # nbclient puts the cell it ran into the notebook: the record keeps the first run
                self.nb.cells[i] = original
        return True
