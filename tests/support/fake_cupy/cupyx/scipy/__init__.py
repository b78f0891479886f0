"""Fake ``cupyx.scipy``."""
