"""Command line: ``python -m lessons {lab,hub-server,student-dist,site,build,check,status,stamp,timing}`` (see ``--help``)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from . import LANGS, SOURCE_LANG


def _load(names, src: Path | None = None):
    from .source import load_lessons_or_exit

    return load_lessons_or_exit(names, src)


def cmd_build(args) -> int:
    from . import build

    lessons = _load(args.lessons, args.src)
    root = args.root or build.ROOT
    if args.check:
        return build.check(lessons, root, all_lessons=not args.lessons)
    return build.build(lessons, root, all_lessons=not args.lessons)


def cmd_check(args) -> int:
    from . import build

    return build.check(_load(args.lessons, args.src), args.root or build.ROOT, all_lessons=not args.lessons)


def cmd_status(args) -> int:
    from .source import display_path

    lessons = _load(args.lessons, args.src)
    langs = [lang for lang in LANGS if lang != SOURCE_LANG]
    width = max([len("lesson")] + [len(lesson.name) for lesson in lessons])
    print(f"{'lesson':<{width}}  {'cells':>5}  " + "  ".join(f"{lang:<20}" for lang in langs))
    any_missing = any_stale = False
    details = []
    for lesson in lessons:
        table = lesson.status()
        row = []
        for lang in langs:
            counts = table[lang]
            parts = [f"{counts[s]} {s}" for s in ("missing", "stale") if counts[s]]
            row.append(", ".join(parts) if parts else "ok")
            any_missing |= counts["missing"] > 0
            any_stale |= counts["stale"] > 0
        print(f"{lesson.name:<{width}}  {len(lesson.prose):>5}  " + "  ".join(f"{c:<20}" for c in row))
        for prose in lesson.prose:
            for lang in langs:
                status = prose.status(lang)
                if status != "ok":
                    line = prose.lines.get(lang, prose.line)
                    why = ("no translation" if status == "missing" else
                           "never stamped" if prose.src.get(lang) is None else
                           f"translates {prose.src[lang]}, English is now {prose.en_hash}")
                    details.append(f"  {display_path(lesson.path)}:{line}: {status:7} {lang} "
                                   f"key={prose.key} ({why})")
    if details and not args.quiet:
        print("\n".join(["", "needs work:"] + details))
    if any_missing or (args.strict and any_stale):
        return 1
    return 0


def cmd_stamp(args) -> int:
    """Record the current English hash in translations a translator has reviewed."""
    from .source import LessonSourceError, display_path, parse_lesson

    if not (args.lang or args.key or args.all):
        print("error: say what to stamp: --lang L, --key K (repeatable) or --all", file=sys.stderr)
        return 2
    langs = args.lang or [lang for lang in LANGS if lang != SOURCE_LANG]
    bad = [lang for lang in langs if lang not in LANGS or lang == SOURCE_LANG]
    if bad:
        print(f"error: --lang must be one of {', '.join(LANGS[1:])}", file=sys.stderr)
        return 2
    (lesson,) = _load([args.lesson], args.src)
    keys = set(args.key or [])
    unknown = keys - {p.key for p in lesson.prose}
    if unknown:
        print(f"error: no prose key {', '.join(sorted(unknown))} in {lesson.name}", file=sys.stderr)
        return 2
    text = lesson.path.read_text(encoding="utf-8")
    lines = text.split("\n")
    changed = 0
    for prose in lesson.prose:
        if keys and prose.key not in keys:
            continue
        for lang in langs:
            if lang not in prose.texts or prose.status(lang) == "ok":
                continue
            if args.only_unstamped and prose.src.get(lang) is not None:
                continue
            i = prose.lines[lang] - 1
            header = lines[i]
            stamp = f'src="{prose.en_hash}"'
            new = re.sub(r'src="[^"]*"', stamp, header) if 'src="' in header else f"{header} {stamp}"
            lines[i] = new
            changed += 1
            print(f"stamped {display_path(lesson.path)}:{i + 1}: key={prose.key} lang={lang} -> {prose.en_hash}")
    if changed:
        new_text = "\n".join(lines)
        try:
            parse_lesson(lesson.path, new_text)
        except LessonSourceError as exc:  # should not happen; never write a broken file
            print(f"error: stamping would break the source, nothing written:\n{exc}", file=sys.stderr)
            return 2
        lesson.path.write_text(new_text, encoding="utf-8")
    print(f"{changed} translation(s) stamped.")
    return 0


def cmd_timing(args) -> int:
    from .timing import main

    return main(args.lessons, langs=args.lang, variant=args.variant, timeout=args.timeout,
                src=args.src, root=args.root)


def cmd_lab(args) -> int:
    from .lab import main

    return main(args.jupyter_args, root=args.lab_root, no_sandbox=args.no_sandbox, lang=args.lab_lang)


def cmd_hub_server(args) -> int:
    from .hub import main

    return main(args.jupyter_args)


def cmd_student_dist(args) -> int:
    from .student import main

    return main(args.out, allow_placeholder=args.allow_placeholder)


def cmd_site(args) -> int:
    from .build import ROOT
    from .site import SITE_DIR, build_site

    return build_site(_load(args.lessons, args.src), out=args.out or SITE_DIR, langs=args.lang,
                      root=args.root or ROOT, timeout=args.timeout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--src", type=Path, help="folder of lesson sources (default: lessons/src)")
    common.add_argument("--root", type=Path,
                        help="where generated notebooks go: ROOT/lessons/<lang>/, ROOT/grader/course/source/ "
                             "(default: this repository)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("lab", help="start the students' JupyterLab on the lessons (what `make lab` runs)",
                       description="JupyterLab on the lesson notebooks, one folder per language, with the "
                                   "lesson tooling hidden and nbgrader's instructor interface off for this "
                                   "server. Where instructor material is reachable (a checkout) the kernels "
                                   "run in the grader's bubblewrap sandbox. Other arguments go to JupyterLab "
                                   "(e.g. --port 8890 --no-browser).")
    p.add_argument("--root", dest="lab_root", type=Path,
                   help="folder of lesson notebooks to serve (default: this package's lessons)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run kernels unconfined even where instructor material is reachable (warns)")
    p.add_argument("--lang", dest="lab_lang", metavar="LANG",
                   help="JupyterLab's interface language: en, es, pt or ru (default: MINITAPE_LANG, "
                        "else the system's language if it is one of them, else en)")
    p.set_defaults(func=cmd_lab)

    p = sub.add_parser("hub-server", help="a student's server on a JupyterHub (what the hub's spawner starts)",
                       description="JupyterHub's single-user server for a student (jupyterhub-singleuser) "
                                   "with the course's students' configuration: nbgrader's Assignments tab "
                                   "and Validate button on, its instructor interface off, JupyterLab in the "
                                   "student's language (MINITAPE_LAB_LANG). Refuses to start where "
                                   "instructor material is reachable. Other arguments go to "
                                   "jupyterhub-singleuser (docs/jupyterhub.md).")
    p.set_defaults(func=cmd_hub_server)

    p = sub.add_parser("student-dist", help="build what students get (notebooks, the wheel, Binder files) into OUT",
                       description="The student distribution: the student notebooks, the course's wheel "
                                   "without instructor material, Binder's files and a Makefile (make lab), "
                                   "audited for instructor material. Publish OUT as the students' repository; "
                                   "the Binder badges point to it (pyproject.toml [tool.minitape-course]).")
    p.add_argument("out", type=Path, help="the folder to build (created; refreshed if it holds an earlier one)")
    p.add_argument("--allow-placeholder", action="store_true",
                   help="build even while pyproject.toml names the placeholder students' repository "
                        "(a local try: its Binder badges lead nowhere)")
    p.set_defaults(func=cmd_student_dist)

    p = sub.add_parser("site", parents=[common],
                       help="execute every lesson in every language and export a static HTML site (make site)",
                       description="Builds each lesson's student notebook from its source, runs it top to bottom "
                                   "(exercise cells left unrun) and exports it with nbconvert, figures and "
                                   "widget states embedded, into OUT/<lang>/NN-name.html, with an index per "
                                   "language and links between languages. OUT is replaced only when every "
                                   "lesson ran without an error; a failing cell is named and the exit status is 1.")
    p.add_argument("lessons", nargs="*", help="lesson names or numbers (default: all)")
    p.add_argument("--lang", action="append", help="language (repeatable; default: all)")
    p.add_argument("--out", type=Path, help="the site's folder (default: build/site)")
    p.add_argument("--timeout", type=int, default=120, help="per-cell timeout in seconds (default: 120)")
    p.set_defaults(func=cmd_site)

    p = sub.add_parser("build", parents=[common], help="regenerate student and instructor notebooks")
    p.add_argument("lessons", nargs="*", help="lesson names or numbers (default: all)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if any notebook is stale")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("check", parents=[common], help="exit 1 if any committed generated notebook is stale")
    p.add_argument("lessons", nargs="*")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("status", parents=[common], help="translation status per lesson and language; exit 1 on missing")
    p.add_argument("lessons", nargs="*")
    p.add_argument("--strict", action="store_true", help="also exit 1 on stale translations")
    p.add_argument("-q", "--quiet", action="store_true", help="only the table")
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("stamp", parents=[common], help="mark reviewed translations as translating the current English")
    p.add_argument("lesson", help="lesson name or number")
    p.add_argument("--lang", action="append", help="language to stamp (repeatable)")
    p.add_argument("--key", action="append", help="prose key to stamp (repeatable)")
    p.add_argument("--all", action="store_true", help="every stale translation of the lesson")
    p.add_argument("--only-unstamped", action="store_true",
                   help="only translations that have no src= yet (new ones)")
    p.set_defaults(func=cmd_stamp)

    p = sub.add_parser("timing", parents=[common], help="execute lessons and print kernel time per lesson")
    p.add_argument("lessons", nargs="*")
    p.add_argument("--lang", action="append", help="languages (default: all)")
    p.add_argument("--variant", choices=["instructor", "student"], default="instructor")
    p.add_argument("--timeout", type=int, default=120, help="per-cell timeout in seconds")
    p.set_defaults(func=cmd_timing)

    args, extra = parser.parse_known_args(argv)
    if args.command in ("lab", "hub-server"):
        args.jupyter_args = extra  # e.g. --port 8890 --no-browser, for JupyterLab
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
