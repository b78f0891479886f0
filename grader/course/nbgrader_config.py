"""nbgrader configuration of the minitape autodiff course.

Run every nbgrader command from this folder (or pass ``--course-dir``); see grader/README.md.
Assignments are ``<NN-name>-<lang>`` (``01-gradients-es``), one notebook each, generated into
``source/`` by ``python -m lessons build``.  The preprocessors from ``grader.autograde``
close nbgrader's gaps: crashed or hung kernels, stderr zeroing correct cells, hidden test
source in feedback, deleted/edited test cells recorded for the export.
"""

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearHiddenTests,
                                    ClearMarkScheme, ClearOutput, ComputeChecksums,
                                    DeduplicateIds, GetGrades, IgnorePattern, IncludeHeaderFooter,
                                    InstantiateTests, LimitOutput, LockCells, OverwriteCells,
                                    OverwriteKernelspec, SaveAutoGrades, SaveCells)

import grader.infra.submissions  # noqa: E402
from grader.autograde.bounds import BoundOutputs
from grader.autograde.clear_solutions import LocalizedClearSolutions
from grader.autograde.execute import GraderExecute
from grader.autograde.export import GraderExportPlugin
from grader.autograde.feedback_html import FeedbackExporter, formgrade_template_dirs
from grader.autograde.flag_issues import FlagIssues
from grader.autograde.hide_hidden_tests import HideHiddenTestsInFeedback
from grader.autograde.inject_probes import InjectProbes
from grader.autograde.localize_feedback import (FEEDBACK_TEMPLATE, LocalizeFeedback,
                                                feedback_template_dirs)
from grader.autograde.neutralize_stderr import NeutralizeStderr
from grader.autograde.read_submission import SubmissionExporter
from grader.autograde.record_issues import RecordSubmissionIssues
from grader.autograde.score_probes import ScoreProbes

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

# The exercise definitions (reference solutions, hidden cases) of this course: instructor
# material, next to this file, loaded only by the autograder (never in a student's install).
import os  # noqa: E402

import grader.student.registry  # noqa: E402

_here = os.path.dirname(os.path.abspath(__file__))  # noqa: F821 (set by traitlets)
if grader.student.registry.course_definitions(_here):
    grader.student.registry.add_path(grader.student.registry.course_definitions(_here))

c.CourseDirectory.course_id = "minitape-autodiff"
# The gradebook is sqlite:///<this folder>/gradebook.db (nbgrader's default); never committed.

# --- releasing: nbgrader's generate_assignment steps, with the stub in the notebook's language --
# ("# ESCRIBE AQUÍ TU CÓDIGO" in 01-gradients-es); the student notebooks in lessons/<lang>/ are
# made with the same stub, so a notebook from either place is one nbgrader knows as released.
c.GenerateAssignment.preprocessors = [
    IncludeHeaderFooter,
    InstantiateTests,
    LockCells,
    LocalizedClearSolutions,
    ClearOutput,
    CheckCellMetadata,
    ComputeChecksums,
    SaveCells,
    ClearHiddenTests,
    ClearMarkScheme,
    ComputeChecksums,
    CheckCellMetadata,
]

# --- executing submissions -----------------------------------------------------------------
# Seconds a single cell may run (an infinite loop is interrupted, the cell gets 0, the export
# says "timed_out"); a lesson's cells take well under a second each.
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
# After a cell's reply, how long to wait for its last output: generous, so that a loaded
# grading machine never turns a finished cell into a failure.
c.Execute.iopub_timeout = 20
c.LimitOutput.max_lines = 1000
# Kernels nbgrader starts itself (validate) talk over Unix sockets, as the grader's own
# kernels do: local only, and no "Kernel is running over TCP without encryption" warning.
c.KernelManager.transport = "ipc"

# --- restoring what students broke ---------------------------------------------------------
# A deleted test cell is put back (nbgrader would otherwise leave it for manual grading);
# an edited locked test cell is restored from the gradebook by OverwriteCells (always on).
c.OverwriteCells.add_missing_cells = True

# Every notebook Jupyter can open is graded: a byte-order mark, bytes that are not UTF-8, half a
# UTF-16 surrogate pair, cells of the wrong shape are repaired as the file is read (a note in
# the export: notebook_repaired), not a reason to give up on the whole submission.
c.Autograde.exporter_class = SubmissionExporter

c.Autograde.sanitize_preprocessors = [
    ClearOutput,
    RecordSubmissionIssues,  # duplicated/re-typed cells, edited metadata: repaired and recorded
    DeduplicateIds,
    OverwriteKernelspec,
    OverwriteCells,
    CheckCellMetadata,
]
c.Autograde.autograde_preprocessors = [
    InjectProbes,       # test cells -> probes: inputs chosen here, results come back as data
    GraderExecute,      # nbgrader's Execute, surviving dead and hung kernels
    ScoreProbes,        # references, comparisons and scores computed here, not in the kernel
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    BoundOutputs,       # outputs bounded per cell and notebook; strict JSON (no NaN)
    NeutralizeStderr,   # a warning on stderr must not zero a correct test cell
    SaveAutoGrades,
    AssignLatePenalties,
    FlagIssues,         # crashed / timed out / tampered submissions are flagged in formgrader
    CheckCellMetadata,
]

# --- feedback: messages yes, hidden test source no ------------------------------------------
c.GenerateFeedback.preprocessors = [GetGrades, HideHiddenTestsInFeedback, LocalizeFeedback,
                                   CSSHTMLHeaderPreprocessor]
# Run again after grading by hand, generate_feedback regenerates the pages whose grades, comments
# or autograded notebook changed (nbgrader alone keeps every existing page); the page says which
# scores the teacher changed (grader/autograde/feedback_update.py, LocalizeFeedback)
import grader.autograde.feedback_update  # noqa: E402

grader.autograde.feedback_update.install()
# nbgrader's feedback page with its frame ("Score", "Your answer", "Comments") in the student's
# language (grader/templates/minitape_feedback extends nbgrader's own "feedback" template) and
# its math as MathML (no MathJax from a CDN): for generate_feedback only. HTMLExporter itself
# is left alone: formgrader renders submissions with it and its own "formgrade" template.
c.GenerateFeedback.exporter_class = FeedbackExporter
c.FeedbackExporter.template_name = FEEDBACK_TEMPLATE
c.FeedbackExporter.extra_template_basedirs = feedback_template_dirs()
# formgrader's submission page works offline (nbgrader's own page stops when its MathJax CDN
# is unreachable): grader/templates/formgrade, ahead of nbgrader's templates.
c.HTMLExporter.extra_template_basedirs, c.HTMLExporter.extra_template_paths = formgrade_template_dirs()

# --- zip_collect: an LMS's download, whose student is what the LMS wrote ----------------------
# Put the LMS's download in downloaded/<assignment>/archive/ as it comes (Canvas: submissions.zip;
# Moodle: its zip and the assignment's grading worksheet, Grades-*.csv). The student of each file
# is the outermost name the LMS wrote (Canvas: lastnamefirstname_<user id>_<submission id>_...,
# Moodle: Full Name_<participant id>_assignsubmission_file_...), or a name starting with a roster
# id; never a name inside a student's upload. Canvas user ids are looked up in the roster's
# lms_user_id column (students.csv). See grader/infra/lms_download.py and docs/instructors.md.
import grader.infra.lms_download  # noqa: E402

c.ZipCollectApp.collector_plugin = grader.infra.lms_download.LmsCollector

# --- export: one row per student, one column per test cell, a status column -------------------
c.ExportApp.plugin_class = GraderExportPlugin

# --- nbgrader's exchange: only on the JupyterHub route -----------------------------------------
# The LMS route (zip_collect) has no exchange folder; while none exists (c.Exchange.root, nbgrader's
# default /usr/local/share/nbgrader/exchange) listing it finds nothing and says nothing, so
# formgrader and JupyterLab do not warn about it. Create the folder (or set c.Exchange.root to
# one) for release_assignment/collect on a JupyterHub: then this is nbgrader's own listing.
import grader.autograde.lms_route  # noqa: E402

c.ExchangeFactory.list = grader.autograde.lms_route.ExchangeList

# submissions are untrusted files: links and special files are refused before anything reads
# them (grader/infra/submissions.py): by collect, zip_collect and autograde; the export shows them
grader.infra.submissions.install()
c.ZipCollectApp.extractor_plugin = grader.infra.submissions.SafeExtractor

# --- nbgrader's exchange on a JupyterHub (docs/jupyterhub.md) ---------------------------------
# release_assignment, collect and release_feedback are nbgrader's, but a missing exchange or one
# without the permissions nbgrader documents, a course id the exchange does not know and a
# submission from someone outside the roster each stop with one line that says the fix
# (grader/autograde/hub_route.py; `python -m grader check-hub` checks all of it at once); collect
# also refuses links and special files in a submission (grader/infra/submissions.py).
import grader.autograde.hub_route  # noqa: E402

c.ExchangeFactory.release_assignment = grader.autograde.hub_route.ReleaseAssignment
c.ExchangeFactory.collect = grader.autograde.hub_route.Collect
c.ExchangeFactory.release_feedback = grader.autograde.hub_route.ReleaseFeedback
