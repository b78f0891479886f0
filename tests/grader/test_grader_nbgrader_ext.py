"""The nbgrader preprocessors, on small notebooks, against nbgrader's own grading rules."""

from __future__ import annotations

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

from nbgrader.utils import determine_grade
from grader.autograde.execute import GraderExecute
from grader.autograde.hide_hidden_tests import HideHiddenTestsInFeedback
from grader.autograde.issues import issues_of
from grader.autograde.neutralize_stderr import NeutralizeStderr


def _grade_cell(source: str, points: float = 2, grade_id: str = "ex1"):
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                 "grade_id": grade_id, "points": points, "schema_version": 3}
    return cell


def test_stderr_no_longer_zeroes_a_passing_test_cell():
    cell = _grade_cell("grade('ex1')")
    cell.outputs = [new_output("stream", name="stderr", text="DeprecationWarning: ...\n"),
                    new_output("execute_result", data={"text/plain": "1.5"}, execution_count=1)]
    assert determine_grade(cell) == (0, 2.0)  # nbgrader's rule: any stderr is a failure
    nb = new_notebook(cells=[cell])
    NeutralizeStderr().preprocess(nb, {})
    assert determine_grade(nb.cells[0]) == (1.5, 2.0)
    assert nb.cells[0].outputs[0].name == "stdout"  # kept, visible


def test_stderr_next_to_an_error_is_left_alone():
    cell = _grade_cell("grade('ex1')")
    cell.outputs = [new_output("stream", name="stderr", text="oops\n"),
                    new_output("error", ename="AssertionError", evalue="no", traceback=[])]
    nb = new_notebook(cells=[cell, new_code_cell("x")])
    nb.cells[1].outputs = [new_output("stream", name="stderr", text="not a test cell\n")]
    NeutralizeStderr().preprocess(nb, {})
    assert nb.cells[0].outputs[0].name == "stderr" and nb.cells[1].outputs[0].name == "stderr"
    assert determine_grade(nb.cells[0]) == (0, 2.0)


def test_feedback_drops_hidden_tests_and_tracebacks_that_quote_them():
    cell = _grade_cell('check("ex1")\n### BEGIN HIDDEN TESTS\nsecret = 42\ngrade("ex1")\n'
                       '### END HIDDEN TESTS')
    cell.outputs = [new_output("error", ename="AssertionError", evalue="Exercise ex1: no check passed",
                               traceback=["---", "----> 4 grade(\"ex1\")  # secret = 42",
                                          "AssertionError: Exercise ex1: no check passed"])]
    nb = new_notebook(cells=[cell])
    nb, _ = HideHiddenTestsInFeedback().preprocess(nb, {})
    text = nbformat.writes(nb)
    assert "secret" not in text and "grade(" not in text and "HIDDEN" not in text
    assert nb.cells[0].source == 'check("ex1")'
    assert nb.cells[0].outputs[0].traceback == ["AssertionError: Exercise ex1: no check passed"]


def _run(nb, timeout=30, assignment="demo-ru"):
    ep = GraderExecute(timeout=timeout, interrupt_on_timeout=True)
    ep.preprocess(nb, {"metadata": {"path": "."}, "nbgrader": {"assignment": assignment}})
    return nb


@pytest.mark.kernel  # starts a Jupyter kernel
def test_a_dead_kernel_does_not_abandon_the_notebook_and_later_tests_get_no_credit():
    nb = new_notebook(cells=[
        _grade_cell("import os\nprint(os.environ['MINITAPE_LANG'])", grade_id="before"),
        _grade_cell("import os\nos._exit(1)", grade_id="killer"),
        _grade_cell("1 + 1", grade_id="after"),
    ])
    _run(nb)
    assert nb.cells[0].outputs[0].text == "ru\n"  # the language follows the assignment id
    assert determine_grade(nb.cells[0]) == (2.0, 2.0)
    assert nb.cells[1].outputs[-1].ename == "DeadKernelError"
    assert determine_grade(nb.cells[1]) == (0, 2.0)
    # without the "not run" error, an empty test cell would get full credit from nbgrader
    assert nb.cells[2].outputs[0].ename == "NotRun"
    assert determine_grade(nb.cells[2]) == (0, 2.0)
    assert [(i["kind"], i["cell"]) for i in issues_of(nb)] == [("crashed", "killer"), ("not_run", "after")]


@pytest.mark.kernel  # starts a Jupyter kernel
def test_a_kernel_that_ignores_the_interrupt_stops_execution_instead_of_failing_the_submission():
    stubborn = ("import time\nwhile True:\n    try:\n        time.sleep(0.05)\n"
                "    except KeyboardInterrupt:\n        pass\n")
    nb = new_notebook(cells=[_grade_cell(stubborn, grade_id="hang"), _grade_cell("1", grade_id="next"),
                             _grade_cell("2", grade_id="last")])
    _run(nb, timeout=2)  # nbgrader's own Execute raises here and drops the whole submission
    assert nb.cells[0].outputs[-1].ename == "CellTimeoutError"
    assert determine_grade(nb.cells[0]) == (0, 2.0)
    assert [c.outputs[0].ename for c in nb.cells[1:]] == ["NotRun", "NotRun"]
    assert [i["kind"] for i in issues_of(nb)] == ["timed_out", "not_run", "not_run"]


def _solution_notebook(lang: str | None):
    cell = new_code_cell("def f(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION")
    cell.metadata["nbgrader"] = {"solution": True, "grade": False, "locked": False,
                                 "grade_id": "f_solution", "schema_version": 3}
    nb = new_notebook(cells=[cell])
    nb.metadata["kernelspec"] = {"language": "python", "name": "python3", "display_name": "Python 3"}
    if lang:
        nb.metadata["minitape"] = {"lang": lang}
    return nb


def test_the_stub_speaks_the_notebooks_language():
    from grader.autograde.clear_solutions import LocalizedClearSolutions

    released = {}
    for lang, resources in (("ru", {}), (None, {"nbgrader": {"assignment": "01-gradients-pt"}}),
                            (None, {}), ("es", {"nbgrader": {"assignment": "01-gradients-ru"}})):
        nb, _ = LocalizedClearSolutions().preprocess(_solution_notebook(lang), dict(resources))
        released[lang, resources.get("nbgrader", {}).get("assignment")] = nb.cells[0].source
    assert released["ru", None] == "def f(x):\n    # ВАШ КОД ЗДЕСЬ\n    raise NotImplementedError()"
    assert "# ESCREVA AQUI O SEU CÓDIGO" in released[None, "01-gradients-pt"]  # from the assignment id
    assert "# YOUR CODE HERE" in released[None, None]
    assert "# ESCRIBE AQUÍ TU CÓDIGO" in released["es", "01-gradients-ru"]  # the notebook's own language wins
    assert all("return 2 * x" not in s for s in released.values())


def test_feedback_words_follow_the_assignments_language():
    from grader.autograde.localize_feedback import FEEDBACK_WORDS, LocalizeFeedback

    _, resources = LocalizeFeedback().preprocess(new_notebook(), {"nbgrader": {"assignment": "03-none-gradients-es"}})
    assert resources["grader_lang"] == "es"
    assert set(resources["grader_words"]) == set(FEEDBACK_WORDS)
    assert (resources["grader_words"]["answer"], resources["grader_words"]["score"]) == ("Tu respuesta", "Puntuación")


@pytest.mark.kernel  # runs a notebook
def test_the_kernel_never_gets_the_seed_of_the_hidden_points(monkeypatch):
    # autograde-all --seed N puts GRADER_SEED in the grading process's environment (read by
    # InjectProbes there); the kernel gets the probes' inputs, never the seed
    monkeypatch.setenv("GRADER_SEED", "12345")
    for assignment in ("demo-ru", "no-language-suffix"):
        nb = new_notebook(cells=[new_code_cell("import os\nprint(repr(os.environ.get('GRADER_SEED')))")])
        _run(nb, assignment=assignment)
        assert nb.cells[0].outputs[0].text.strip() == "None", assignment


# ------------------------------------------------------------------------------------------
# Issue 36, class 3: every notebook Jupyter can open is read (grader.autograde.read_submission);
# what a kernel sends never stops grading (grader.infra.session.SafeSession)
# ------------------------------------------------------------------------------------------
def _notebook_json() -> dict:
    import json

    nb = new_notebook(cells=[new_code_cell("y = 0\nx = 1  # caf\u00e9"), nbformat.v4.new_markdown_cell("# Title")])
    nb.cells[0].metadata["nbgrader"] = {"grade": False, "solution": True, "locked": False,
                                        "grade_id": "ex1_solution", "schema_version": 3}
    return json.loads(nbformat.writes(nb))


@pytest.mark.parametrize("name, make, note", [
    ("surrogate", lambda d: (d["cells"][0].__setitem__("source", "# half \ud83d emoji\nx = 1"),
                             _dumps(d, ensure_ascii=True))[1], "half a UTF-16 surrogate pair"),
    ("utf-8 bom", lambda d: b"\xef\xbb\xbf" + _dumps(d), "byte-order mark (utf-8)"),
    ("utf-16", lambda d: _dumps(d, ensure_ascii=False).decode().encode("utf-16"), "byte-order mark (utf-16)"),
    ("latin-1", lambda d: _dumps(d, ensure_ascii=False).decode().encode("latin-1"), "not UTF-8"),
    ("crlf", lambda d: _dumps(d).replace(b"\\n", b"\\r\\n").replace(b"\n", b"\r\n"), "CR LF"),
    ("no ids", lambda d: (d.__setitem__("nbformat_minor", 4), [c.pop("id") for c in d["cells"]],
                          _dumps(d))[2], None),
    ("duplicate ids", lambda d: ([c.__setitem__("id", "same") for c in d["cells"]], _dumps(d))[1], None),
    ("newer minor", lambda d: (d.__setitem__("nbformat_minor", 99), _dumps(d))[1], "read as 4.5"),
    ("nbformat 3", lambda d: nbformat.writes(nbformat.convert(nbformat.reads(_dumps(d).decode(), 4), 3)).encode(),
     "nbformat 3 converted"),
    ("unknown cell type", lambda d: (d["cells"][1].__setitem__("cell_type", "heading"), _dumps(d))[1],
     "read as a raw cell"),
    ("no cell metadata", lambda d: (d["cells"][1].pop("metadata"), d.pop("metadata"), _dumps(d))[2],
     "no metadata"),
    ("source as lines", lambda d: _dumps(d), None),  # as nbformat writes them: lists of lines
    ("odd outputs", lambda d: (d["cells"][0].update(outputs=[{"output_type": "weird"}], execution_count="7"),
                               _dumps(d))[1], None),
])
def test_every_notebook_jupyter_opens_is_read(name, make, note):
    from grader.autograde.read_submission import read_leniently

    nb, repairs = read_leniently(make(_notebook_json()))
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 4)
    assert [c.cell_type for c in nb.cells] == ["code", "raw" if name == "unknown cell type" else "markdown"]
    assert nb.cells[0].source.rstrip().endswith("x = 1") or "x = 1" in nb.cells[0].source
    assert nb.cells[0].metadata["nbgrader"]["grade_id"] == "ex1_solution"
    if nb.nbformat_minor >= 5:
        ids = [c.id for c in nb.cells]
        assert len(set(ids)) == len(ids)
    nbformat.writes(nb).encode("utf-8")  # writable as nbgrader writes it: strict UTF-8
    assert (note is None and repairs == []) or any(note in r for r in repairs), repairs
    if name == "surrogate":
        assert "\ufffd" in nb.cells[0].source


def _dumps(d, **kw) -> bytes:
    import json

    return json.dumps(d, indent=1, **kw).encode("utf-8")


def test_a_file_that_is_not_a_notebook_is_refused_with_a_reason():
    from grader.autograde.read_submission import read_leniently

    for raw in (b"", b"{not json", b"[1, 2]", b"[" * 100_000):
        with pytest.raises(nbformat.reader.NotJSONError):
            read_leniently(raw)


def test_bound_outputs_write_strict_utf8_whatever_text_the_kernel_sent():
    from grader.autograde.bounds import BoundOutputs

    cell = new_code_cell("print(1)")
    cell.outputs = [new_output("stream", name="stdout", text="half \ud83d an emoji\n"),
                    new_output("display_data", data={"text/plain": "x", "text/x-\udc00": "y"})]
    nb = new_notebook(cells=[cell])
    BoundOutputs().preprocess(nb, {})
    text = nbformat.writes(nb)
    text.encode("utf-8")
    assert "half \ufffd an emoji" in text and "text/x-\ufffd" in text


def _signed(session, msg_type: str, content: bytes) -> list[bytes]:
    msg = session.msg(msg_type, content={})
    frames = session.serialize(msg)
    frames = frames[frames.index(b"<IDS|MSG>") + 1:]
    frames[4] = content
    frames[0] = session.sign(frames[1:5])
    return frames


@pytest.mark.parametrize("msg_type, content, kept", [
    ("display_data", b'{"data": {"text/plain": "ok"}, "metadata": {}}', True),
    ("display_data", b'{"data": {"application/x-new": 1}, "metadata": {}}', False),  # nbformat refuses
    ("stream", b'{"text": "no name"}', False),
    ("execute_result", b'{"data": {}, "metadata": {}}', False),  # no execution_count
    ("display_data", b'not json', False),
    ("execute_reply", b'{"no": "status"}', False),
])
def test_what_a_kernel_sends_becomes_a_note_never_a_stopped_notebook(msg_type, content, kept):
    from grader.infra.session import SafeSession
    from grader.wire import MIME

    session = SafeSession(key=b"k")
    frames = _signed(session, msg_type, content)
    msg = session.deserialize(frames)
    if kept:
        assert msg["content"]["data"] == {"text/plain": "ok"}
    elif msg_type.endswith("_reply"):
        assert msg["content"]["status"] == "error" and msg["content"]["ename"] == "MalformedMessage"
    else:  # a display output saying so, in the probe's format too (malformed_result there)
        assert msg["msg_type"] == "display_data" and MIME in msg["content"]["data"]
        nbformat.v4.output_from_msg(msg)  # what nbclient makes of it: a valid output
    assert session.deserialize(frames)["msg_type"] == "malformed"  # a replay stays refused


# ------------------------------------------------------------------------------------------
# Issue 36, class 7: the output bounds count their own notes
# ------------------------------------------------------------------------------------------
def _printing(cells: int, outputs: int = 1, text: str = "x\n"):
    return new_notebook(cells=[new_code_cell(f"print({i})", outputs=[
        new_output("stream", name="stdout", text=text) for _ in range(outputs)]) for i in range(cells)])


def _notes(nb, words):
    return [o for c in nb.cells for o in c.outputs if words in o.get("text", "")]


@pytest.mark.parametrize("cells, outputs", [(2000, 1), (30, 100), (1, 3000), (12, 95), (1000, 1)])
def test_the_notebooks_output_bound_counts_its_own_notes(cells, outputs):
    from grader.autograde.bounds import BoundOutputs

    nb = _printing(cells, outputs)
    BoundOutputs().preprocess(nb, {})
    kept = sum(len(c.outputs) for c in nb.cells)
    assert kept <= 1000 and all(len(c.outputs) <= 100 for c in nb.cells)
    notebook_notes = _notes(nb, "in this cell and the cells after it")
    assert len(notebook_notes) == (cells * min(outputs, 100) > 999)
    if notebook_notes:  # it counts every output it stands for
        dropped = int(notebook_notes[0].text.split(": ")[1].split(",")[0])
        shown = sum(len(c.outputs) for c in nb.cells) - len(notebook_notes) - len(_notes(nb, "a cell keeps"))
        cut_by_cells = sum(int(n.text.split(": ")[1].split(" ")[0]) for n in _notes(nb, "a cell keeps"))
        assert shown + dropped + cut_by_cells == cells * outputs


def test_a_cell_that_loses_outputs_keeps_its_bound_with_its_note():
    from grader.autograde.bounds import BoundOutputs

    nb = _printing(2, 150)
    BoundOutputs().preprocess(nb, {})
    assert [len(c.outputs) for c in nb.cells] == [100, 100]
    assert nb.cells[0].outputs[-1].text.startswith("[Outputs not kept: 51 (")
