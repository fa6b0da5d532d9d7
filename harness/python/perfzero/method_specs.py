"""PerfZero's ways of naming Python benchmark methods (--benchmark_methods): MODULE.CLASS.METHOD,
MODULE.CLASS:METHOD and MODULE.CLASS.filter:REGEX (re.match on the class's benchmark* methods)."""
import inspect
import re


class SpecError(ValueError):
    """A spec that names no module, class and method."""


class MethodSpec:
    def __init__(self, text, module, class_name, method=None, pattern=None):
        self.text = text
        self.module = module
        self.class_name = class_name
        self.method = method    # one named method, or None with a filter
        self.pattern = pattern  # compiled regex of a filter spec


def parse(text):
    """MethodSpec from its text, or SpecError saying what is wrong."""
    if ".filter:" in text:
        class_path, regex = text.split(".filter:", 1)
        try:
            pattern = re.compile(regex)
        except re.error as e:
            raise SpecError("'%s': the filter is not a regular expression (%s)" % (text, e))
        module, class_name = _split_class_path(text, class_path)
        return MethodSpec(text, module, class_name, pattern=pattern)
    if ":" in text:
        class_path, method = text.rsplit(":", 1)
    else:
        class_path, _, method = text.rpartition(".")
    if not method or not method.isidentifier():
        raise SpecError("'%s' names no method (MODULE.CLASS.METHOD, MODULE.CLASS:METHOD or "
                        "MODULE.CLASS.filter:REGEX)" % text)
    module, class_name = _split_class_path(text, class_path)
    return MethodSpec(text, module, class_name, method=method)


def _split_class_path(text, class_path):
    module, _, class_name = class_path.rpartition(".")
    parts = module.split(".") + [class_name]
    if not module or not all(p.isidentifier() for p in parts):
        raise SpecError("'%s' needs MODULE.CLASS before the method (dotted Python names)" % text)
    return module, class_name


def benchmark_method_names(cls):
    """The class's benchmark* methods (inherited ones too, as PerfZero lists them), sorted."""
    return sorted(n for n in dir(cls) if n.startswith("benchmark") and callable(getattr(cls, n, None)))


def first_doc_line(obj):
    doc = inspect.getdoc(obj) or ""
    return doc.strip().splitlines()[0].strip() if doc.strip() else ""
