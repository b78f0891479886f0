"""What differs between a lock file and the environment that runs this script (`make test-latest`).

    python requirements/compare.py requirements/dev.txt

Prints one line per package whose installed version is not the one the lock pins for this Python
(newer, older, missing, or not in the lock), then a count. Exit status 0: it only reports; the test
run that follows shows what the differences break.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name
from packaging.version import Version

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def locked(path: Path) -> dict[str, str]:
    """``{name: version}`` the lock pins for the running Python (markers evaluated)."""
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if not match:
            continue
        name, version, marker = match.groups()
        if marker and not Marker(marker).evaluate():
            continue
        pins[canonicalize_name(name)] = version
    return pins


def installed() -> dict[str, str]:
    return {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()
            if d.metadata["Name"]}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python requirements/compare.py LOCKFILE", file=sys.stderr)
        return 2
    pins, have = locked(Path(argv[0])), installed()
    rows = []
    for name in sorted(set(pins) | set(have)):
        old, new = pins.get(name), have.get(name)
        if old == new or name in {"minitape", "pip"}:
            continue
        if old is None:
            change = "not in the lock"
        elif new is None:
            change = "not installed"
        else:
            change = "newer" if Version(new) > Version(old) else "older"
        rows.append((name, old or "-", new or "-", change))
    width = max([len(r[0]) for r in rows] + [7])
    print(f"{'package':<{width}}  {'locked':>12}  {'installed':>12}  change")
    for name, old, new, change in rows:
        print(f"{name:<{width}}  {old:>12}  {new:>12}  {change}")
    print(f"{len(rows)} of {len(pins)} locked packages differ from {argv[0]} "
          f"(Python {sys.version_info.major}.{sys.version_info.minor})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
