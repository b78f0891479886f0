"""The old import path of ``tests/support/course.py``, kept while branches written against it are
in flight (issue 24's additions to test_grader_adversarial.py and test_grader_sandbox.py): import
``tests.support.course`` in new code. Remove once nothing imports ``course_fixture``."""
from tests.support.course import *  # noqa: F401,F403
