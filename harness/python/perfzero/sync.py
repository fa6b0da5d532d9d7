"""Device synchronization for measure(): work a framework queued on a GPU must be finished inside
the timed interval, or the time is that of queueing it."""
import sys


def _tensorflow_sync(tf):
    """After fn: sync_devices (TF >= 2.13) when TensorFlow has a GPU; else .numpy() on the tensors fn
    returned, which waits for them (eager CPU ops are synchronous, so nothing else is waited for)."""
    gpus = []
    try:
        gpus = tf.config.list_logical_devices("GPU")
    except Exception:  # a broken device query leaves the per-result wait
        pass
    sync_devices = getattr(getattr(getattr(tf, "test", None), "experimental", None), "sync_devices", None)
    if gpus and sync_devices is not None:
        return lambda result: sync_devices()
    tensor_type = tf.Tensor

    def wait_for(result):
        if isinstance(result, tensor_type):
            result.numpy()
        elif isinstance(result, (list, tuple)):
            for item in result:
                if isinstance(item, tensor_type):
                    item.numpy()
    return wait_for


def resolve(sync):
    """The function measure() calls with fn's return value after every repetition, or None.
    sync: "auto" (PyTorch's CUDA when initialized, TensorFlow when imported), None, or a callable
    taking no argument."""
    if sync is None:
        return None
    if callable(sync):
        return lambda result: sync()
    if sync != "auto":
        raise ValueError("sync must be 'auto', None or a callable, not %r" % (sync,))
    waits = []
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None) if torch is not None else None
    if cuda is not None and getattr(cuda, "is_initialized", lambda: False)():
        synchronize = cuda.synchronize
        waits.append(lambda result: synchronize())
    tf = sys.modules.get("tensorflow")
    if tf is not None and hasattr(tf, "Tensor"):
        waits.append(_tensorflow_sync(tf))
    if not waits:
        return None
    if len(waits) == 1:
        return waits[0]

    def both(result):
        for wait in waits:
            wait(result)
    return both
