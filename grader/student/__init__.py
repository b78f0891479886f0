"""The student side: what ``check()`` needs, shipped into kernels, the student wheel and JupyterLite.

* :mod:`~grader.student.check` -- ``check(id)`` and ``grade(id)``, what a lesson's test cell calls;
* :mod:`~grader.student.registry` -- the exercise registry (the instructor's definitions, in
  ``grader/course/definitions/`` or a course's ``definitions/``, are loaded into it where they
  are present);
* :mod:`~grader.student.visible` -- the visible checks as data (``visible_cases.json``);
* :mod:`~grader.student.runner`, :mod:`~grader.student.checks` -- running and comparing;
* :mod:`~grader.student.report`, :mod:`~grader.student.diagnose`,
  :mod:`~grader.student.mistakes` -- what the student reads.

It imports only the grader's base modules (:mod:`grader.i18n`, :mod:`grader.messages`,
:mod:`grader.glosses`, :mod:`grader.wire`) and minitape; never :mod:`grader.autograde` or
:mod:`grader.infra` (``tests/test_layout.py``).
"""
