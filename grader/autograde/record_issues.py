"""nbgrader preprocessor :class:`RecordSubmissionIssues` (sanitize step, before ``OverwriteCells``): notes which test
cells a student deleted (nbgrader puts them back with ``add_missing_cells``) or edited
(``OverwriteCells`` restores their source from the gradebook), so the export can say so.

Configured in ``grader/course/nbgrader_config.py``; one preprocessor per module, as nbgrader
keeps its own.
"""

from __future__ import annotations

import copy

from nbformat.notebooknode import NotebookNode

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.nbgraderformat import SCHEMA_VERSION, MetadataValidator
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

from grader.autograde.issues import add_issue, strip_grader_metadata

__all__ = ["RecordSubmissionIssues"]


def _without_hidden_tests(source: str, cell_type: str, parent=None) -> str:
    """What the release has of a cell: its source without hidden-test regions."""
    cell = NotebookNode(cell_type=cell_type, source=source, metadata=NotebookNode())
    try:
        ClearHiddenTests(parent=parent, enforce_metadata=False)._remove_hidden_test_region(cell)
    except RuntimeError:  # unbalanced markers: compare with the full source only
        return source
    return cell.source


def _unreadable(cell: NotebookNode, cell_type: str | None) -> str | None:
    """Why nbgrader's own validator (its ``CheckCellMetadata``, which stops the whole notebook)
    rejects the cell's nbgrader metadata (a newer or older ``schema_version``, keys it does not
    know, a wrong type), or None. Judged on the cell as released (``cell_type``): a re-typed cell
    is ``cell_retyped``, and ``OverwriteCells`` gives it its type back."""
    probe = copy.deepcopy(cell)
    if cell_type:
        probe.cell_type = cell_type
    try:
        MetadataValidator().validate_cell(probe)
    except Exception as exc:  # noqa: BLE001 - SchemaTooNewError, ValidationError, KeyError, ...
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:200]
    return None


def _released_metadata(grade_id: str, cell_type: str, locked: bool, checksum: str | None,
                       grade: bool, solution: bool, points: float | None) -> dict:
    """The nbgrader metadata of a released cell, from the gradebook (what ``generate_assignment``
    wrote into the release)."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": bool(locked), "solution": solution,
            "schema_version": SCHEMA_VERSION, "task": False, "cell_type": cell_type}
    if checksum:
        meta["checksum"] = checksum
    if grade:
        meta["points"] = points
    return meta


def _restored_answer(grade_id: str, stub: str, meta: dict) -> NotebookNode:
    """The deleted answer cell, back from the release so that nbgrader can put its test cell
    after it: the released code shown, commented out (it defines nothing, so a function the
    student wrote elsewhere is still the one graded)."""
    lines = [f"# This answer cell (id:{grade_id}) was missing from the submission; the grader "
             "put it back from the release (commented out)."]
    lines += ["# " + line if line else "#" for line in (stub or "").splitlines()]
    return NotebookNode(cell_type="code", source="\n".join(lines), outputs=[], execution_count=None,
                        metadata=NotebookNode(nbgrader=NotebookNode(meta)))


class RecordSubmissionIssues(NbGraderPreprocessor):
    """Repair what students do to a notebook's structure, and record it, before nbgrader's
    ``DeduplicateIds`` and ``OverwriteCells`` (which crash or lose points on some of it).

    * a duplicated cell (same ``grade_id`` twice): the last copy keeps the id, as nbgrader's
      ``DeduplicateIds`` would, the others become ordinary cells (their code still runs, so a
      function defined in a copy counts); ``duplicate_cell`` — nbgrader itself would leave an
      empty ``nbgrader`` metadata that makes ``add_missing_cells`` raise ``KeyError``;
    * a cell whose nbgrader metadata names an id the assignment does not have, or is not a
      dict: the metadata is dropped (``metadata_edited``);
    * grader metadata a submission carries (``metadata.grader`` of the notebook, a probe's mark
      ``grader_probe`` on a cell): removed, the cells kept as the student's (``metadata_edited``);
    * a known cell with edited metadata (points, grade/solution/locked flags) or another cell
      type (code turned into markdown): ``OverwriteCells`` restores it; ``metadata_edited`` /
      ``cell_retyped``;
    * a deleted test cell (``test_cell_restored``, put back by ``add_missing_cells``), an edited
      locked test cell (``test_cell_modified``), a deleted solution cell
      (``solution_cell_deleted``: its exercise gets what the rest of the notebook earns); where
      an exercise's answer and test cells are both gone, the answer cell comes back from the
      release, commented out (nbgrader's ``add_missing_grade_cells`` puts the test cell after
      the cell before it, and raised ``KeyError`` for the whole notebook when that was gone);
    * nbgrader metadata nbgrader itself cannot read (a newer ``schema_version``: its
      ``CheckCellMetadata`` stopped the whole notebook) on a known cell: restored from the
      release (``metadata_edited``);
    * what :class:`grader.autograde.read_submission.SubmissionExporter` repaired to read the
      file at all (``notebook_repaired``, a note).
    """

    def preprocess(self, nb, resources):
        notebook_id = resources["nbgrader"]["notebook"]
        assignment_id = resources["nbgrader"]["assignment"]
        # what the grader records in a notebook is the grader's: a submission that carries it
        # (scores, issues, a probe's mark on a cell) has it removed, its cells kept as its own
        carried = nb.metadata.pop("grader", None)
        nb.metadata["grader"] = {"issues": []}  # a fresh record per autograde run
        if carried not in (None, {}, {"issues": []}):
            add_issue(nb, "metadata_edited", None, "the notebook carried grader metadata "
                      "(metadata.grader); it was removed")
        for index, cell in enumerate(nb.cells):
            removed = strip_grader_metadata(cell)
            if removed:
                add_issue(nb, "metadata_edited", f"cell {index + 1}",
                          f"the cell carried grader metadata ({', '.join(removed)}); it was "
                          "removed and the cell ran as the student's own code")
        for detail in resources.pop("grader_repairs", None) or []:
            add_issue(nb, "notebook_repaired", None, detail)
        with Gradebook(resources["nbgrader"]["db_url"]) as gb:
            try:
                source_nb = gb.find_notebook(notebook_id, assignment_id)
            except MissingEntry:
                return nb, resources
            grade_ids = [c.name for c in source_nb.grade_cells]
            solution_ids = [c.name for c in source_nb.solution_cells]
            points = {c.name: float(c.max_score) for c in source_nb.grade_cells}
            # in the release's order (nbgrader's add_missing_grade_cells relies on it too)
            order = [c.name for c in source_nb.source_cells]
            source = {c.name: (c.locked, c.source, c.cell_type) for c in source_nb.source_cells}
            checksums = {c.name: c.checksum for c in source_nb.source_cells}
        known = set(source) | set(grade_ids) | set(solution_ids)

        def released(grade_id: str) -> dict:
            locked, _, cell_type = source.get(grade_id, (False, "", "code"))
            return _released_metadata(grade_id, cell_type or "code", bool(locked),
                                      checksums.get(grade_id), grade_id in grade_ids,
                                      grade_id in solution_ids, points.get(grade_id))
        # 1. metadata that is not nbgrader's, or names a cell the assignment does not have
        for index, cell in enumerate(nb.cells):
            meta = cell.get("metadata", {})
            if "nbgrader" not in meta:
                continue
            nbg = meta["nbgrader"]
            grade_id = nbg.get("grade_id") if isinstance(nbg, dict) else None
            if not isinstance(nbg, dict) or not isinstance(grade_id, str) or grade_id not in known:
                del meta["nbgrader"]
                add_issue(nb, "metadata_edited", grade_id if isinstance(grade_id, str) else
                           f"cell {index + 1}", "nbgrader metadata of a cell the assignment "
                           "does not have was removed; the cell ran as ordinary code")
        # 2. duplicates: the last copy keeps the id (what nbgrader's DeduplicateIds keeps)
        last = {}
        for index, cell in enumerate(nb.cells):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                last[grade_id] = index
        for index, cell in enumerate(nb.cells):
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id and last[grade_id] != index:
                del cell.metadata["nbgrader"]
                add_issue(nb, "duplicate_cell", grade_id,
                           "the cell appeared more than once; the last copy was graded and the "
                           "others ran as ordinary code")
        present = {}
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id:
                present[grade_id] = cell
        # 3. deleted cells
        for grade_id in grade_ids:
            if grade_id not in present:
                add_issue(nb, "test_cell_restored", grade_id,
                           "the test cell was deleted; nbgrader added it back")
        tests_after = {order[i - 1]: g for i, g in enumerate(order) if i and g in grade_ids}
        for grade_id in solution_ids:
            if grade_id not in present and grade_id not in grade_ids:
                gone_too = tests_after.get(grade_id) not in (None, *present)
                add_issue(nb, "solution_cell_deleted", grade_id,
                          "the answer cell was deleted" + (
                              " with its test cell; put back from the release, commented out"
                              if gone_too else ""))
        self._restore_anchors(nb, order, present, grade_ids, source, released)
        # 4. re-typed cells, edited metadata, edited test cells
        for grade_id, cell in present.items():
            locked, original, cell_type = source[grade_id] if grade_id in source else (None, None, None)
            why = _unreadable(cell, cell_type)
            if why is not None:  # nbgrader could not read it at all: the release's, whole
                add_issue(nb, "metadata_edited", grade_id, "nbgrader metadata nbgrader cannot "
                          f"read ({why}); restored from the release")
                cell.metadata["nbgrader"] = NotebookNode(released(grade_id))
            nbg = cell.metadata.nbgrader
            if cell_type is not None and cell.cell_type != cell_type:
                add_issue(nb, "cell_retyped", grade_id,
                           f"a {cell_type} cell was turned into {cell.cell_type}; restored")
                if cell_type == "code" and "outputs" not in cell:
                    cell["outputs"], cell["execution_count"] = [], None
            expected_flags = {"grade": grade_id in grade_ids, "solution": grade_id in solution_ids}
            if locked is not None:
                expected_flags["locked"] = bool(locked)
            edited = any(bool(nbg.get(k, False)) != v for k, v in expected_flags.items())
            if grade_id in points:
                try:
                    edited = edited or float(nbg.get("points", -1)) != points[grade_id]
                except (TypeError, ValueError):
                    edited = True
            if edited:
                add_issue(nb, "metadata_edited", grade_id,
                           "nbgrader metadata was edited; restored from the gradebook")
                # what OverwriteCells restores needs the flags it reads to be sane
                for k, v in expected_flags.items():
                    nbg[k] = v
                if grade_id in points:
                    nbg["points"] = points[grade_id]
            if not locked:
                continue
            shown = _without_hidden_tests(original, cell_type, parent=self)
            if cell.cell_type != cell_type or cell.source.strip() not in (shown.strip(), original.strip()):
                add_issue(nb, "test_cell_modified", grade_id,
                           "a locked test cell was edited; its source was restored from the gradebook")
        return nb, resources

    @staticmethod
    def _restore_anchors(nb, order, present, grade_ids, source, released) -> None:
        """A test cell nbgrader will add back goes after the source cell before it in the
        release; where that cell (the exercise's answer cell) was deleted too, put it back
        first: after the nearest earlier source cell the notebook still has, else before the
        nearest later one, else at the end."""
        def index_of(grade_id: str) -> int:
            return next(i for i, c in enumerate(nb.cells) if c is present[grade_id])

        for test_id in [g for g in grade_ids if g not in present]:
            if test_id not in order or order.index(test_id) == 0:
                continue
            before = order[order.index(test_id) - 1]
            if before in present or before in grade_ids:  # there, or a test cell nbgrader adds
                continue
            position = order.index(before)
            earlier = [g for g in reversed(order[:position]) if g in present]
            later = [g for g in order[position + 1:] if g in present]
            at = (index_of(earlier[0]) + 1 if earlier else index_of(later[0]) if later
                  else len(nb.cells))
            cell = _restored_answer(before, source.get(before, (None, "", None))[1], released(before))
            nb.cells.insert(at, cell)
            present[before] = cell
