"""Does not parse, on purpose."""

class Broken(:
    def benchmark_x(self):
        pass
