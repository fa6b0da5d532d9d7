#!/usr/bin/python3
"""perfzero.measure against torch.utils.benchmark.Timer on the same functions, side by side in one
process (issue 38, item 6): do they find the same median, and what does each cost per repetition?

usage: PYTHONPATH=harness/python /usr/bin/python3 measure_vs_torch_timer.py [ROUNDS]

Rounds alternate the tools so that drift on a shared host hits both. Two questions:
- the median, on a small and a medium fp32 matmul: ours (one timed call per repetition) against
  Timer.blocked_autorange (its recommended use: blocks of calls, the median of the per-call block
  means); their ratio per round and its spread;
- the cost per repetition, on an empty function (so the cost is all the tool's): the tool's wall
  time over the calls it made. Timer has two ways of timing: per sample, `timeit(1)` repeated (one
  timed call per sample, as ours keeps every repetition), and in blocks, `timeit(N)` (timeit's
  compiled loop, one clock read per block): both are printed.
Timer runs PyTorch on 1 thread by default (num_threads=1); ours runs under the same setting.
"""
import json
import statistics
import sys
import time

import torch
import torch.utils.benchmark as torch_benchmark

import perfzero

EMPTY_CALLS = 20000


def matmul(n):
    a, b = torch.rand(n, n), torch.rand(n, n)
    return lambda: torch.mm(a, b)


def ours_median(fn, name):
    return perfzero.measure(fn, name=name, warmups=3, min_repetitions=20, min_time=0.2,
                            max_repetitions=1_000_000).median


def theirs_median(fn):
    return torch_benchmark.Timer(stmt="fn()", globals={"fn": fn}).blocked_autorange(min_run_time=0.2).median


def cost_per_repetition(fn, round_index):
    """Seconds per call of fn: ours, Timer per sample, Timer in one block; each over EMPTY_CALLS calls."""
    start = time.perf_counter()
    perfzero.measure(fn, name=f"empty_{round_index}", warmups=0, min_repetitions=EMPTY_CALLS,
                     max_repetitions=EMPTY_CALLS)
    ours = (time.perf_counter() - start) / EMPTY_CALLS
    timer = torch_benchmark.Timer(stmt="fn()", globals={"fn": fn})
    start = time.perf_counter()
    for _ in range(EMPTY_CALLS):
        timer.timeit(1)
    per_sample = (time.perf_counter() - start) / EMPTY_CALLS
    start = time.perf_counter()
    timer.timeit(EMPTY_CALLS)
    block = (time.perf_counter() - start) / EMPTY_CALLS
    return ours, per_sample, block


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    torch.set_num_threads(1)  # Timer's default, so both time the same work
    workloads = {"matmul_64": matmul(64), "matmul_512": matmul(512)}
    medians = {name: {"ours": [], "theirs": []} for name in workloads}
    costs = {"ours": [], "timer_per_sample": [], "timer_block": []}
    for r in range(rounds):
        for name, fn in workloads.items():
            medians[name]["ours"].append(ours_median(fn, f"{name}_{r}"))
            medians[name]["theirs"].append(theirs_median(fn))
        ours, per_sample, block = cost_per_repetition(lambda: None, r)
        costs["ours"].append(ours)
        costs["timer_per_sample"].append(per_sample)
        costs["timer_block"].append(block)

    print(f"torch {torch.__version__}, {rounds} rounds, torch threads {torch.get_num_threads()}")
    print("| workload | ours median | Timer median | ours / Timer per round (min-max) | median of ratios |")
    print("|---|---|---|---|---|")
    summary = {"rounds": rounds, "medians": {}, "cost_per_repetition": {}}
    for name, m in medians.items():
        ratios = [o / t for o, t in zip(m["ours"], m["theirs"])]
        print(f"| {name} | {statistics.median(m['ours']) * 1e6:.2f} us | {statistics.median(m['theirs']) * 1e6:.2f} us "
              f"| {min(ratios):.3f}-{max(ratios):.3f} | {statistics.median(ratios):.3f} |")
        summary["medians"][name] = {**m, "ratios": ratios}
    print()
    print(f"cost per repetition of an empty function ({EMPTY_CALLS} calls, median of rounds):")
    ours = statistics.median(costs["ours"])
    for key, label in (("ours", "perfzero.measure, one timed call per repetition"),
                       ("timer_per_sample", "Timer.timeit(1) per sample"),
                       ("timer_block", f"Timer.timeit({EMPTY_CALLS}), one block")):
        value = statistics.median(costs[key])
        print(f"  {label}: {value * 1e9:.0f} ns; ours / this = {ours / value:.2f}x")
        summary["cost_per_repetition"][key] = costs[key]
    json.dump(summary, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
