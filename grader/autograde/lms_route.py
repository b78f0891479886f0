"""The LMS route needs no nbgrader exchange: listing a missing one finds nothing, quietly.

A course graded from an LMS download (README step 7, ``nbgrader zip_collect``) never uses
nbgrader's exchange, the shared folder (``c.Exchange.root``, by default
``/usr/local/share/nbgrader/exchange``) through which ``release_assignment``, ``fetch``, ``submit``
and ``collect`` pass on a JupyterHub. nbgrader lists that folder on every formgrader page and
every JupyterLab start (formgrader, the *Assignments* and *Courses* tabs), and where it does not
exist said so each time: a formgrader banner ("The exchange directory ... does not exist"), and
22 terminal lines of ``Unwritable directory, please contact your instructor`` and tracebacks, shown
to the instructor.

:class:`ExchangeList` (``c.ExchangeFactory.list`` in the course's ``nbgrader_config.py``) is
nbgrader's own listing, except that while the exchange folder does not exist it lists nothing and
says nothing (a debug line): nothing can have been released or submitted through a folder that
does not exist. The hub route is unchanged: once the exchange folder exists (created by the hub's
administrator, or by a first ``nbgrader release_assignment`` allowed to create it), this is
nbgrader's listing, errors and all; ``release_assignment`` and ``collect``, explicit commands, are
nbgrader's own and still say why they cannot work without an exchange.
"""

from __future__ import annotations

import os

from nbgrader.exchange.default.list import ExchangeList as _NbgraderList

__all__ = ["ExchangeList", "on_lms_route"]


def on_lms_route(root: str) -> bool:
    """Whether a course whose exchange folder is ``root`` is on the LMS route (no exchange)."""
    return not os.path.isdir(root)


class ExchangeList(_NbgraderList):
    """nbgrader's exchange listing; nothing, quietly, while the exchange folder does not exist."""

    def start(self):
        if on_lms_route(self.root):
            self.log.debug("no nbgrader exchange at %s: nothing was released or submitted "
                           "through it (this course collects from an LMS download)", self.root)
            return []
        return super().start()
