#!/usr/bin/python3
"""Validates every perfzero_summary.json under a directory against results/schema.

usage: validate_reports.py SCHEMA DIR [--expect-outcomes a,b,...]
Exits 1 when any report is invalid, none is found, or an expected outcome is missing.
Runs with Debian's interpreter, which sees python3-jsonschema.
"""
import json
import pathlib
import sys

import jsonschema


def main() -> int:
    schema_path, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    expected = set()
    if len(sys.argv) > 4 and sys.argv[3] == "--expect-outcomes":
        expected = set(sys.argv[4].split(","))
    schema = json.loads(schema_path.read_text())
    validator = jsonschema.Draft7Validator(schema)
    reports = sorted(root.rglob("perfzero_summary.json"))
    if not reports:
        print(f"no perfzero_summary.json under {root}")
        return 1
    bad = 0
    seen = set()
    for report in reports:
        doc = json.loads(report.read_text())
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for error in errors:
            print(f"{report}: {'/'.join(map(str, error.path))}: {error.message}")
        bad += bool(errors)
        seen.add(doc.get("perfzero_cpp", {}).get("outcome"))
    missing = expected - seen
    if missing:
        print(f"outcomes never seen: {sorted(missing)}")
    print(f"{len(reports) - bad} passed, {bad} failed: schema validation of {len(reports)} report(s)")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
