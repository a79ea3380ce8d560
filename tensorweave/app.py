"""`tf.app`: `tf.app.run` and `tf.app.flags` (the same module as `tf.flags`)."""

import sys
import textwrap

from . import flags

__all__ = ["flags", "run"]

_HELP_FLAGS = ("-h", "-help", "--help", "-?", "--helpshort", "--helpfull")


def _usage():
    main = sys.modules.get("__main__")
    doc = (getattr(main, "__doc__", None) or "").strip()
    text = flags.FLAGS.get_help("  ")
    out = (doc + "\n\n" if doc else "") + ("flags:\n" + text if text else "")
    sys.stdout.write(out + "\n")


def run(main=None, argv=None):
    """Parses the flags in `argv` (default `sys.argv`), runs `main(remaining_argv)` and exits with
    its return value, as TF 1.x's `tf.app.run`.

    Unknown flags are tolerated and passed on to `main` with the positional arguments. `--help`
    (also `-h`, `--helpshort`, `--helpfull`) prints the defined flags and exits with status 1, as absl.
    A malformed flag value (`--steps=abc` for an integer flag) prints absl's error, "FATAL Flags
    parsing error: flag --steps=abc: ...", on stderr and exits with status 1.

    Args:
      main: The function to run (default: `main` of the `__main__` module).
      argv: The command line, program name first (default `sys.argv`).

    Raises:
      SystemExit: Always, with `main`'s return value (None means status 0), or status 1 when the
        flags cannot be parsed.
      AttributeError: If `main` is None and `__main__` defines no `main`.
    """
    main = main or sys.modules["__main__"].main
    argv = sys.argv if argv is None else argv
    args = list(argv)
    if "--" in args:
        args = args[:args.index("--")]
    if any(a in _HELP_FLAGS for a in args[1:]):
        _usage()
        sys.exit(1)
    remaining = _parse_flags_with_usage(argv)
    sys.exit(main(remaining))


def _parse_flags_with_usage(argv):
    """Parses `argv` into `flags.FLAGS` (unknown flags tolerated); on a flag error prints absl's
    message and exits with status 1 (absl's `parse_flags_with_usage`)."""
    try:
        return flags.FLAGS(argv, known_only=True)
    except flags.Error as error:
        message = str(error)
        if "\n" in message:
            final_message = "FATAL Flags parsing error:\n%s\n" % textwrap.indent(message, "  ")
        else:
            final_message = "FATAL Flags parsing error: %s\n" % message
        sys.stderr.write(final_message)
        sys.stderr.write("Pass --helpshort or --helpfull to see help on flags.\n")
        sys.exit(1)
