"""The issues autograding records in a notebook (``metadata.grader.issues``), shared by the
preprocessors of :mod:`grader.autograde`: what the export's status and notes and the gradebook's
flag are made from.
"""

from __future__ import annotations

from nbformat.notebooknode import NotebookNode

__all__ = ["FLAGGED_KINDS", "ISSUE_KINDS", "add_issue", "cell_name", "error_output",
           "issues_of", "probe_mark", "strip_grader_metadata"]


ISSUE_KINDS = ("crashed", "timed_out", "not_run", "test_cell_restored", "test_cell_modified",
               "no_result", "multiple_results", "malformed_result", "test_cell_moved",
               "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted",
               "technique", "forged_result", "hooked", "notebook_repaired")


FLAGGED_KINDS = ("crashed", "timed_out", "test_cell_restored", "test_cell_modified", "technique",
                 "forged_result", "hooked",
                 "no_result", "multiple_results", "malformed_result", "test_cell_moved",
                 "duplicate_cell", "cell_retyped", "metadata_edited", "solution_cell_deleted")


def issues_of(nb: NotebookNode) -> list[dict]:
    """The issues recorded in a notebook's metadata (``metadata.grader.issues``)."""
    return list(nb.get("metadata", {}).get("grader", {}).get("issues", []))


def add_issue(nb: NotebookNode, kind: str, cell: str | None = None, detail: str = "") -> None:
    meta = nb.metadata.setdefault("grader", {})
    issues = meta.setdefault("issues", [])
    entry = {"kind": kind, "cell": cell, "detail": detail}
    if entry not in issues:
        issues.append(entry)


GRADER_CELL_KEYS = ("grader_probe", "grader")  # cell metadata only the trusted side writes


def strip_grader_metadata(cell: NotebookNode) -> list[str]:
    """Remove from a *submitted* cell the metadata keys only the grader writes (a probe's mark):
    the cell stays, the student's. Returns the keys removed."""
    meta = cell.get("metadata")
    if not isinstance(meta, dict):
        return []
    removed = [key for key in GRADER_CELL_KEYS if key in meta]
    for key in removed:
        del meta[key]
    return removed


def probe_mark(cell: NotebookNode, resources) -> tuple[str, str] | None:
    """``(exercise id, part)`` of a probe cell :class:`~grader.autograde.inject_probes.InjectProbes`
    appended in this run (its mark carries the run's token), else None: a submitted cell is
    never taken for a probe, whatever metadata it carries."""
    token = (resources or {}).get("grader_probe_token")
    mark = cell.get("metadata", {}).get("grader_probe")
    if not token or not isinstance(mark, dict) or mark.get("token") != token:
        return None
    return mark.get("id"), mark.get("part")


def cell_name(cell: NotebookNode, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    mark = cell.get("metadata", {}).get("grader_probe")
    if not grade_id and isinstance(mark, dict) and isinstance(mark.get("id"), str):
        grade_id = mark["id"]  # a probe cell: its exercise
    return grade_id or f"cell {index + 1}"


def error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"{ename}: {evalue}"])
