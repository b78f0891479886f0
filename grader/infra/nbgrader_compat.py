"""nbgrader's Alembic calls without an ``alembic`` command on ``PATH``.

nbgrader (0.9.x) finds the gradebook's schema version and upgrades it by running the ``alembic``
command by name (``nbgrader.api.get_alembic_version``, ``nbgrader.dbutil.upgrade``). That works
only when the environment's ``bin/`` folder is on ``PATH``: ``.venv/bin/nbgrader ...`` or
``.venv/bin/python -m grader ...`` without an activated virtualenv failed with
``FileNotFoundError: 'alembic'`` on the first ``Gradebook(...)``. The same Alembic that command
would run is importable here (it is a dependency of nbgrader), so :func:`install` points those two
functions at it: the head revision read with its Python API (no process, where nbgrader spent
~0.4 s per gradebook opened), upgrades run as ``<this python> -m alembic``; no ``PATH`` lookup.

Installed by every process this project starts nbgrader in: ``python -m grader`` (``grader.autograde.cli``),
and nbgrader's own commands through the course's ``nbgrader_config.py``, which imports
``grader.autograde`` (which installs it) before nbgrader opens the gradebook.
"""

from __future__ import annotations

import functools

__all__ = ["alembic_head", "install", "upgrade"]


@functools.lru_cache(maxsize=1)
def alembic_head() -> str:
    """The newest revision of nbgrader's gradebook schema (what ``alembic heads`` prints first)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    cfg = Config()
    cfg.set_main_option("script_location", ALEMBIC_DIR)
    heads = ScriptDirectory.from_config(cfg).get_heads()
    if len(heads) != 1:  # nbgrader's history is linear; anything else is a broken install
        raise RuntimeError(f"nbgrader's gradebook migrations have {len(heads)} heads: {heads}")
    return heads[0]


def upgrade(db_url: str, revision: str = "head") -> None:
    """Upgrade the gradebook at ``db_url`` to ``revision`` (``nbgrader db upgrade``).

    Alembic runs nbgrader's ``env.py``, which reconfigures the process's logging from the ini
    file; so, as nbgrader does, in a child process: this interpreter's ``-m alembic``."""
    import subprocess
    import sys

    from nbgrader.dbutil import _temp_alembic_ini

    with _temp_alembic_ini(db_url) as alembic_ini:
        subprocess.check_call([sys.executable, "-m", "alembic", "-c", alembic_ini, "upgrade", revision])


def install() -> None:
    """Make nbgrader use :func:`alembic_head` and :func:`upgrade` (idempotent)."""
    import nbgrader.api
    import nbgrader.dbutil

    nbgrader.api.get_alembic_version = alembic_head
    nbgrader.dbutil.upgrade = upgrade
