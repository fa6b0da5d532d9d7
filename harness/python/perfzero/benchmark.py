"""perfzero.Benchmark: a base class for PerfZero-style benchmark classes. report_benchmark has
tf.test.Benchmark's signature, and metric bounds work as in PerfZero (the harness fails a trial
whose value is outside min_value/max_value)."""
import sys

from perfzero import jsonsafe, results


def _calling_benchmark_method(instance):
    """The name of the benchmark* method of `instance` up the stack (tf.test.Benchmark names its
    entries the same way), or None."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_name
        if name.startswith("benchmark") and frame.f_locals.get("self") is instance:
            return name
        frame = frame.f_back
    return None


class Benchmark:
    """Constructed as PerfZero constructs its classes: Class(output_dir=..., root_data_dir=...,
    tpu=..., **constructor_args); every argument is optional."""

    def __init__(self, output_dir=None, root_data_dir=None, tpu=None, **kwargs):
        self.output_dir = output_dir
        self.root_data_dir = root_data_dir
        self.tpu = tpu
        self.constructor_args = kwargs

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, name=None,
                         metrics=None):
        """Reports one benchmark entry. `metrics`: a list of {name, value, min_value, max_value}
        (and optionally unit and direction), or a dict name -> value; wall_time becomes metric reported_wall_time (s, lower
        is better) and throughput reported_throughput (higher is better); iters and cpu_time go to
        the extras. Called more than once, the last call is the result and the earlier ones are kept
        in extras["python"]["earlier_reports"]."""
        listed = results.as_metric_list(metrics)
        if wall_time is not None:
            listed.append({"name": "reported_wall_time", "value": wall_time, "unit": "s", "direction": "lower"})
        if throughput is not None:
            listed.append({"name": "reported_throughput", "value": throughput, "direction": "higher"})
        entry_extras = results.normalize_extras(extras)
        if iters is not None:
            entry_extras["iters"] = jsonsafe.value(iters)
        if cpu_time is not None:
            entry_extras["cpu_time"] = jsonsafe.value(cpu_time)
        method = _calling_benchmark_method(self)
        entry_name = name if name is not None else "%s.%s" % (type(self).__name__, method or "report_benchmark")
        results.current.add_report({"metrics": results.normalize_metrics(listed), "extras": entry_extras,
                                    "entry_name": jsonsafe.text(entry_name)})
