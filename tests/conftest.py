"""Suite-wide pytest configuration."""

from __future__ import annotations


def pytest_collection_modifyitems(session, config, items):
    """Run tests marked `slow` first: with pytest-xdist one worker starts the long ones (a full
    install, a browser session) at once while the others work through the fast tests, instead of
    the long ones starting last and running alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
