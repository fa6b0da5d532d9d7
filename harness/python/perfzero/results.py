"""The result file (docs/protocol.md) for what a benchmark reported: one place that validates
metrics, collects reports and measured series, and writes the file atomically, for plain scripts
(perfzero.report) and for methods the runner calls (perfzero.runner) alike."""
import math
import numbers
import os
import platform
import sys

from perfzero import jsonsafe
from perfzero.frameworks import framework_info, framework_threads

RESULT_FILE_ENV = "PERFZERO_RESULT_FILE"
PROTOCOL_VERSION = 1
_METRIC_KEYS = ("name", "value", "unit", "direction", "min_value", "max_value")


class Skipped(Exception):
    """Raised by perfzero.skip inside a method the runner calls: the trial becomes `skipped`."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Session:
    """What this process reported so far. The runner makes one per method (`runner_info` set, and
    `on_report` rewriting the result file after each report so that a method that ends the process
    itself keeps what it reported); a plain script uses the default one."""

    def __init__(self, runner_info=None, on_report=None):
        self.reports = []
        self.repetitions = []
        self.runner_info = runner_info
        self.on_report = on_report

    def add_report(self, report):
        self.reports.append(report)
        if self.on_report is not None:
            self.on_report()
        else:
            write_result(self.result())

    def add_repetitions(self, series):
        if any(s["name"] == series["name"] for s in self.repetitions):
            raise ValueError("repetition series '%s' is recorded twice: give each measure() call its own name"
                             % series["name"])
        self.repetitions.append(series)

    def check_new_series_name(self, name):
        if any(s["name"] == name for s in self.repetitions):
            raise ValueError("repetition series '%s' is recorded twice: give each measure() call its own name" % name)

    def result(self):
        """The protocol object: the last report is the result, the earlier ones kept in
        extras["python"]["earlier_reports"] (as PerfZero, where a second report overwrites the first)."""
        python = {"executable": jsonsafe.text(sys.executable), "version": platform.python_version()}
        python.update(self.runner_info or {})
        python["report_benchmark_calls"] = len(self.reports)
        result = {"protocol_version": PROTOCOL_VERSION}
        if self.reports:
            last = self.reports[-1]
            result["metrics"] = last["metrics"]
            extras = dict(last["extras"])
            if last.get("entry_name"):
                python["entry_name"] = last["entry_name"]
            if len(self.reports) > 1:
                python["earlier_reports"] = self.reports[:-1]
        else:
            result["metrics"] = []
            extras = {}
        threads = framework_threads()
        if threads:
            extras["framework_threads"] = threads
        extras["python"] = python
        result["extras"] = extras
        if self.repetitions:
            result["repetitions"] = self.repetitions
        info = framework_info()
        if info is not None:
            result["ml_framework_info"] = info
        return result


current = Session()


def _number(metric_name, field, raw):
    if isinstance(raw, bool) or not isinstance(raw, numbers.Real):
        try:
            raw = float(raw)  # a one-element tensor or array converts; anything else is an error below
        except (TypeError, ValueError):
            raise TypeError("metric '%s': %s must be a number, not %s" % (metric_name, field, type(raw).__name__))
    number = float(raw)
    if not math.isfinite(number):
        raise ValueError("metric '%s': %s is %r; the result protocol needs a finite number" % (metric_name, field, number))
    return number


def normalize_metric(metric):
    """One protocol metric from {name, value, unit, direction, min_value, max_value}."""
    if not isinstance(metric, dict):
        raise TypeError("a metric must be a dict with 'name' and 'value', not %s" % type(metric).__name__)
    name = metric.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("a metric needs a non-empty string 'name', not %r" % (name,))
    if "value" not in metric:
        raise ValueError("metric '%s' has no 'value'" % name)
    unknown = sorted(str(k) for k in metric if k not in _METRIC_KEYS)
    if unknown:
        # tf.test.Benchmark ignores them too; a class written for it must still run.
        print("perfzero: metric '%s': ignoring %s (known: %s)" % (name, ", ".join(unknown), ", ".join(_METRIC_KEYS)),
              file=sys.stderr)
    out = {"name": jsonsafe.text(name), "value": _number(name, "value", metric["value"])}
    for bound in ("min_value", "max_value"):
        if metric.get(bound) is not None:
            out[bound] = _number(name, bound, metric[bound])
    if metric.get("unit") is not None:
        out["unit"] = jsonsafe.text(metric["unit"])
    direction = metric.get("direction")
    if direction is not None:
        if direction not in ("higher", "lower"):
            raise ValueError("metric '%s': direction must be 'higher' or 'lower', not %r" % (name, direction))
        out["direction"] = direction
    return out


def as_metric_list(metrics):
    """The metric dicts of a dict name -> value or a list of metric dicts (None: none)."""
    if metrics is None:
        return []
    if isinstance(metrics, dict):
        return [{"name": k, "value": v} for k, v in metrics.items()]
    if not isinstance(metrics, (list, tuple)):
        raise TypeError("metrics must be a dict of name -> value or a list of dicts, not %s" % type(metrics).__name__)
    return list(metrics)


def normalize_metrics(metrics):
    """A list of protocol metrics from a dict name -> value or a list of metric dicts."""
    out = [normalize_metric(m) for m in as_metric_list(metrics)]
    seen = set()
    for m in out:
        if m["name"] in seen:
            raise ValueError("metric '%s' is reported twice in one report" % m["name"])
        seen.add(m["name"])
    return out


def normalize_extras(extras):
    if extras is None:
        return {}
    if not isinstance(extras, dict):
        raise TypeError("extras must be a dict, not %s" % type(extras).__name__)
    return jsonsafe.value(extras)


def write_result(result):
    """The result at $PERFZERO_RESULT_FILE, written to a temporary file and renamed so that a crash
    never leaves half a file; on stdout when the variable is unset (run by hand, as the C++ workers)."""
    import json
    text = json.dumps(result, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    path = os.environ.get(RESULT_FILE_ENV)
    if not path:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    temporary = "%s.tmp.%d" % (path, os.getpid())
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, path)


def report(metrics, extras=None):
    """Reports the metrics (a dict name -> value, or a list of {name, value, unit, direction,
    min_value, max_value}) and extras. In a plain script each call rewrites the result file with the
    latest report, the measured series and the framework; under the runner it is the method's report."""
    try:
        entry = {"metrics": normalize_metrics(metrics), "extras": normalize_extras(extras)}
    except (TypeError, ValueError) as e:
        if current.runner_info is None:
            # A script's trial then fails with the reason in its report, not only in its log.
            write_result({"protocol_version": PROTOCOL_VERSION, "error": jsonsafe.text("%s: %s" % (type(e).__name__, e))})
        raise
    current.add_report(entry)


def skip(reason):
    """Skips the benchmark with a reason (no GPU here, a framework missing). Under the runner it
    raises Skipped; in a plain script it writes {"skipped": reason} and exits with status 0."""
    reason = jsonsafe.text(reason)
    if current.runner_info is not None:
        raise Skipped(reason)
    write_result({"protocol_version": PROTOCOL_VERSION, "skipped": reason})
    raise SystemExit(0)
