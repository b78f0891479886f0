"""Checks of the lessons claims (tests/support/claims.py)."""
