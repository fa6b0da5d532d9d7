"""Writes a perfzero result file (docs/protocol.md) from a Python baseline."""
import json
import os
import sys


def write_result(metrics, extras=None, framework=None, error=None):
    """metrics: list of dicts with name, value, unit and optional min_value/max_value."""
    result = {"metrics": metrics, "extras": extras or {}}
    if framework:
        result["ml_framework_info"] = framework
    if error:
        result["error"] = error
    path = os.environ.get("PERFZERO_RESULT_FILE")
    text = json.dumps(result, indent=2)
    if not path:
        print(text)
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    if error:
        print(error, file=sys.stderr)
