"""The checks and figures every framework workload reports, under the oneDNN family's metric names
and units (benchmarks/onednn/*.cpp, benchmarks/common/training_step_report.hpp), so that a suite's
comparisons put ours and a framework's side by side.

Each check raises ValueError with what is wrong: the runner turns it into the trial's error.
"""
import math

import numpy as np


def _metric(name, value, unit, direction=None):
    metric = {"name": name, "value": float(value), "unit": unit}
    if direction is not None:
        metric["direction"] = direction
    return metric


def check_class_scores(scores):
    """scores: (batch, classes). Finite, not constant, and the last item (a copy of the first) agrees."""
    scores = np.asarray(scores, dtype=np.float64).reshape(len(scores), -1)
    if not np.all(np.isfinite(scores)):
        raise ValueError("the output holds a non-finite value")
    lo, hi = float(scores.min()), float(scores.max())
    if hi - lo <= 0:
        raise ValueError("every output is the same value: the network computed nothing")
    if len(scores) > 1:
        first, last = scores[0], scores[-1]
        # The oneDNN family's tolerance, relative per class plus a share of the output's range.
        bad = np.abs(first - last) > 1e-3 * (np.abs(first) + np.abs(last)) + 1e-4 * (hi - lo)
        if bad.any():
            c = int(np.argmax(bad))
            raise ValueError(f"images 0 and {len(scores) - 1} are the same but their outputs differ at class {c}: "
                             f"{first[c]} vs {last[c]}")


def check_predictions(predictions):
    """IMDB sigmoid predictions: inside (0, 1), and the repeated last sequence gets the first's."""
    p = np.asarray(predictions, dtype=np.float64).reshape(-1)
    outside = p[~((p > 0.0) & (p < 1.0))]
    if outside.size:
        raise ValueError(f"a prediction is outside (0, 1): {outside[0]}")
    if abs(p[0] - p[-1]) > 1e-5:
        raise ValueError(f"the same sequence got two predictions: {p[0]} and {p[-1]}")


def network_metrics(batch, median_s, flops_per_batch):
    return [
        _metric("images_per_second", batch / median_s, "images/s", "higher"),
        _metric("ms_per_batch", median_s * 1e3, "ms", "lower"),
        _metric("gflops", flops_per_batch / median_s / 1e9, "GFLOP/s", "higher"),
    ]


def lstm_metrics(batch, median_s):
    return [
        _metric("sequences_per_second", batch / median_s, "sequences/s", "higher"),
        _metric("ms_per_batch", median_s * 1e3, "ms", "lower"),
    ]


def training_metrics(batch, median_s, losses):
    """ms_per_step, examples_per_second and the losses; raises when the network did not learn.

    losses: the timed steps' losses, in order. As the oneDNN family, the mean of the last 5 must be
    under 0.8 x the mean of the first 5.
    """
    if len(losses) < 10:
        raise ValueError(f"only {len(losses)} steps ran; the loss check needs 10")
    first_loss = sum(losses[:5]) / 5
    last_loss = sum(losses[-5:]) / 5
    if not math.isfinite(last_loss) or not last_loss < 0.8 * first_loss:
        raise ValueError(f"the loss did not fall: {first_loss} over the first 5 steps, {last_loss} over the last 5")
    return [
        _metric("ms_per_step", median_s * 1e3, "ms", "lower"),
        _metric("examples_per_second", batch / median_s, "examples/s", "higher"),
        # The losses check the method; they say nothing of speed, so they have no better direction.
        _metric("first_loss", first_loss, "1"),
        _metric("last_loss", last_loss, "1"),
    ]
