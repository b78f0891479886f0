"""400 random programs with first, second and third derivatives (and forward mode), replayed under minitape and
compared with TensorFlow 2.21's recorded results (values within the dtype's tolerance, None vs
zeros, dtypes, shapes, exception classes and messages).

The programs come from the seeded generator ``benchmarks/tfdiff/programs.py``; their source and
TF's results are in ``fixtures/tfdiff_programs.json``. Re-record (with TensorFlow installed)::

    python benchmarks/tfdiff/record_programs.py

TensorFlow is not imported here.
"""
import pytest

import minitape as tf

from tests.support.tfdiff import compare_runs, load, run_program

DATA = load("tfdiff_programs.json")
PROGRAMS = {p["seed"]: p for p in DATA["programs"]}

# Differences kept on purpose (README, "minitape API vs TensorFlow"): the test fails if one of
# them starts agreeing, so that the table stays true.
DELIBERATE: dict = {}  # seed -> reason; none at the last recording


def test_the_recording_is_large_enough():
    assert DATA["tensorflow"].startswith("2.")
    assert len(PROGRAMS) >= 300
    modes = " ".join(p["src"] for p in PROGRAMS.values())
    for needle in ("jacobian(", "batch_jacobian(", "output_gradients=", "persistent=True",
                   "t2.gradient(", "UnconnectedGradients.ZERO", "tf.Variable(", ".watch(",
                   "float64", "float32", "ForwardAccumulator", "tf.einsum", "tf.gather"):
        assert needle in modes


@pytest.mark.parametrize("seed", sorted(PROGRAMS))
def test_program_agrees_with_tensorflow(seed):
    p = PROGRAMS[seed]
    diffs = compare_runs(p["tf"], run_program(tf, p["src"]))
    if seed in DELIBERATE:
        assert diffs, f"seed {seed} now agrees with TF: drop it from DELIBERATE and the README"
        return
    assert not diffs, "minitape differs from TensorFlow:\n" + "\n".join(diffs) + \
        "\n\nprogram:\n" + p["src"]
