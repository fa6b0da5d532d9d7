#!/usr/bin/python3
"""Fails a test pass that ran fewer tests than expected or skipped one it may not skip.

A test whose dependency is missing is either not built (so nothing reports it) or skipped (exit 77,
GTEST_SKIP): both would leave CI green while a whole family went untested. This reads the JUnit file
`ctest --output-junit` wrote and checks it against two committed lists:

  tests/expected_tests.txt   STAGE MINIMUM: the fewest tests that stage of scripts/test.sh may count
  tests/skip_allowlist.txt   PATTERN  REASON: the only tests that may be skipped, each with why

usage: scripts/check_test_run.py STAGE JUNIT_XML
"""
import fnmatch
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_table(path):
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) != 2:
            sys.exit(f"{path}:{number}: expected two fields (a name and a value or reason), got '{line}'")
        rows.append((parts[0], parts[1], number))
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    stage, junit = sys.argv[1], pathlib.Path(sys.argv[2])
    expected = {name: int(value) for name, value, _ in read_table(ROOT / "tests" / "expected_tests.txt")}
    allowed = read_table(ROOT / "tests" / "skip_allowlist.txt")
    if stage not in expected:
        sys.exit(f"check_test_run: no minimum for stage '{stage}' in tests/expected_tests.txt")
    try:
        cases = ElementTree.parse(junit).getroot().iter("testcase")
    except (OSError, ElementTree.ParseError) as e:
        sys.exit(f"check_test_run: cannot read {junit}: {e}")
    counted = 0
    refused = []
    skipped = []
    for case in cases:
        counted += 1
        name = case.get("name", "")
        if case.get("status") in ("notrun", "disabled") or case.find("skipped") is not None:
            skipped.append(name)
            if not any(fnmatch.fnmatchcase(name, pattern) for pattern, _, _ in allowed):
                refused.append(name)
    problems = []
    if counted < expected[stage]:
        problems.append(f"{counted} tests ran in stage '{stage}', fewer than the {expected[stage]} it counts "
                        "(tests/expected_tests.txt): a worker or a test executable was not built, or a label lost its tests")
    for name in refused:
        problems.append(f"{name} was skipped, and tests/skip_allowlist.txt does not allow it")
    print(f"check_test_run: stage {stage}: {counted} tests, {len(skipped)} skipped"
          + (f" (allowed: {', '.join(sorted(set(skipped) - set(refused)))})" if len(skipped) > len(refused) else ""))
    if problems:
        for p in problems:
            print(f"check_test_run: {p}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
