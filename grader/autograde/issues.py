"""The issues autograding records in a notebook (``metadata.grader.issues``), shared by the
preprocessors of :mod:`grader.autograde`: what the export's status and notes and the gradebook's
flag are made from.
"""

from __future__ import annotations

from nbformat.notebooknode import NotebookNode

__all__ = ["FLAGGED_KINDS", "ISSUE_KINDS", "STOPPED_ENAMES", "add_issue", "cell_name", "error_output", "issues_of"]


ISSUE_KINDS = ("crashed", "timed_out", "not_run", "test_cell_restored", "test_cell_modified",
               "no_result", "multiple_results", "malformed_result", "test_cell_moved",
               "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted",
               "technique", "forged_result", "notebook_repaired")


FLAGGED_KINDS = ("crashed", "timed_out", "test_cell_restored", "test_cell_modified", "technique",
                 "forged_result",
                 "no_result", "multiple_results", "malformed_result", "test_cell_moved",
                 "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted")


STOPPED_ENAMES = ("DeadKernelError", "NotRun", "CellTimeoutError")


def issues_of(nb: NotebookNode) -> list[dict]:
    """The issues recorded in a notebook's metadata (``metadata.grader.issues``)."""
    return list(nb.get("metadata", {}).get("grader", {}).get("issues", []))


def add_issue(nb: NotebookNode, kind: str, cell: str | None = None, detail: str = "") -> None:
    meta = nb.metadata.setdefault("grader", {})
    issues = meta.setdefault("issues", [])
    entry = {"kind": kind, "cell": cell, "detail": detail}
    if entry not in issues:
        issues.append(entry)


def cell_name(cell: NotebookNode, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or \
        cell.get("metadata", {}).get("grader_probe")  # a probe cell: its exercise
    return grade_id or f"cell {index + 1}"


def error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"{ename}: {evalue}"])
