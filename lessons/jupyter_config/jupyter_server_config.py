# The students' JupyterLab (python -m lessons lab, make lab, Binder): its settings' defaults, in the
# interface language the student chose. lab_settings/<lang>/overrides.json sets JupyterLab's
# language (a language pack of binder/requirements.txt) and turns the "news" prompt and the
# update checks off; lessons/lab.py names the language in MINITAPE_LAB_LANG (Binder, which cannot
# know which badge was clicked, gets English; Settings > Language changes it in the lab).
# See README.md in this folder.
import os
from pathlib import Path

_settings = Path(__file__).resolve().parent / "lab_settings"
_lang = os.environ.get("MINITAPE_LAB_LANG", "").strip().lower() or "en"
if not (_settings / _lang / "overrides.json").is_file():
    _lang = "en"
c.LabApp.app_settings_dir = str(_settings / _lang)  # noqa: F821  (c: the config traitlets passes)
