"""What the verdict benchmarks share: the 95 % interval of a rate they count (k of n sessions)."""
import math


def wilson(k, n, z=1.96):
    """Wilson's score interval of k successes in n trials, (low, high); (0, 0) for n = 0."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))
