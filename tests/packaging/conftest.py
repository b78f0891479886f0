"""Fixtures of the packaging tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.project import copy_project


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the project's files (tracked and not ignored), as a fresh clone would have them."""
    return copy_project(tmp_path / "repo")
