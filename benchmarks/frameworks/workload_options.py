"""The constructor arguments the framework workload classes share, with the oneDNN family's defaults.

A PerfZero class takes its settings through its constructor (`constructor_args` in a suite,
`--perfzero_constructor_args` on the command line), so the sizes live here rather than in method
parameters. `None` means "the oneDNN method's default for this workload".
"""
import os

# The oneDNN methods' defaults (benchmarks/onednn/*.cpp): batch and timed repetitions per workload.
DEFAULT_BATCH = {"network": 32, "lstm": 32, "training": 128}
DEFAULT_REPETITIONS = {"network": 5, "lstm": 10, "training": 30}
KNOWN = {"batch", "sequence_length", "repetitions", "warmups", "threads", "device"}


class WorkloadOptions:
    """batch, repetitions: None for the oneDNN default of each workload; sequence_length: IMDB tokens
    per sequence (80, Keras's maxlen); warmups (1); threads: 0 for every CPU this process may run on,
    as the oneDNN methods' `threads` (a framework's own default differs: Debian's PyTorch picks 1
    here), so a ratio compares the same cores; device: "auto" (the GPU where the framework sees one),
    "cpu", or the framework's device name ("cuda:0", "/GPU:0").
    """

    def __init__(self, options):
        unknown = sorted(set(options) - KNOWN)
        if unknown:
            raise TypeError(f"unknown constructor argument(s) {', '.join(unknown)}; known: {', '.join(sorted(KNOWN))}")
        self.batch = options.get("batch")
        self.sequence_length = int(options.get("sequence_length", 80))
        self.repetitions = options.get("repetitions")
        self.warmups = int(options.get("warmups", 1))
        threads = int(options.get("threads", 0))
        if threads < 0:
            raise ValueError(f"threads must be 0 (every allowed CPU) or more, not {threads}")
        self.threads = threads or len(os.sched_getaffinity(0))
        self.device = str(options.get("device", "auto"))
        if self.sequence_length < 1 or self.warmups < 0:
            raise ValueError("sequence_length must be at least 1 and warmups at least 0")

    def batch_for(self, workload):
        batch = int(self.batch if self.batch is not None else DEFAULT_BATCH[workload])
        # Two at least: the last item repeats the first for the checks.
        if batch < 2:
            raise ValueError(f"batch must be at least 2, not {batch}")
        return batch

    def repetitions_for(self, workload):
        repetitions = int(self.repetitions if self.repetitions is not None else DEFAULT_REPETITIONS[workload])
        least = 10 if workload == "training" else 1  # the loss check compares 5 steps with 5
        if repetitions < least:
            raise ValueError(f"repetitions must be at least {least} for this workload, not {repetitions}")
        return repetitions
