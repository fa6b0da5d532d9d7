"""Prints to stdout (from Python and from the C library) while it imports, as chatty libraries do."""
import ctypes
import ctypes.util

import perfzero

print("hello from prints_on_import")
_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_libc.puts(b"hello from libc")
_libc.fflush(None)


class Chatty(perfzero.Benchmark):
    def benchmark_quiet(self):
        self.report_benchmark(metrics={"ok": 1.0})
