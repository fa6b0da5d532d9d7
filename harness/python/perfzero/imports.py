"""Importing a user's module for the runner: what went wrong, as one line naming the module and the
Python exception, and whether it was only a missing framework (a skip, not a failure)."""
import importlib
import sys
import traceback

from perfzero import jsonsafe
from perfzero.frameworks import is_missing_framework, missing_framework_reason


class ImportProblem(Exception):
    """The module did not import. `missing_framework` holds the skip reason when the only cause is a
    framework that this interpreter lacks."""

    def __init__(self, module, message, missing_framework=None):
        super().__init__(message)
        self.module = module
        self.message = message
        self.missing_framework = missing_framework


def exception_text(exc):
    """'ExcType: message' on one line, valid UTF-8."""
    message = jsonsafe.text(exc)
    return "%s: %s" % (type(exc).__name__, message) if message else type(exc).__name__


def import_module(name):
    """The module, or ImportProblem. A module that calls sys.exit while importing is a problem too
    (KeyboardInterrupt still stops the runner); the traceback goes to stderr."""
    try:
        return importlib.import_module(name)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SyntaxError, SystemExit, anything the module's top level raised
        traceback.print_exc(file=sys.stderr)
        skip = missing_framework_reason(e, "module '%s'" % name) if is_missing_framework(e) else None
        raise ImportProblem(name, exception_text(e), skip)
