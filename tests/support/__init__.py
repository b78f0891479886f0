"""Harnesses shared by the tests and the benchmarks (one home, imported as ``tests.support.X``):

* ``course``: a real nbgrader course built from lesson 1, simulated student submissions, and one
  released course per test session shared by the grader's end-to-end tests (``released_course``);
  also used by ``benchmarks/autograde_parallel.py``.
* ``shared``: ``build_once``, a folder built once per test session for every pytest-xdist worker
  (under a file lock, keyed by a content hash of its inputs).
* ``server``: start a Jupyter server on a free port, wait until it answers, stop it afterwards.
* ``tfdiff``: the TensorFlow-differential comparer (run a program or guide cell under minitape,
  compare with TF's recording); ``benchmarks/tfdiff/record_*.py`` record with it.
* ``strict_backend``: a CPU array backend that refuses implicit conversion to NumPy, as CuPy does
  (``pytest tests/minitape --backend=strict``).
* ``fake_cupy/``: a stand-in ``cupy`` built on the strict backend (put this folder and the
  repository root on ``PYTHONPATH``), for the GPU-only code paths on machines without a GPU.
* ``project``: a copy of the project as a fresh clone has it, clean subprocess environments
  (the packaging tests), and the student distribution built once per session.
"""
