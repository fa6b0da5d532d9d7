"""The BenchmarkEntries files tf.test.Benchmark.report_benchmark writes at $TEST_REPORT_FILE_PREFIX<name>
(tensorflow/core/util/test_log.proto), read back as reports, as PerfZero reads them."""
import glob
import os
import sys

PREFIX_ENV = "TEST_REPORT_FILE_PREFIX"


def entry_files(prefix):
    return set(glob.glob(glob.escape(prefix) + "*"))


def _entry_to_report(entry):
    metrics = []
    for m in entry.metrics:
        metric = {"name": m.name, "value": m.value}
        if m.HasField("min_value"):
            metric["min_value"] = m.min_value.value
        if m.HasField("max_value"):
            metric["max_value"] = m.max_value.value
        metrics.append(metric)
    # Proto3 scalars have no presence: zero means "not given", as TensorFlow's own reporter reads it.
    if entry.wall_time:
        metrics.append({"name": "reported_wall_time", "value": entry.wall_time, "unit": "s", "direction": "lower"})
    if entry.throughput:
        metrics.append({"name": "reported_throughput", "value": entry.throughput, "direction": "higher"})
    extras = {}
    for key, value in entry.extras.items():
        kind = value.WhichOneof("kind")
        extras[key] = getattr(value, kind) if kind else None
    if entry.iters:
        extras["iters"] = entry.iters
    if entry.cpu_time:
        extras["cpu_time"] = entry.cpu_time
    return {"metrics": metrics, "extras": extras, "entry_name": entry.name}


def record_call_order(prefix, order):
    """Appends to `order` the entry files in the order report_benchmark writes them, as it is called. A file's
    time cannot tell two reports a millisecond apart, so the runner wraps TensorFlow's writer (once
    the class's module imported it: a tf.test.Benchmark subclass cannot be defined without it)."""
    module = sys.modules.get("tensorflow.python.platform.benchmark")
    original = getattr(module, "_global_report_benchmark", None)
    if original is None:
        return  # another TensorFlow layout: the files' times order them

    def recording(*args, **kwargs):
        name = kwargs.get("name", args[0] if args else "")
        order.append(prefix + str(name).replace("/", "__"))
        return original(*args, **kwargs)
    module._global_report_benchmark = recording


def read_reports(paths, order=()):
    """Reports from the files, in the order they were written (the last one is the result)."""
    if not paths:
        return []
    from tensorflow.core.util import test_log_pb2  # only when TensorFlow wrote something: it is imported
    position = {path: index for index, path in reversed(list(enumerate(order)))}
    ordered = sorted(paths, key=lambda p: (position.get(p, len(position)), os.stat(p).st_mtime_ns, p))
    reports = []
    for path in ordered:
        entries = test_log_pb2.BenchmarkEntries()
        with open(path, "rb") as f:
            entries.ParseFromString(f.read())
        reports.extend(_entry_to_report(e) for e in entries.entry)
    return reports
