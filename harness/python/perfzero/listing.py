"""`python -m perfzero.runner list`: which methods the specs (or the discovered modules) name, which
are skipped for a missing framework, and every problem, as one JSON object (docs/python.md)."""
import ast
import importlib.util
import inspect
import os
import sys

from perfzero import jsonsafe, method_specs
from perfzero.imports import ImportProblem, exception_text, import_module

MAX_DISCOVERY_DEPTH = 6


class Listing:
    def __init__(self):
        self.methods = []
        self.skipped = []
        self.problems = []
        # Which names each spec selected, so the harness never matches a filter again with another
        # regular-expression dialect than Python's re.
        self.selected = {}
        self._seen = set()

    def add_method(self, name, doc, spec_text=None):
        if spec_text is not None:
            self.selected.setdefault(spec_text, []).append(name)
        if name not in self._seen:
            self._seen.add(name)
            self.methods.append({"name": name, "doc": jsonsafe.text(doc)})

    def add_skipped(self, name, reason, spec_text):
        self.selected.setdefault(spec_text, []).append(name)
        if name not in self._seen:
            self._seen.add(name)
            self.skipped.append({"name": name, "reason": jsonsafe.text(reason)})

    def add_problem(self, spec, module, kind, message):
        self.problems.append({"spec": jsonsafe.text(spec), "module": jsonsafe.text(module), "kind": kind,
                              "message": jsonsafe.text(message)})


def list_specs(texts, listing):
    modules = {}
    for text in texts:
        try:
            spec = method_specs.parse(text)
        except method_specs.SpecError as e:
            listing.add_problem(text, "", "bad_spec", str(e))
            continue
        if spec.module not in modules:
            try:
                modules[spec.module] = import_module(spec.module)
            except ImportProblem as e:
                modules[spec.module] = e
        module = modules[spec.module]
        if isinstance(module, ImportProblem):
            if module.missing_framework and spec.method is None:
                # A filter over a class this interpreter cannot import for want of a framework: its
                # methods read from the source, so a suite for several frameworks still plans here.
                names = _methods_in_source(spec)
                if names:
                    for name in names:
                        listing.add_skipped(name, module.missing_framework, text)
                    continue
            if module.missing_framework and spec.method is not None:
                # Planned, and each trial says why it was skipped (runner `run` writes the skip).
                name = "%s.%s.%s" % (spec.module, spec.class_name, spec.method)
                listing.add_skipped(name, module.missing_framework, text)
            else:
                listing.add_problem(text, spec.module, "import", module.message)
            continue
        _list_class(spec, module, listing)


def _methods_in_source(spec):
    """The benchmark* methods a filter selects in the class as its module's source defines it (methods
    it inherits are not seen), without running the module; [] when the source cannot be read."""
    try:
        found = importlib.util.find_spec(spec.module)
        if found is None or not found.origin or not found.origin.endswith(".py"):
            return []
        with open(found.origin, "rb") as source:
            tree = ast.parse(source.read(), found.origin)
    except (ImportError, OSError, SyntaxError, ValueError):
        return []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == spec.class_name:
            return ["%s.%s.%s" % (spec.module, spec.class_name, item.name) for item in node.body
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and item.name.startswith("benchmark") and spec.pattern.match(item.name)]
    return []


def _list_class(spec, module, listing):
    cls = getattr(module, spec.class_name, None)
    if not inspect.isclass(cls):
        listing.add_problem(spec.text, spec.module, "no_class",
                            "module '%s' (%s) has no class %s" % (spec.module, _where(module), spec.class_name))
        return
    prefix = "%s.%s." % (spec.module, spec.class_name)
    if spec.method is not None:
        method = getattr(cls, spec.method, None)
        if not callable(method):
            listing.add_problem(spec.text, spec.module, "no_method",
                                "class %s.%s has no method %s" % (spec.module, spec.class_name, spec.method))
            return
        listing.add_method(prefix + spec.method, method_specs.first_doc_line(method), spec.text)
        return
    matched = [n for n in method_specs.benchmark_method_names(cls) if spec.pattern.match(n)]
    if not matched:
        listing.add_problem(spec.text, spec.module, "no_match", "no benchmark* method of %s.%s matches '%s'"
                            % (spec.module, spec.class_name, spec.pattern.pattern))
    for name in matched:
        listing.add_method(prefix + name, method_specs.first_doc_line(getattr(cls, name)), spec.text)


def _where(module):
    return getattr(module, "__file__", None) or "no file"


def _skipped_dir(path, name):
    if name.startswith(("_", ".")) or name in ("site-packages", "dist-packages", "node_modules"):
        return True
    return os.path.exists(os.path.join(path, "pyvenv.cfg"))  # a virtual environment


def module_names(root):
    """Dotted module names of the .py files under root (at most MAX_DISCOVERY_DEPTH folders down),
    leaving out names starting with '_' or '.', virtual environments, site-packages and setup.py."""
    found = []
    for current, dirs, files in os.walk(root):
        relative = os.path.relpath(current, root)
        parts = [] if relative == "." else relative.split(os.sep)
        if len(parts) >= MAX_DISCOVERY_DEPTH:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not _skipped_dir(os.path.join(current, d), d)
                         and d.isidentifier())
        for f in sorted(files):
            stem = f[:-3]
            if f.endswith(".py") and not f.startswith(("_", ".")) and stem.isidentifier() and f != "setup.py":
                found.append(".".join(parts + [stem]))
    return found


def discover(paths, listing):
    """Every class defined in a module under the paths that has benchmark* methods; a module that
    does not import is a problem (a warning here: the listing goes on)."""
    for root in paths:
        absolute = os.path.abspath(root)
        if not os.path.isdir(absolute):
            listing.add_problem(root, "", "bad_spec", "--path %s is not a directory" % root)
            continue
        if absolute not in sys.path:
            sys.path.insert(0, absolute)
        for name in module_names(absolute):
            try:
                module = import_module(name)
            except ImportProblem as e:
                listing.add_problem(name, name, "import", e.message)
                continue
            except Exception as e:  # a name clash with an installed module that is not a package
                listing.add_problem(name, name, "import", exception_text(e))
                continue
            where = os.path.abspath(getattr(module, "__file__", None) or "")
            if not where.startswith(absolute + os.sep):
                listing.add_problem(name, name, "import", "'%s' under %s imports %s instead: another module of that "
                                    "name comes first on sys.path" % (name, root, where or "a module without a file"))
                continue
            for class_name, cls in sorted(vars(module).items()):
                if inspect.isclass(cls) and cls.__module__ == module.__name__:
                    for method in method_specs.benchmark_method_names(cls):
                        listing.add_method("%s.%s.%s" % (name, class_name, method),
                                           method_specs.first_doc_line(getattr(cls, method)))
