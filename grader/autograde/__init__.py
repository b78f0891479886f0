"""The trusted side of autograding: what runs in the instructor's process, never in a kernel.

nbgrader preprocessors, one per module as nbgrader keeps its own (wired in
``grader/course/nbgrader_config.py``, in this order at autograde):

* :mod:`~grader.autograde.record_issues` (sanitize) -- repairs and records what students did
  to the notebook's structure;
* :mod:`~grader.autograde.inject_probes` -- test cells become probes whose inputs are chosen
  here (:mod:`~grader.autograde.scoring`, :mod:`~grader.autograde.probe`);
* :mod:`~grader.autograde.execute` -- nbgrader's ``Execute`` surviving dead and hung kernels;
* :mod:`~grader.autograde.score_probes` -- scores computed here from the values the kernel sent;
* :mod:`~grader.autograde.bounds`, :mod:`~grader.autograde.neutralize_stderr`,
  :mod:`~grader.autograde.flag_issues`;
* releasing and feedback: :mod:`~grader.autograde.clear_solutions`,
  :mod:`~grader.autograde.localize_feedback`, :mod:`~grader.autograde.hide_hidden_tests`.

Around them: the export (:mod:`~grader.autograde.export`), the technique notes
(:mod:`~grader.autograde.technique`), feedback pages, the class report and the instructor's
command line (:mod:`~grader.autograde.cli`, ``python -m grader``). This package imports the
student side (:mod:`grader.student`: the exercises, the comparisons) and the kernel
infrastructure (:mod:`grader.infra`); neither of them imports it. :mod:`~grader.autograde.probe`
is the one module of it that runs in a kernel: as text, with the wire codec
(:mod:`grader.wire`), never imported there.
"""

from grader.infra import nbgrader_compat

# The course's nbgrader_config.py imports preprocessors from here: nbgrader's own commands
# (`.venv/bin/nbgrader ...`) then open the gradebook without an `alembic` on PATH.
nbgrader_compat.install()
