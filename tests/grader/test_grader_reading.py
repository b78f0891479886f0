"""The trusted side's reading of a submission (grader.autograde.technique): what it binds, what
can rebind a name out of its sight, what hooks the probe's channel -- notes for the instructor,
and the one point-deciding fact, a stub that always raises (issue 36, items 1, 2a and 7).

No kernel: sources in, verdicts out."""

from __future__ import annotations

import pytest

from grader.autograde.technique import (ANYTHING, channel_notes, evidence, provably_raises,
                                        rebinding, technique_notes)
from grader.student.registry import get

STUB = "def f(x):\n    raise NotImplementedError()\n"


# ------------------------------------------------------------------------------------------
# item 7: "unsure" only where a construct can rebind the stub's name
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("other, verdict", [
    ("", "yes"),
    # constructs that cannot rebind f: the stub stays provably raising (values for it are forged)
    ("print('f' in globals())\nx = globals().get('y')\nn = len(globals())\n", "yes"),
    ("globals()['g'] = 1\nglobals().update(h=2)\n", "yes"),
    ("import sys\nprint(sys._getframe().f_code.co_name)\n", "yes"),
    ("exec('y = 1')\n", "yes"),
    ("def g():\n    global h\n    h = 1\n", "yes"),
    ("setattr(obj, 'x', 1)\n", "yes"),
    ("%timeit f(1)\n%matplotlib inline\n!ls\n", "yes"),
    ("get_ipython().ast_node_interactivity = 'none'\n", "yes"),
    # constructs that can: a reading cannot tell, so it is the instructor's to review
    ("globals()['f'] = len\n", "unsure"),
    ("G = globals()\nG['f'] = len\n", "unsure"),
    ("globals().update({name: len})\n", "unsure"),
    ("exec('f = len')\n", "unsure"),
    ("exec(code)\n", "unsure"),
    ("import sys\nsys._getframe().f_globals['f'] = len\n", "unsure"),
    ("import __main__\n__main__.f = len\n", "unsure"),
    ("import sys\nsys.modules['__main__'].f = len\n", "unsure"),
    ("setattr(main, name, len)\n", "unsure"),
    ("%run other.py\n", "unsure"),
    ("%load_ext hooks\n", "unsure"),
    ("def g():\n    global f\n    f = len\n", "unsure"),
    ("f.__code__ = len.__code__\n", "unsure"),
    ("get_ipython().events.register('pre_run_cell', swap)\n", "unsure"),
    ("import mylocalmodule\n", "unsure"),
    ("from os.path import *\n", "unsure"),
    # rebindings a reading follows: not a stub at the end any more
    ("for f in [len]:\n    pass\n", "no"),
    ("(f := len)\n", "no"),
    ("with open('x') as f:\n    pass\n", "no"),
    ("%time f = len\n", "no"),
])
def test_a_stub_is_unsure_only_where_something_can_rebind_it(other, verdict):
    assert provably_raises([STUB, other], "f") == verdict


def test_a_stub_built_on_stubs_counts_the_functions_it_relies_on():
    helper = "def helper(x):\n    raise NotImplementedError()\n"
    built = "def f(x):\n    helper(x)\n"
    assert provably_raises([helper, built], "f") == "yes"
    assert provably_raises([helper, built, "globals()['helper'] = len\n"], "f") == "unsure"
    assert provably_raises([helper, built, "globals()['other'] = len\n"], "f") == "yes"


def test_rebinding_names_what_each_construct_can_rebind():
    found = rebinding(["globals()['a'] = 1\n", "setattr(x, 'b', 2)\n", "exec(s)\n"])
    assert found["globals()"] == {"a"} and found["setattr"] == {"b"} and found["exec"] == {ANYTHING}


# ------------------------------------------------------------------------------------------
# item 1: the reading follows every binding form (notes for the instructor)
# ------------------------------------------------------------------------------------------
HONEST = "def backward(tape, values, target):\n    return {n: 0.0 for n in values}\n"
BY_MINITAPE = ("import minitape as tf\n\ndef _mt(tape, values, target):\n"
               "    with tf.GradientTape() as t:\n        pass\n    return {}\n")
FORBIDS = get("l07_ex2").techniques


@pytest.mark.parametrize("rebind", [
    "for backward in [_mt]:\n    pass\n",
    "(backward := _mt)\n",
    "with open('x') as _f:\n    backward = _mt\n",
    "try:\n    raise ValueError\nexcept ValueError:\n    backward = _mt\n",
])
def test_the_reading_follows_the_binding_the_probes_see(rebind):
    notes = technique_notes(FORBIDS, [BY_MINITAPE, HONEST, rebind], "backward")
    assert any("reaches it" in n for n in notes), notes


@pytest.mark.parametrize("rebind, construct", [
    ("import __main__\n__main__.backward = _mt\n", "__main__"),
    ("%run mt_backward.py\n", "%run"),
    ("get_ipython().events.register('pre_run_cell', lambda info: None)\n", "get_ipython()"),
    ("def _swap():\n    global backward\n    backward = _mt\n", "global"),
])
def test_a_rebinding_out_of_sight_is_named_in_the_note(rebind, construct):
    notes = technique_notes(FORBIDS, [BY_MINITAPE, HONEST, rebind], "backward")
    assert any("review by hand" in n and construct in n for n in notes), notes


def test_a_method_patched_onto_a_class_is_read_with_the_class():
    code = (BY_MINITAPE + "\nclass Solver:\n    def run(self, tape, values, target):\n"
            "        return {}\n\nSolver.run = _mt\n\n"
            "def backward(tape, values, target):\n    return Solver().run(tape, values, target)\n")
    assert any("reaches it" in n for n in technique_notes(FORBIDS, [code], "backward"))


@pytest.mark.parametrize("code", [
    "import functools\nimport minitape as tf\nGT = functools.reduce(getattr, ['Gradient' + 'Tape'], tf)\n"
    "def backward(tape, values, target):\n    with GT() as t:\n        pass\n    return {}\n",
    "import operator\nimport minitape as tf\nGT = operator.attrgetter('Gradient' + 'Tape')(tf)\n"
    "def backward(tape, values, target):\n    with GT() as t:\n        pass\n    return {}\n",
])
def test_attribute_names_built_from_strings_are_code_a_reading_cannot_follow(code):
    notes = technique_notes(FORBIDS, [code], "backward")
    assert any("review by hand" in n for n in notes), notes


def test_an_optimizers_minimize_counts_as_minitapes_autodiff():
    code = ("import minitape as tf\n\ndef train_losses(values, xs, ys, learning_rate, steps):\n"
            "    opt = tf.keras.optimizers.SGD(learning_rate)\n"
            "    opt.minimize(lambda: 0.0, [])\n    return [[], []]\n")
    notes = technique_notes(get("l07_ex5").techniques, [code], "train_losses")
    assert any("asked not to use minitape's automatic differentiation" in n for n in notes), notes


# ------------------------------------------------------------------------------------------
# item 7: honest code is not flagged
# ------------------------------------------------------------------------------------------
def test_output_gradients_passed_positionally_is_output_gradients():
    positional = ("def layer_vjp(w, x, u):\n    with tf.GradientTape() as tape:\n"
                  "        tape.watch(x)\n        y = tf.tanh(tf.matmul(x, w))\n"
                  "    return tape.gradient(y, [x, w], u)\n")
    assert technique_notes(get("l05_ex6").techniques, [positional], "layer_vjp") == []


@pytest.mark.parametrize("resolve", [
    "    if kit is None:\n        kit = OURS\n",
    "    kit = OURS if kit is None else kit\n",
    "    kit = kit or OURS\n",
    '    """Train on our tape."""\n    if kit is None:\n        kit = OURS\n',
])
def test_a_default_resolved_at_the_top_of_a_function_is_no_branch(resolve):
    given = ("class Tape:\n    pass\n\ndef record(*a):\n    return None\n\ndef relu(x):\n    return x\n\n"
             "OURS = (float, Tape, relu)\n")
    train = ("def train_losses(values, xs, ys, learning_rate, steps, kit=None):\n" + resolve +
             "    leaf, tape_class, relu_fn = kit\n    with tape_class() as tape:\n"
             "        record(leaf)\n    return [[], []]\n")
    notes = technique_notes(get("l07_ex5").techniques, [given, train], "train_losses")
    assert notes == [], notes


def test_a_real_branch_is_still_read_as_one():
    code = ("class Tape:\n    pass\n\ndef record(*a):\n    return None\n\n"
            "def f(a0, b0):\n    if a0 > 0:\n        with Tape() as t:\n            record(t)\n"
            "    return [0.0, 0.0]\n")
    notes = technique_notes(get("l07_ex1").techniques, [code], "f")
    assert any("only on some paths" in n for n in notes), notes


# ------------------------------------------------------------------------------------------
# item 2a: what hooks the probe's channel is noted, naming the cell
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("source, words", [
    ("import IPython.display as d\nd.display = print\n", "IPython patched"),
    ("from IPython import display\ndisplay.publish_display_data = print\n", "IPython patched"),
    ("import sys\nsys.displayhook = print\n", "output hook"),
    ("get_ipython().events.register('post_run_cell', print)\n", "IPython's shell"),
    ("ip = get_ipython()\nip.display_pub.publish = print\n", "IPython's shell"),
    ("import json\njson.loads = print\n", "json patched"),
    ("import numpy as np\nnp.allclose = lambda *a: True\n", "numpy patched"),
    ("import minitape as tf\ntf.Tensor.numpy = lambda self: 0\n", "minitape patched"),
    ("import builtins\nbuiltins.isinstance = lambda *a: True\n", "builtins patched"),
    ("import sys\nsys.settrace(print)\n", "event hook"),
    ("_real = compile\ndef compile(*a, **k):\n    return _real(*a, **k)\n", "compile defined"),
    ("%run hooks.py\n", "%run"),
    ("exec(open('hooks.py').read())\n", "exec"),
    ("import myhooks\n", "myhooks"),
])
def test_hooks_on_the_probes_channel_are_noted(source, words):
    notes = channel_notes([("cell 7", source)])
    assert notes and notes[0][0] == "cell 7" and any(words in what for _, what in notes), notes


@pytest.mark.parametrize("source", [
    "%matplotlib inline\n%timeit f(1)\n",
    "%%capture out\nx = 1\n",
    "!pip list\nout = !ls\n",
    "get_ipython().ast_node_interactivity = 'none'\n",
    "Value.__add__ = add\nTape.gradient = gradient\n",
    "import numpy as np\nx = np.zeros(3)\nx[0] = 1.0\n",
    "import math\nprint(math.pi)\n",
    "def f(x):\n    return display(x)\n",
])
def test_honest_notebook_code_is_not_taken_for_a_hook(source):
    assert channel_notes([("cell 1", source)]) == []


def test_evidence_of_a_stub_without_constructs_is_plain():
    ev = evidence([STUB], "f")
    assert ev.raises and not ev.dynamic
