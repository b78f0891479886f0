"""axe-core in Chromium, for the accessibility tests (tests/browser/test_accessibility.py, and the
feedback pages in tests/grader/test_feedback_offline.py): installing the pinned axe-core from npm,
running it on a loaded page, and the page-structure checks axe does not make as a whole."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AXE_DIR = REPO / "tests" / "browser" / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}


def _pinned_version() -> str:
    return json.loads((AXE_DIR / "package.json").read_text())["dependencies"]["axe-core"]


def install_axe() -> str:
    """axe.min.js of the pinned version, installed with `npm ci` when missing or another version."""
    import fcntl

    installed = AXE_JS.parent / "package.json"
    with open(AXE_DIR / ".install.lock", "w") as lock:   # one `npm ci` at a time (test workers)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed.exists() or json.loads(installed.read_text())["version"] != _pinned_version():
            _npm_ci()
    return AXE_JS.read_text(encoding="utf-8")


def _npm_ci() -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is missing: the accessibility tests install axe-core from npm "
                    "(Debian: apt-get install npm)")
    run = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=AXE_DIR,
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        pytest.fail(f"npm ci in {AXE_DIR} failed:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")


# Structure axe does not judge as a whole: the document's language, its title, heading levels.
_STRUCTURE_JS = """() => {
    const levels = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')]
        .filter(h => h.offsetParent !== null || h.getClientRects().length)
        .map(h => +h.tagName[1]);
    const skips = [];
    levels.forEach((l, i) => { if (i && l > levels[i - 1] + 1) skips.push(`h${levels[i - 1]} -> h${l}`); });
    return {lang: document.documentElement.lang, title: document.title.trim(),
            first: levels.length ? levels[0] : null, skips};
}"""


def audit(page, axe: str, where: str, lang: str) -> list[str]:
    """Serious and critical axe violations on the loaded page, and structure problems, as lines."""
    page.add_script_tag(content=axe)
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", TAGS)
    problems = []
    for v in result["violations"]:
        if v["impact"] not in BLOCKING:
            continue
        for node in v["nodes"][:5]:
            problems.append(f"{where}: {v['id']} ({v['impact']}) at {' '.join(node['target'])}: "
                            f"{node['html'][:160]}")
        if len(v["nodes"]) > 5:
            problems.append(f"{where}: {v['id']}: ... and {len(v['nodes']) - 5} more elements")
    s = page.evaluate(_STRUCTURE_JS)
    if s["lang"] != lang:
        problems.append(f"{where}: <html lang> is {s['lang']!r}, expected {lang!r}")
    if not s["title"]:
        problems.append(f"{where}: no <title>")
    problems += [f"{where}: heading level skipped: {skip}" for skip in s["skips"]]
    return problems
