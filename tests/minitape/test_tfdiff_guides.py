"""Cells in the style of TensorFlow's guides (tensors, variables, modules and Keras layers, basic
training loops, custom training, both autodiff guides; printing and errors), replayed under minitape and compared
with what TensorFlow 2.21 (Keras 3) printed, warned, raised and displayed for the same cells.

The cells are ``benchmarks/tfdiff/guide_cells.py``; TF's output is recorded in
``fixtures/tfdiff_guides.json``. Re-record (with TensorFlow installed)::

    python benchmarks/tfdiff/record_guides.py

Each notebook runs in a fresh interpreter, as in a new Jupyter kernel (Keras' layer names start
again at ``dense``). TensorFlow is not imported here.
"""
import pytest

from tests.support.tfdiff import EXACT_TEXT, compare_cell, load, run_notebook_in_subprocess

DATA = load("tfdiff_guides.json")

# the notebooks replay in a fresh interpreter, on NumPy whatever --backend says: a strict rerun
# would repeat this file unchanged (tests/minitape/conftest.py leaves it out there)
pytestmark = pytest.mark.backend_independent

# Differences kept on purpose (docs/tensorflow-differences.md); the test fails when one of
# them starts agreeing, so that the table stays true.
DELIBERATE = {
    ("tensors", 31): "string tensors: minitape's tensors hold numbers and booleans",
    ("variables", 6): "assign returns the Variable itself; TF's repr says 'UnreadVariable'",
    ("variables", 16): "assign returns the Variable itself; TF's repr says 'UnreadVariable'",
    ("printing_and_errors", 23): "dtype refusals end after NodeDef (TF appends the op's signature)",
    ("printing_and_errors", 24): "dtype refusals end after NodeDef (TF appends the op's signature)",
    ("printing_and_errors", 25): "dtype refusals end after NodeDef (TF appends the op's signature)",
    ("printing_and_errors", 31): "no tf.string",
    ("printing_and_errors", 60): "a non-tensor source: TF's class and text, then what is expected",
    ("printing_and_errors", 61): "a None source: TF's class and text, then what is expected",
    ("printing_and_errors", 72): "tf.constant of a list of tensors: a ValueError naming tf.stack",
    ("printing_and_errors", 80): "optimizer options minitape does not implement are refused",
    ("printing_and_errors", 82): "apply_gradients of a non-Variable: a TypeError saying why",
    ("sparse_gradients", 4): "IndexedSlices' default repr names minitape's module, not TF's",
    ("sparse_gradients", 40): "a Jacobian through a gather: TF warns about densifying inside "
                              "its vectorized loop (graph tensor names); minitape's is dense",
}


@pytest.fixture(scope="module")
def replayed():
    return {name: run_notebook_in_subprocess("minitape", [c["src"] for c in cells])
            for name, cells in DATA["notebooks"].items()}


def test_the_recording_covers_the_guides():
    assert DATA["tensorflow"].startswith("2.")
    assert set(DATA["notebooks"]) == {"tensors", "variables", "modules", "basic_training",
                                      "custom_training", "autodiff", "advanced_autodiff",
                                      "printing_and_errors", "sparse_gradients",
                                      "printing_digits", "kink_warnings", "errors_round3",
                                      "dtypes_round3", "keras_models", "custom_fit",
                                      "training_walkthrough"}
    assert sum(len(c) for c in DATA["notebooks"].values()) >= 400
    for key in DELIBERATE:
        assert key[1] < len(DATA["notebooks"][key[0]])


CELLS = [(name, i) for name, cells in DATA["notebooks"].items() for i in range(len(cells))]


@pytest.mark.parametrize("name, index", CELLS, ids=[f"{n}-{i}" for n, i in CELLS])
def test_cell_agrees_with_tensorflow(replayed, name, index):
    cell = DATA["notebooks"][name][index]
    diffs = compare_cell(cell["tf"], replayed[name][index], exact=name in EXACT_TEXT)
    if (name, index) in DELIBERATE:
        assert diffs, f"{name}[{index}] now agrees with TF: drop it from DELIBERATE and the README"
        return
    assert not diffs, ("minitape differs from TensorFlow:\n" + "\n".join(diffs)
                       + "\n\ncell:\n" + cell["src"])
