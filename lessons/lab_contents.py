"""The students' JupyterLab's file server: what it hides from listings it also refuses to serve.

``ContentsManager.hide_globs`` (set by :mod:`lessons.lab` to everything of the lab's root that
is not a folder of notebooks: ``src/`` with the solutions, the tooling) only keeps names out of
directory listings; Jupyter still serves ``/api/contents/src/01-gradients.py`` or
``/files/src/...`` to whoever asks by path. Here a path with a hidden component counts as
hidden, which Jupyter's handlers answer with 404 (``allow_hidden`` stays off), and ``/files/``
goes through this manager too.
"""

from __future__ import annotations

from fnmatch import fnmatch

from jupyter_server.files.handlers import FilesHandler
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager


class StudentContentsManager(AsyncLargeFileManager):
    """Jupyter's default contents manager, with hide_globs applied to every path it serves."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # /files/ through this manager (Jupyter's default file handler for local files reads the
        # disk directly and knows only dot-files as hidden)
        self.files_handler_class = FilesHandler
        self.files_handler_params = {"path": self.root_dir}

    def hides(self, path: str) -> bool:
        return any(fnmatch(part, glob) for part in str(path).strip("/").split("/") if part
                   for glob in self.hide_globs)

    async def is_hidden(self, path):
        return self.hides(path) or await super().is_hidden(path)
