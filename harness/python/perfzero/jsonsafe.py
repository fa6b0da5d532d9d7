"""What a benchmark hands us, made into JSON the harness's strict parser accepts: text that is not
valid UTF-8 replaced rather than refused, objects JSON cannot hold written as their str(), and
nothing nested deeper than the protocol's 64 levels (docs/protocol.md, "Limits")."""
import math
import numbers

MAX_DEPTH = 60  # under the harness's 64, leaving room for the levels the result itself adds


def text(value):
    """A str that encodes as UTF-8: lone surrogates (bytes that were not UTF-8, decoded with
    surrogateescape, as os.fsdecode does) become U+FFFD."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    value = str(value)
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        try:
            raw = value.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raw = value.encode("utf-8", "replace")
        return raw.decode("utf-8", "replace")


def value(obj, depth=0):
    """obj as JSON: bools, integers, finite floats, text, lists and objects kept; a non-finite float
    or anything else as its text."""
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        number = float(obj)
        return number if math.isfinite(number) else text(repr(number))
    if isinstance(obj, (str, bytes)):
        return text(obj)
    if depth >= MAX_DEPTH:
        return text(_str(obj))
    if isinstance(obj, dict):
        return {text(k): value(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [value(v, depth + 1) for v in obj]
    return text(_str(obj))


def _str(obj):
    try:
        return str(obj)
    except Exception as e:  # a broken __str__ must not lose the whole result
        return "<%s: str() raised %s>" % (type(obj).__name__, type(e).__name__)
