"""perfzero.measure: the C++ perfzero::measure() loop for Python (harness/src/api/measure.cpp): warm-ups,
then timed repetitions until the minimums are met (and the noise target, when set), a time cap or a
repetition cap; every value kept and recorded in the result file's `repetitions`."""
import itertools
import math
import operator
import time

from perfzero import results, sync as device_sync

# Two-sided 95 % quantile of Student's t for 1..30 degrees of freedom, as the C++ harness's table.
_T_TABLE = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
            2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t_quantile_975(df):
    """Exact for df <= 30 (the table), a Cornish-Fisher expansion beyond (within 1e-4), as in C++."""
    if 1 <= df <= len(_T_TABLE):
        return _T_TABLE[df - 1]
    z = 1.959964
    n = float(df)
    return z + (z ** 3 + z) / (4 * n) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * n * n)


def relative_noise(count, mean, stddev):
    """95 % confidence half-width of the mean over the mean; infinity with fewer than two values or
    a mean of zero."""
    if count < 2 or mean == 0.0:
        return math.inf
    return t_quantile_975(count - 1) * stddev / math.sqrt(count) / abs(mean)


def mean_and_stddev(values):
    """The mean and the sample standard deviation (0 for one value), two passes in C loops."""
    count = len(values)
    mean = math.fsum(values) / count
    if count < 2:
        return mean, 0.0
    deviations = map(operator.sub, values, itertools.repeat(mean))
    same = map(operator.sub, values, itertools.repeat(mean))
    return mean, math.sqrt(math.fsum(map(operator.mul, deviations, same)) / (count - 1))


class MeasureResult:
    """One measured series: every timed value (seconds) in order, and why the loop stopped."""

    def __init__(self, name, values, warmups, stopped_by):
        self.name = name
        self.unit = "s"
        self.values = values
        self.warmups = warmups
        self.stopped_by = stopped_by
        self.mean, self.stddev = mean_and_stddev(values)
        self.relative_noise = relative_noise(len(values), self.mean, self.stddev)

    @property
    def median(self):
        ordered = sorted(self.values)
        mid = len(ordered) // 2
        return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2

    @property
    def min(self):
        return min(self.values)

    @property
    def max(self):
        return max(self.values)

    def to_protocol(self):
        noise = self.relative_noise
        return {"name": self.name, "unit": self.unit, "values": self.values, "warmups": self.warmups,
                "stopped_by": self.stopped_by, "relative_noise": noise if math.isfinite(noise) else None}

    def __repr__(self):
        return "MeasureResult(%r: %d values, median %.6g s, stopped_by %s)" % (
            self.name, len(self.values), self.median, self.stopped_by)


def _check(name, warmups, min_repetitions, min_time, noise_target, max_time, max_repetitions):
    def bad(what):
        return ValueError("measure '%s': %s" % (name, what))
    if not isinstance(name, str) or not name:
        raise bad("the series needs a name")
    if warmups < 0:
        raise bad("warmups must be at least 0, not %r" % (warmups,))
    if min_repetitions < 1:
        raise bad("min_repetitions must be at least 1, not %r" % (min_repetitions,))
    if max_repetitions < min_repetitions:
        raise bad("max_repetitions (%r) is below min_repetitions (%r)" % (max_repetitions, min_repetitions))
    if not (min_time >= 0) or not math.isfinite(min_time):
        raise bad("min_time %r is not >= 0" % (min_time,))
    if not (max_time > 0):
        raise bad("max_time %r is not > 0" % (max_time,))
    if noise_target is not None and not (noise_target > 0):
        raise bad("noise_target %r is not > 0" % (noise_target,))


def measure(fn, *, name="time", warmups=1, min_repetitions=5, min_time=0.0, noise_target=None, max_time=300.0,
            max_repetitions=1000, setup=None, sync="auto"):
    """Times fn() per repetition (setup(), when given, runs untimed before each, warm-ups included).
    At least one timed repetition always runs; the caps (max_repetitions, then max_time, wall time
    with warm-ups and setup) come before the minimums (min_repetitions, min_time: the timed values'
    sum), then the noise target. sync: "auto", None or a callable (docs/python.md, "Device
    synchronization"). An exception from fn propagates and nothing is recorded."""
    _check(name, warmups, min_repetitions, min_time, noise_target, max_time, max_repetitions)
    session = results.current
    session.check_new_series_name(name)
    clock = time.perf_counter
    started = clock()
    wait = device_sync.resolve(sync)
    for _ in range(warmups):
        if setup is not None:
            setup()
        result = fn()
        if wait is not None:
            wait(result)
    if warmups:
        wait = device_sync.resolve(sync)  # the warm-ups may have initialized CUDA
    if setup is None and wait is None and noise_target is None:
        values, stopped_by = _plain_loop(fn, clock, started + max_time, min_repetitions, min_time, max_repetitions)
    else:
        values, stopped_by = _full_loop(fn, setup, wait, clock, started + max_time, min_repetitions, min_time,
                                        max_repetitions, noise_target)
    measured = MeasureResult(name, values, warmups, stopped_by)
    session.add_repetitions(measured.to_protocol())
    return measured


# Two loops with the same stopping rules: the plain one (no setup, no sync, no noise target) keeps the
# cost of a repetition to two clock reads, an append and three tests.
def _plain_loop(fn, clock, deadline, min_repetitions, min_time, max_repetitions):
    values = []
    append = values.append
    total = 0.0
    count = 0
    while True:
        t0 = clock()
        fn()
        t1 = clock()
        seconds = t1 - t0
        append(seconds)
        count += 1
        total += seconds
        if count >= max_repetitions:
            return values, "max_repetitions"
        if t1 >= deadline:
            return values, "time_cap"
        if count >= min_repetitions and total >= min_time:
            return values, "min_repetitions_and_time"


def _full_loop(fn, setup, wait, clock, deadline, min_repetitions, min_time, max_repetitions, noise_target):
    values = []
    append = values.append
    total = 0.0
    count = 0
    # Welford's running mean and squared deviations: the noise test stays O(1) per repetition.
    mean = 0.0
    m2 = 0.0
    while True:
        if setup is not None:
            setup()
        t0 = clock()
        result = fn()
        if wait is not None:
            wait(result)
        t1 = clock()
        seconds = t1 - t0
        append(seconds)
        count += 1
        total += seconds
        if count >= max_repetitions:
            return values, "max_repetitions"
        if t1 >= deadline:
            return values, "time_cap"
        if noise_target is None:
            if count >= min_repetitions and total >= min_time:
                return values, "min_repetitions_and_time"
            continue
        delta = seconds - mean
        mean += delta / count
        m2 += delta * (seconds - mean)
        if count >= min_repetitions and total >= min_time:
            stddev = math.sqrt(m2 / (count - 1)) if count > 1 else 0.0
            if relative_noise(count, mean, stddev) <= noise_target:
                return values, "noise_target"
