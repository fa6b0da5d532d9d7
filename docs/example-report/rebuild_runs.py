#!/usr/bin/env python3
"""Rebuilds the example's three runs from the report.json made from them (docs/example-report/README.md).

The runs themselves were not kept; the report kept what `perfzero report` reads of them: each
configuration's instance type, provider and system info, and every succeeded trial's wall time and
main metric. This writes one run directory per configuration (run.json and journal.ndjson, in the
results schema) holding exactly that, so that the example can be regenerated when the report changes.
Other metrics and sampler figures of those trials are not in the report and are not invented: the
rebuilt trials have none, and no flags.

usage: rebuild_runs.py REPORT_JSON OUT_DIR
"""
import json
import os
import sys


def main(report_path, out_dir):
    report = json.load(open(report_path, encoding="utf-8"))
    for config in report["configurations"]:
        run_dir = config["runs"][0]  # the path the runs were read from (one run each)
        run_dir = os.path.join(out_dir, os.path.basename(run_dir.rstrip("/")))
        os.makedirs(run_dir, exist_ok=True)
        system = config["system"]
        info = {"execution_id": os.path.basename(run_dir), "execution_label": config["label"],
                "execution_timestamp": 1795398000.0, "platform_name": config["provider"],
                "instance_type": config["shape"], "system_name": "", "schema_version": "1.2.0",
                "system_info": system["system_info"], "system": system["system"],
                "setup_info": system["setup_info"], "env_vars": {}, "flags": {}, "harness_info": {},
                "harness_version": "", "ml_framework_build_label": "", "output_dir": run_dir, "suite_files": []}
        plan, lines = [], [{"event": "run_started", "resuming": False, "time": 1795398000.0}]
        for method in report["methods"]:
            cell = next(c for c in method["cells"] if c["configuration"] == config["key"])
            if cell["trials"] == 0:
                continue
            metric = method["main_metric"]
            case = {"command": [], "description": "", "dir": method["name"], "method": method["name"],
                    "method_type": "builtin", "monitor_interval_ms": 100, "name": method["name"],
                    "origin": "--benchmark_methods", "output": "perfzero", "params": {}, "timeout_seconds": 3600.0,
                    "trials_planned": cell["trials"], "warmups_planned": 0, "working_dir": ""}
            plan.append(case)
            lines.append({"event": "case", "case": case})
            values = cell["main_metric_values"] if metric else [None] * len(cell["wall_times_s"])
            for number, (wall, value) in enumerate(zip(cell["wall_times_s"], values), start=1):
                metrics = [{"name": metric["name"], "unit": metric["unit"], "value": value}] if metric else []
                trial = {"detail": "", "dir": f"{method['name']}/trial_{number}", "exit_code": 0, "extras": {},
                         "flags": [], "harness_seconds": wall, "has_exception": False, "metrics": metrics,
                         "ml_framework_info": None, "outcome": "succeeded", "process": {}, "repetitions": [],
                         "report": "", "resumed": False, "samplers": {}, "self_wall_time": None, "signal": None,
                         "started_offset": 0.0, "trial": number, "wall_time": wall, "warmup": False}
                lines.append({"event": "trial", "case": method["name"], "trial": trial})
        lines.append({"event": "run_finished", "status": "completed", "time": 1795398100.0})
        manifest = {"comparisons": [], "execution_id": info["execution_id"], "execution_timestamp": 1795398000.0,
                    "flags": {}, "plan": plan, "plan_fingerprint": "", "run": info, "schema_version": "1.2.0",
                    "status": "completed"}
        with open(os.path.join(run_dir, "run.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2)
        with open(os.path.join(run_dir, "journal.ndjson"), "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
