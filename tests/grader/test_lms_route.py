"""Issue 40, item 8: on the LMS route (no nbgrader exchange) formgrader and JupyterLab say nothing
about a missing exchange directory; on the hub route (the folder exists) nbgrader's own listing.

``python -m grader lab`` on a course collected from an LMS showed formgrader's banner ("The exchange
directory ... does not exist") and 22 terminal lines of "Unwritable directory, please contact your
instructor" with tracebacks. nbgrader's API lists the exchange when formgrader builds a page: here
it is built from the packaged course configuration, as formgrader builds it.
"""

from __future__ import annotations

import logging
import os

import pytest
from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default.list import ExchangeList as NbgraderList
from traitlets.config.loader import PyFileConfigLoader

from tests.support.course import PACKAGED_COURSE


def _api(tmp_path, root, caplog, nbgrader_own=False):
    config = PyFileConfigLoader("nbgrader_config.py", path=str(PACKAGED_COURSE)).load_config()
    config.Exchange.root = str(root)
    if nbgrader_own:
        config.ExchangeFactory.list = NbgraderList
    coursedir = CourseDirectory(config=config)
    coursedir.root = str(tmp_path)
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        api = NbGraderAPI(coursedir, config=config)
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    return api, loud


def test_no_exchange_folder_no_banner_and_no_lines(tmp_path, caplog):
    api, loud = _api(tmp_path, tmp_path / "no-exchange", caplog)
    assert api.exchange_missing is False  # formgrader's banner is shown only when it is True
    assert loud == []
    assert api.get_released_assignments() == set()


def test_nbgraders_own_listing_is_what_warned(tmp_path, caplog):
    """The control: nbgrader's listing of the same missing folder is the banner and the line."""
    api, loud = _api(tmp_path, tmp_path / "no-exchange", caplog, nbgrader_own=True)
    assert api.exchange_missing is True
    assert any("please contact your instructor" in line for line in loud)


def test_the_hub_route_is_nbgraders_listing(tmp_path, caplog):
    """An exchange folder that exists is listed by nbgrader (what a JupyterHub course has): a
    released assignment in it is found."""
    root = tmp_path / "exchange"
    released = root / "minitape-autodiff" / "outbound" / "01-gradients-es"
    released.mkdir(parents=True)
    (released / "01-gradients.ipynb").write_text("{}", encoding="utf-8")
    os.chmod(root, 0o777)
    api, loud = _api(tmp_path, root, caplog)
    assert api.exchange_missing is False and loud == []
    assert api.get_released_assignments() == {"01-gradients-es"}


@pytest.mark.parametrize("missing", [True, False])
def test_an_unwritable_exchange_on_the_hub_route_still_warns(tmp_path, caplog, missing):
    """Only a folder that does not exist is quiet: one that exists but cannot be used is nbgrader's
    warning, as on any hub."""
    root = tmp_path / "exchange"
    if not missing:
        root.mkdir()
        os.chmod(root, 0o500)
        if os.access(root, os.W_OK):  # root: permissions are not enforced
            pytest.skip("running as root: every folder is writable")
    api, loud = _api(tmp_path, root, caplog)
    assert api.exchange_missing is (not missing)
    assert bool(loud) is (not missing)
