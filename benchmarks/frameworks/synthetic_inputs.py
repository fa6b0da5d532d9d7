"""Synthetic inputs shared by the PyTorch and TensorFlow workloads, the same as the oneDNN family's.

The MNIST set is benchmarks/common/mnist_synthetic.hpp's, value for value (the same linear
congruential stream), so a framework's first and last losses read beside ours. Images and token
sequences repeat their first item last, so each workload can check that every item of a batch is
computed on its own data. NumPy only: each framework wraps the arrays itself.
"""
import numpy as np

MNIST_BATCHES = 8  # benchmarks/common/training_step_report.hpp's kTrainingBatches, cycled
VOCABULARY = 20000  # the IMDB model of Keras's imdb_lstm example
EMBEDDING = 128
HIDDEN = 128


def _lcg_uniform01(state, count):
    """`count` draws of mnist_synthetic.hpp's uniform01 from `state`; returns (values, new state)."""
    values = np.empty(count, dtype=np.float32)
    for i in range(count):
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        values[i] = (state >> 8) / 16777216.0
    return values, state


def mnist_batch(batch, seed):
    """`batch` 28 x 28 x 1 images (N, 28, 28) float32 and their labels (N,) int64.

    Each image is a faint noise floor with a bright 6 x 6 block placed by its label, so a small CNN
    learns the set in a few steps and the loss check means something.
    """
    images = np.zeros((batch, 28, 28), dtype=np.float32)
    labels = np.zeros(batch, dtype=np.int64)
    state = seed
    for b in range(batch):
        draws, state = _lcg_uniform01(state, 785)
        label = int(draws[0] * 10) % 10
        labels[b] = label
        images[b] = (np.float32(0.2) * draws[1:]).reshape(28, 28)
        row, col = 3 + (label // 5) * 12, 2 + (label % 5) * 5
        images[b, row:row + 6, col:min(col + 6, 28)] += np.float32(0.8)
    return images, labels


def mnist_set(batch):
    """The fixed labelled set of MNIST_BATCHES batches the training step cycles through."""
    return [mnist_batch(batch, 100 + b) for b in range(MNIST_BATCHES)]


def images_nchw(batch, size=224, seed=12345):
    """`batch` RGB images (N, 3, size, size) in [-1, 1); the last repeats the first."""
    images = np.random.default_rng(seed).uniform(-1.0, 1.0, (batch, 3, size, size)).astype(np.float32)
    images[-1] = images[0]
    return images


def token_sequences(batch, length, seed=99):
    """`batch` sequences of `length` token ids (N, length) int64 below VOCABULARY; the last repeats the first."""
    tokens = np.random.default_rng(seed).integers(0, VOCABULARY, (batch, length), dtype=np.int64)
    tokens[-1] = tokens[0]
    return tokens
