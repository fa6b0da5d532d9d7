#!/usr/bin/env python3
"""The CI examples in docs/ci.md against the real binary: each YAML block parses, and every flag a
perfzero command line in them gives is one that command's --help names (a renamed or removed flag
would leave the recommended gate broken in the users' pipelines, which this project cannot run).

usage: ci_examples_test.py PERFZERO SOURCE_DIR
"""
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

SUBCOMMANDS = [("history", "changes"), ("history", "site"), ("ab",), ("compare",), ("report",)]


def yaml_blocks(text):
    return re.findall(r"```yaml\n(.*?)```", text, flags=re.S)


def perfzero_lines(node):
    """Every string in the parsed YAML that runs perfzero, as shell words."""
    if isinstance(node, dict):
        for v in node.values():
            yield from perfzero_lines(v)
    elif isinstance(node, list):
        for v in node:
            yield from perfzero_lines(v)
    elif isinstance(node, str) and "harness/perfzero" in node:
        for line in node.replace("\\\n", " ").splitlines():
            if "harness/perfzero" in line:
                words = shlex.split(line.replace("${{", "X").replace("}}", "X"))
                start = next(i for i, w in enumerate(words) if w.endswith("harness/perfzero"))
                yield words[start + 1:]


def subcommand(words):
    for sub in SUBCOMMANDS:
        if tuple(words[: len(sub)]) == sub:
            return list(sub)
    return []  # a run


def main():
    perfzero, source = sys.argv[1], Path(sys.argv[2])
    blocks = yaml_blocks((source / "docs/ci.md").read_text())
    assert len(blocks) >= 2, "docs/ci.md should hold a GitHub Actions and a GitLab CI example"
    helps, checked, problems = {}, 0, []
    for block in blocks:
        doc = yaml.safe_load(block)
        assert isinstance(doc, dict), f"a YAML block that is not a mapping: {block[:80]}"
        for words in perfzero_lines(doc):
            sub = subcommand(words)
            key = " ".join(sub) or "run"
            if key not in helps:
                helps[key] = subprocess.run([perfzero, *sub, "--help"], capture_output=True, text=True,
                                            check=True).stdout
            for w in words[len(sub):]:
                if not w.startswith("--"):
                    continue
                flag = w.split("=", 1)[0]
                checked += 1
                if not re.search(re.escape(flag) + r"\b", helps[key]):
                    problems.append(f"perfzero {key}: {flag} is not in its --help")
    assert checked >= 20, f"only {checked} flags found in docs/ci.md's examples: the parser lost them"
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"docs/ci.md: {len(blocks)} YAML examples parse; {checked} flags, each in its command's --help")


if __name__ == "__main__":
    main()
