"""The BenchmarkEntries files tf.test.Benchmark.report_benchmark writes at $TEST_REPORT_FILE_PREFIX<name>
(tensorflow/core/util/test_log.proto), read back as reports, as PerfZero reads them."""
import glob
import os

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


def read_reports(paths):
    """Reports from the files, oldest first (the last one written is the result)."""
    if not paths:
        return []
    from tensorflow.core.util import test_log_pb2  # only when TensorFlow wrote something: it is imported
    ordered = sorted(paths, key=lambda p: (os.stat(p).st_mtime_ns, p))
    reports = []
    for path in ordered:
        entries = test_log_pb2.BenchmarkEntries()
        with open(path, "rb") as f:
            entries.ParseFromString(f.read())
        reports.extend(_entry_to_report(e) for e in entries.entry)
    return reports
