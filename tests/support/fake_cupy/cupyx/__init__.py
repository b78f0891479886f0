"""Fake ``cupyx`` for the fake CuPy (see ``fake_cupy/cupy/__init__.py``)."""
