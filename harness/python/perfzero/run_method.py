"""`python -m perfzero.runner run`: one benchmark method in this process, its outcome in the result
file (docs/protocol.md): the last report, `error` for an exception or no report, `skipped` for a
missing framework or perfzero.skip."""
import os
import sys
import time
import traceback

from perfzero import jsonsafe, results, tf_entries
from perfzero.frameworks import is_missing_framework, missing_framework_reason
from perfzero.imports import ImportProblem, exception_text, import_module

EXIT_OK = 0
EXIT_ERROR = 1  # as the C++ workers: the result file says why
EXIT_INTERRUPTED = 130


class _Outcome(Exception):
    def __init__(self, key, message):
        super().__init__(message)
        self.key = key  # "error" or "skipped"
        self.message = jsonsafe.text(message)


def _construct(cls, class_type, constructor_args, output_dir, root_data_dir, tpu):
    if class_type == "tf_benchmark":
        return cls(**constructor_args)
    return cls(output_dir=output_dir, root_data_dir=root_data_dir, tpu=tpu, **constructor_args)


def _call(spec, class_type, constructor_args, output_dir, root_data_dir, tpu, tf_order):
    """Imports, constructs and calls the method; _Outcome for what is not a report."""
    label = "%s.%s" % (spec.class_name, spec.method)
    try:
        module = import_module(spec.module)
    except ImportProblem as e:
        if e.missing_framework:
            raise _Outcome("skipped", e.missing_framework)
        raise _Outcome("error", "module '%s' does not import: %s" % (spec.module, e.message))
    tf_entries.record_call_order(os.environ[tf_entries.PREFIX_ENV], tf_order)
    cls = getattr(module, spec.class_name, None)
    if cls is None or not callable(getattr(cls, spec.method, None)):
        raise _Outcome("error", "%s.%s has no method %s" % (spec.module, spec.class_name, spec.method))
    try:
        instance = _construct(cls, class_type, constructor_args, output_dir, root_data_dir, tpu)
        getattr(instance, spec.method)()
    except results.Skipped as e:
        raise _Outcome("skipped", e.reason)
    except SystemExit as e:
        if results.current.reports and e.code in (None, 0):
            return  # reported, then ended the process cleanly: the reports stand
        raise _Outcome("error", "%s called sys.exit(%r)%s" % (
            label, e.code, "" if results.current.reports else " without calling report_benchmark"))
    except KeyboardInterrupt:
        raise
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        if is_missing_framework(e):
            raise _Outcome("skipped", missing_framework_reason(e, label))
        raise _Outcome("error", exception_text(e))


def run(spec, class_type, constructor_args, output_dir, root_data_dir, tpu, started):
    """Runs the method; returns the exit status after writing the result file."""
    label = "%s.%s" % (spec.class_name, spec.method)
    session = results.Session(runner_info={"entry_name": label}, on_report=lambda: None)
    results.current = session
    if os.environ.get(results.RESULT_FILE_ENV):
        # What the file says if the method ends the process itself: an error before it reports, its
        # reports after (run by hand, the result is printed once, at the end).
        results.write_result({"protocol_version": results.PROTOCOL_VERSION,
                              "error": "%s ended the process before returning (os._exit, or a crash in native code)"
                                       % label})
        session.on_report = lambda: results.write_result(_finished(session.result(), started))
    prefix = os.path.join(output_dir, "proto_")
    os.environ[tf_entries.PREFIX_ENV] = prefix
    before = tf_entries.entry_files(prefix)
    tf_order = []
    try:
        _call(spec, class_type, constructor_args, output_dir, root_data_dir, tpu, tf_order)
        if not session.reports:
            # A tf.test.Benchmark (or PerfZero class built on it) reported through TensorFlow's file.
            for report in tf_entries.read_reports(tf_entries.entry_files(prefix) - before, tf_order):
                session.reports.append({"metrics": results.normalize_metrics(report["metrics"]),
                                        "extras": results.normalize_extras(report["extras"]),
                                        "entry_name": jsonsafe.text(report["entry_name"])})
        if not session.reports:
            raise _Outcome("error", "%s returned without calling report_benchmark" % label)
    except _Outcome as outcome:
        result = {"protocol_version": results.PROTOCOL_VERSION, outcome.key: outcome.message}
        if outcome.key == "error":
            result["extras"] = {"python": session.result()["extras"]["python"]}
        results.write_result(_finished(result, started))
        return EXIT_ERROR if outcome.key == "error" else EXIT_OK
    except KeyboardInterrupt:
        results.write_result(_finished({"protocol_version": results.PROTOCOL_VERSION,
                                        "error": "%s was interrupted (KeyboardInterrupt)" % label}, started))
        return EXIT_INTERRUPTED
    except (TypeError, ValueError) as e:  # TensorFlow's entries broke the protocol (a NaN metric)
        results.write_result(_finished({"protocol_version": results.PROTOCOL_VERSION, "error": exception_text(e)},
                                       started))
        return EXIT_ERROR
    results.write_result(_finished(session.result(), started))
    return EXIT_OK


def _finished(result, started):
    result["self_wall_time"] = time.monotonic() - started
    return result
