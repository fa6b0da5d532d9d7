"""Imports a module that exists nowhere: an import problem, not a skip."""
import perfzero_test_no_such_module  # noqa: F401


class NeedsMissing:
    def benchmark_x(self):
        pass
