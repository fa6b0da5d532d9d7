"""Which ML framework a benchmark ran on, read from sys.modules after it ran (so a method that never
used this package still gets it recorded), and the helper that turns a missing one into a skip."""
import importlib
import sys

# Top-level modules whose absence means "this interpreter has no such framework": the method is
# skipped with that reason rather than failed (docs/python.md, "Errors and skips").
FRAMEWORK_MODULES = ("torch", "torchvision", "tensorflow", "keras", "jax", "cupy")


def is_missing_framework(exc):
    """True when exc says that a framework module itself (not something inside it) is absent."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return False
    return exc.name.split(".")[0] in FRAMEWORK_MODULES


def missing_framework_reason(exc, needed_by):
    """The skip reason for a missing framework: what needed it, which interpreter lacks it."""
    return "%s needs %s, which is not installed for %s (%s: %s)" % (
        needed_by, exc.name.split(".")[0], sys.executable, type(exc).__name__, exc)


def require(module_name):
    """Imports and returns module_name; when it is not installed, skips the benchmark naming it
    (perfzero.skip), so a machine without the framework reports `skipped`, not `failed`."""
    from perfzero.results import skip
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and module_name.split(".")[0] == e.name.split(".")[0]:
            skip("%s is not installed for %s (%s: %s)" % (module_name, sys.executable, type(e).__name__, e))
        raise


def _tensorflow_info(tf):
    build = {}
    try:
        build = dict(tf.sysconfig.get_build_info())
    except Exception:  # older releases lack get_build_info: the versions stay empty
        pass
    return {"name": "tensorflow", "version": str(getattr(tf, "__version__", "")),
            "build_version": str(getattr(getattr(tf, "version", None), "GIT_VERSION", "")),
            "cuda_version": str(build.get("cuda_version", "") or ""),
            "cudnn_version": str(build.get("cudnn_version", "") or "")}


def _torch_info(torch):
    version = getattr(torch, "version", None)
    cudnn = ""
    try:
        cudnn = torch.backends.cudnn.version() or ""
    except Exception:  # a build without cuDNN
        pass
    return {"name": "pytorch", "version": str(getattr(torch, "__version__", "")),
            "build_version": str(getattr(version, "git_version", "") or ""),
            "cuda_version": str(getattr(version, "cuda", "") or ""), "cudnn_version": str(cudnn)}


def framework_info():
    """ml_framework_info of the framework this process imported (TensorFlow first, as PerfZero
    records it, then PyTorch), or None."""
    tf = sys.modules.get("tensorflow")
    if tf is not None and hasattr(tf, "__version__"):
        return _tensorflow_info(tf)
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "__version__"):
        return _torch_info(torch)
    return None


def framework_threads():
    """The thread settings of each imported framework, for extras["framework_threads"]; 0 from
    TensorFlow means its own default (one per core)."""
    threads = {}
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "get_num_threads"):
        try:
            threads["pytorch"] = {"intra_op": torch.get_num_threads(), "inter_op": torch.get_num_interop_threads()}
        except Exception as e:
            threads["pytorch"] = {"error": "%s: %s" % (type(e).__name__, e)}
    tf = sys.modules.get("tensorflow")
    if tf is not None and hasattr(tf, "config"):
        try:
            threading = tf.config.threading
            threads["tensorflow"] = {"intra_op": threading.get_intra_op_parallelism_threads(),
                                     "inter_op": threading.get_inter_op_parallelism_threads()}
        except Exception as e:
            threads["tensorflow"] = {"error": "%s: %s" % (type(e).__name__, e)}
    return threads
