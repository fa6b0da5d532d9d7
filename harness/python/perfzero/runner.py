"""The runner perfzero starts for Python benchmark methods (docs/python.md):

  python -m perfzero.runner list --method SPEC [--method SPEC ...]
  python -m perfzero.runner list --discover --path DIR [--path DIR ...]
  python -m perfzero.runner run --method MODULE.CLASS.METHOD --class_type perfzero|tf_benchmark
      [--constructor_args JSON] --output_dir DIR --root_data_dir DIR [--tpu STR]

`list` prints one JSON object on stdout and exits 0, or 3 when a spec has problems (never with
--discover); `run` writes the result file at $PERFZERO_RESULT_FILE. Usage errors exit 2."""
import argparse
import json
import os
import platform
import sys
import time

EXIT_USAGE = 2
EXIT_PROBLEMS = 3


def _parser():
    parser = argparse.ArgumentParser(prog="python -m perfzero.runner")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list (and check) benchmark methods as JSON")
    listing.add_argument("--method", action="append", default=[], help="a method spec; repeatable")
    listing.add_argument("--discover", action="store_true", help="list every class's benchmark* methods under --path")
    listing.add_argument("--path", action="append", default=[], help="a folder to discover modules in; repeatable")
    running = commands.add_parser("run", help="run one method and write its result file")
    running.add_argument("--method", required=True)
    running.add_argument("--class_type", choices=("perfzero", "tf_benchmark"), default="perfzero")
    # The harness hands them over in PERFZERO_CONSTRUCTOR_ARGS rather than here: a command line is
    # readable by every user of the machine (ps), an environment only by its owner.
    running.add_argument("--constructor_args", default=None,
                         help="a JSON object (default: $PERFZERO_CONSTRUCTOR_ARGS, else {})")
    running.add_argument("--output_dir", required=True)
    running.add_argument("--root_data_dir", default="")
    running.add_argument("--tpu", default=None)
    return parser


def _list(args):
    from perfzero import listing
    if args.discover == bool(args.method) or (args.discover and not args.path):
        print("perfzero.runner list: give --method SPEC..., or --discover with --path DIR...", file=sys.stderr)
        return EXIT_USAGE
    # The JSON is the only thing on stdout: whatever the user's modules print (Python or native
    # code) while they import goes to stderr.
    sys.stdout.flush()
    json_fd = os.dup(1)
    os.dup2(2, 1)
    found = listing.Listing()
    try:
        if args.discover:
            listing.discover(args.path, found)
        else:
            listing.list_specs(args.method, found)
    finally:
        sys.stdout.flush()
    text = json.dumps({"python": {"executable": sys.executable, "version": platform.python_version()},
                       "methods": found.methods, "skipped": found.skipped, "problems": found.problems,
                       "selected": found.selected},
                      ensure_ascii=False, indent=2) + "\n"
    with os.fdopen(json_fd, "w", encoding="utf-8") as out:
        out.write(text)
    return 0 if args.discover or not found.problems else EXIT_PROBLEMS


def _run(args, started):
    from perfzero import method_specs, run_method
    try:
        spec = method_specs.parse(args.method)
    except method_specs.SpecError as e:
        print("perfzero.runner run: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    if spec.method is None:
        print("perfzero.runner run: '%s' is a filter; run takes one method" % args.method, file=sys.stderr)
        return EXIT_USAGE
    if args.constructor_args is None:
        args.constructor_args = os.environ.get("PERFZERO_CONSTRUCTOR_ARGS") or "{}"
    try:
        constructor_args = json.loads(args.constructor_args)
    except ValueError as e:
        print("perfzero.runner run: --constructor_args is not JSON: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    if not isinstance(constructor_args, dict):
        print("perfzero.runner run: --constructor_args must be a JSON object, not %s" % args.constructor_args,
              file=sys.stderr)
        return EXIT_USAGE
    return run_method.run(spec, args.class_type, constructor_args, args.output_dir, args.root_data_dir, args.tpu,
                          started)


def main(argv=None):
    started = time.monotonic()
    args = _parser().parse_args(argv)
    if args.command == "list":
        return _list(args)
    return _run(args, started)


if __name__ == "__main__":
    sys.exit(main())
