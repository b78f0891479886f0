"""Where graded code runs: kernels, their sandbox, and the workers that drive them.

* :mod:`~grader.infra.sandbox` -- the bubblewrap sandbox a kernel runs in (also the lessons'
  sandboxed lab kernel, ``lessons/lab_kernel.py``);
* :mod:`~grader.infra.zygote` -- the warm process kernels are forked from (run as a script
  inside the sandbox), :mod:`~grader.infra.kernels` -- the kernel managers that fork from it;
* :mod:`~grader.infra.session` -- the defensive Jupyter session of every grading kernel;
* :mod:`~grader.infra.student_site`, :mod:`~grader.infra.student_wheel` -- the student's
  packages as the sandbox sees them, and the student wheel with its audit;
* :mod:`~grader.infra.parallel`, :mod:`~grader.infra.cluster` -- autograding on all cores, or
  on a Dask cluster; :mod:`~grader.infra.submissions` -- submitted files checked before
  anything reads them; :mod:`~grader.infra.nbgrader_compat` -- nbgrader without ``alembic``.

It imports neither the student side (:mod:`grader.student`) nor the trusted autograding side
(:mod:`grader.autograde`): what it runs is configured by the course (``nbgrader_config.py``)
and passed in as arguments (``tests/test_layout.py``).
"""
