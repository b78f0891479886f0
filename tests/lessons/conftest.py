"""Shared fixtures for the lesson tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def lessons():
    """Every lesson source of the repository, parsed and validated."""
    from lessons.source import load_lessons

    return load_lessons()
