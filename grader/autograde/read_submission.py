"""Reading a submitted notebook (``c.Autograde.exporter_class``): every notebook Jupyter can open
is graded.

nbgrader reads a submission with nbconvert (``open(path, encoding="utf-8")``, then
``nbformat.read``) and writes it back with ``nbformat.write``. Notebooks that Jupyter opens (or
that other front ends and editors save) could stop that for the whole submission, which then
exported as ``not_autograded`` with 0 points:

- half a UTF-16 surrogate pair (half an emoji pasted from a chat: a browser saves it as the
  JSON escape ``"\\ud83d"``, which Python reads and UTF-8 cannot write);
- a byte-order mark (UTF-8, UTF-16, UTF-32), bytes that are not UTF-8;
- a cell whose metadata, source or outputs have the wrong type, an unknown cell type, missing
  or duplicate cell ids, a notebook without metadata, Windows line endings inside a cell's
  source (which change the checksums nbgrader compares test cells by);
- nbformat 3 (converted, as Jupyter does) or a newer nbformat 4 minor version.

:class:`SubmissionExporter` reads the file as bytes and repairs all of it before nbgrader's
preprocessors see the notebook (:func:`read_leniently`); what it repaired is handed to
:class:`grader.autograde.record_issues.RecordSubmissionIssues` in
``resources["grader_repairs"]``, which notes it (``notebook_repaired``: a note in the export,
not a flag; nothing of the student's code changes but the characters replaced by U+FFFD).
Metadata that nbgrader cannot read (a newer ``schema_version``) is repaired from the release by
:class:`~grader.autograde.record_issues.RecordSubmissionIssues` (``metadata_edited``), and text a
kernel sends back by :class:`grader.autograde.bounds.BoundOutputs`. A file that is not JSON at
all is still refused (nbgrader logs the error; the export says ``not_autograded``).
"""

from __future__ import annotations

import codecs
import json
import re
import uuid
from typing import Any

import nbformat
from nbconvert.exporters import NotebookExporter

__all__ = ["SubmissionExporter", "read_leniently", "without_lone_surrogates"]

_SURROGATE = re.compile("[\ud800-\udfff]")  # json.loads joins real pairs: any left is alone
_CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")
_CELL_TYPES = ("code", "markdown", "raw")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


def without_lone_surrogates(value: Any, found: list | None = None) -> Any:
    """``value`` (JSON data: dicts, lists, strings) with every lone UTF-16 surrogate, in keys
    and strings, replaced by U+FFFD; one entry appended to ``found`` per string changed."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            if found is not None:
                found.append(value)
            return _SURROGATE.sub("\ufffd", value)
        return value
    if isinstance(value, dict):
        if not any(isinstance(k, str) and _SURROGATE.search(k) for k in value):
            for key in value:
                value[key] = without_lone_surrogates(value[key], found)
            return value
        return type(value)((without_lone_surrogates(k, found), without_lone_surrogates(v, found))
                           for k, v in value.items())
    if isinstance(value, list):
        for i, item in enumerate(value):
            value[i] = without_lone_surrogates(item, found)
    return value


def _decode(raw: bytes, repairs: list[str]) -> str:
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw.decode(codec)
            except UnicodeDecodeError:
                break
            repairs.append(f"the file began with a byte-order mark ({codec.replace('-sig', '')}); "
                           "read without it")
            return text
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        repairs.append(f"{text.count(chr(0xFFFD))} byte(s) that are not UTF-8 replaced by U+FFFD")
        return text


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return "" if value is None else json.dumps(value)


def _repair_v4(nb: dict, repairs: list[str]) -> None:
    """Make a version-4 notebook dict (as parsed) valid enough for nbformat and nbgrader."""
    if not isinstance(nb.get("metadata"), dict):
        nb["metadata"] = {}
        repairs.append("the notebook had no metadata")
    minor = nb.get("nbformat_minor")
    if not isinstance(minor, int) or isinstance(minor, bool) or minor < 0:
        nb["nbformat_minor"] = nbformat.current_nbformat_minor
        repairs.append("the notebook's nbformat_minor was not a number")
    elif minor > nbformat.current_nbformat_minor:  # a newer minor version: read as the newest known
        nb["nbformat_minor"] = nbformat.current_nbformat_minor
        repairs.append(f"nbformat 4.{minor} read as 4.{nbformat.current_nbformat_minor}")
    cells, kept, ids, crlf = nb["cells"], [], set(), 0
    for index, cell in enumerate(cells):
        where = f"cell {index + 1}"
        if not isinstance(cell, dict):
            repairs.append(f"{where} was not a cell and was left out")
            continue
        if cell.get("cell_type") not in _CELL_TYPES:
            repairs.append(f"{where} of type {str(cell.get('cell_type'))[:40]!r} read as a raw cell")
            cell["cell_type"] = "raw"
        if not isinstance(cell.get("metadata"), dict):
            if "metadata" in cell:
                repairs.append(f"{where} had metadata that was not a dictionary")
            cell["metadata"] = {}
        if not isinstance(cell.get("source"), str):
            cell["source"] = _text(cell.get("source"))
        if "\r" in cell["source"]:  # as Jupyter's editor reads them: its checksum is nbgrader's
            cell["source"] = cell["source"].replace("\r\n", "\n").replace("\r", "\n")
            crlf += 1
        if cell["cell_type"] == "code":
            if not isinstance(cell.get("outputs"), list):
                cell["outputs"] = []  # (the autograder clears a submission's outputs anyway)
            count = cell.get("execution_count")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                cell["execution_count"] = None
        else:
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
        if "attachments" in cell and (cell["cell_type"] == "code"
                                      or not isinstance(cell["attachments"], dict)):
            del cell["attachments"]
        if nb["nbformat_minor"] >= 5:  # ids: present, well-formed, unique
            cell_id = cell.get("id")
            if not isinstance(cell_id, str) or not _CELL_ID.match(cell_id) or cell_id in ids:
                cell_id = uuid.uuid4().hex[:8]
                while cell_id in ids:
                    cell_id = uuid.uuid4().hex[:8]
                cell["id"] = cell_id
            ids.add(cell_id)
        kept.append(cell)
    nb["cells"] = kept
    if crlf:
        repairs.append(f"Windows line endings (CR LF) in {crlf} cell(s) read as Jupyter reads them")


def read_leniently(raw: bytes) -> tuple[nbformat.NotebookNode, list[str]]:
    """The notebook in ``raw`` (a file's bytes) as nbformat 4, and what had to be repaired to
    read it (see the module doc). ``nbformat.reader.NotJSONError`` for a file that is not a
    notebook at all."""
    repairs: list[str] = []
    text = _decode(raw, repairs)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise nbformat.reader.NotJSONError(f"the notebook is not JSON: {str(exc)[:200]}") from None
    found: list[str] = []
    data = without_lone_surrogates(data, found)
    if found:
        repairs.append(f"{len(found)} piece(s) of text held half a UTF-16 surrogate pair (half an "
                       "emoji, say), replaced by U+FFFD")
    if not isinstance(data, dict):
        raise nbformat.reader.NotJSONError("the notebook is not a JSON object")
    major = data.get("nbformat")
    if isinstance(major, str) and major.strip().isdigit():
        data["nbformat"] = major = int(major)
    if major is None and isinstance(data.get("cells"), list):
        data["nbformat"], major = 4, 4
        repairs.append("the notebook did not say its nbformat version; read as 4")
    if major == 4:
        if not isinstance(data.get("cells"), list):
            raise nbformat.reader.NotJSONError("the notebook has no list of cells")
        _repair_v4(data, repairs)
    nb = nbformat.reads(json.dumps(data), as_version=4, capture_validation_error={})
    if major != 4:  # nbformat 3 and older, converted as Jupyter converts them
        repaired = json.loads(nbformat.writes(nb))
        _repair_v4(repaired, repairs)
        nb = nbformat.from_dict(repaired)
        repairs.append(f"nbformat {major} converted to 4")
    return nb, repairs


class SubmissionExporter(NotebookExporter):
    """nbconvert's ``NotebookExporter`` (nbgrader's default for autograding) reading the
    notebook with :func:`read_leniently`; what it repaired goes to
    ``resources["grader_repairs"]`` (module doc)."""

    def from_file(self, file_stream, resources=None, **kw):
        # nbconvert opened the file as UTF-8 text; nothing is decoded until read: take the bytes
        raw = file_stream.buffer.read() if hasattr(file_stream, "buffer") else file_stream.read()
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="surrogatepass")
        nb, repairs = read_leniently(raw)
        if resources is None:
            resources = {}
        resources["grader_repairs"] = repairs
        return self.from_notebook_node(nb, resources=resources, **kw)
