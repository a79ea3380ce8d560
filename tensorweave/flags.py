"""`tf.flags` / `tf.app.flags`: command-line flags with absl.flags' API, as TensorFlow 1.x re-exports it.

    tf.flags.DEFINE_string("output_dir", "", "Where to write.")
    FLAGS = tf.flags.FLAGS
    ... FLAGS.output_dir ...

`FLAGS` parses `sys.argv` (tolerating unknown flags) the first time a flag is read, as TF's wrapper
does; `tf.app.run` parses explicitly. Command lines follow absl: `--name=value`, `--name value`,
`-name`, `--flag`/`--noflag` for booleans, repeated `--name` for multi flags, and `--` ending
the flags.
"""

import sys

__all__ = ["DEFINE", "DEFINE_bool", "DEFINE_boolean", "DEFINE_enum", "DEFINE_float", "DEFINE_integer",
           "DEFINE_list", "DEFINE_multi_float", "DEFINE_multi_integer", "DEFINE_multi_string", "DEFINE_string",
           "DuplicateFlagError", "Error", "FLAGS", "Flag", "FlagValues", "IllegalFlagValueError",
           "UnparsedFlagAccessError", "UnrecognizedFlagError", "mark_flag_as_required", "mark_flags_as_required"]


class Error(Exception):
    """The base class of flag errors (absl.flags.Error)."""


class DuplicateFlagError(Error):
    """A flag is defined twice."""


class IllegalFlagValueError(Error):
    """A flag's value cannot be parsed or is out of its bounds."""


class UnrecognizedFlagError(Error):
    """A command line names a flag that is not defined."""

    def __init__(self, flagname, flagvalue=""):
        self.flagname = flagname
        self.flagvalue = flagvalue
        super().__init__("Unknown command line flag '%s'" % flagname)


class UnparsedFlagAccessError(Error, AttributeError):
    """A flag is read before the command line was parsed."""


# ---- parsers: string (or Python value) -> value -----------------------------------------------
_TRUE = ("true", "t", "1", "yes", "y")
_FALSE = ("false", "f", "0", "no", "n")


def _parse_bool(arg):
    if isinstance(arg, bool):
        return arg
    if isinstance(arg, str):
        low = arg.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    elif isinstance(arg, int) and arg in (0, 1):
        return bool(arg)
    raise ValueError("Non-boolean argument to boolean flag", arg)


def _parse_int(arg):
    if isinstance(arg, bool):
        raise TypeError("Expect argument to be a string or int, found %s" % type(arg))
    if isinstance(arg, int):
        return arg
    if isinstance(arg, str):
        s = arg.strip().lower()
        digits = s.lstrip("+-")
        base = 10
        if digits.startswith("0x"):
            base = 16
        elif len(digits) > 1 and digits.startswith("0"):
            base = 8  # absl reads a leading zero as octal
        return int(s, base)
    raise TypeError("Expect argument to be a string or int, found %s" % type(arg))


def _parse_float(arg):
    if isinstance(arg, bool):
        raise TypeError("Expect argument to be a string, int, or float, found %s" % type(arg))
    if isinstance(arg, (int, float)):
        return float(arg)
    if isinstance(arg, str):
        return float(arg)
    raise TypeError("Expect argument to be a string, int, or float, found %s" % type(arg))


def _parse_list(arg):
    if isinstance(arg, (list, tuple)):
        return [str(x) for x in arg]
    if not arg:
        return []
    return [s.strip() for s in str(arg).split(",")]


class Flag:
    """One flag: its name, help, default and current value.

    Attributes:
      name: The flag's name.
      default: The parsed default value.
      help: The help string.
      short_name: An optional one-letter alias.
      value: The current value.
      present: How many times the command line set it.
      using_default_value: Whether `value` is still the default.
    """

    def __init__(self, parse, name, default, help_string, short_name=None, boolean=False, flag_type="string",
                 enum_values=None, lower_bound=None, upper_bound=None, multi=False):
        self._parse_fn = parse
        self.name = name
        self.help = help_string or "(no help available)"
        self.short_name = short_name
        self.boolean = boolean
        self.flag_type = flag_type
        self.enum_values = list(enum_values) if enum_values is not None else None
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.multi = multi
        self.present = 0
        self.default_as_str = None if default is None else repr(default)
        self.default = None if default is None else self._convert(default)
        self.value = self.default
        self.using_default_value = True

    def _convert_one(self, argument):
        try:
            value = self._parse_fn(argument)
        except (TypeError, ValueError) as e:
            raise IllegalFlagValueError("flag --%s=%s: %s" % (self.name, argument, e)) from None
        if self.enum_values is not None and value not in self.enum_values:
            raise IllegalFlagValueError("flag --%s=%s: value should be one of <%s>"
                                        % (self.name, argument, "|".join(self.enum_values)))
        if self.lower_bound is not None and value < self.lower_bound or \
                self.upper_bound is not None and value > self.upper_bound:
            raise IllegalFlagValueError("flag --%s=%s: %s is not %s"
                                        % (self.name, argument, value, self._bounds_help()))
        return value

    def _bounds_help(self):
        """What a bounded number must be, in absl's words ("a non-negative integer", "a number in the
        range [0.5, 2]", "integer <= 5")."""
        article, noun = ("an", "integer") if self.flag_type == "int" else ("a", "number")
        lo, hi = self.lower_bound, self.upper_bound
        if lo is not None and hi is not None:
            return "%s %s in the range [%s, %s]" % (article, noun, lo, hi)
        if lo == 1:
            return "a positive %s" % noun
        if hi == -1:
            return "a negative %s" % noun
        if lo == 0:
            return "a non-negative %s" % noun
        if hi == 0:
            return "a non-positive %s" % noun
        if hi is not None:
            return "%s <= %s" % (noun, hi)
        return "%s >= %s" % (noun, lo)

    def _convert(self, argument):
        if self.multi:
            items = argument if isinstance(argument, (list, tuple)) else [argument]
            return [self._convert_one(a) for a in items]
        return self._convert_one(argument)

    def parse(self, argument):
        """Sets the value from a command-line string (a multi flag appends to what the command line gave).

        Raises:
          IllegalFlagValueError: If the argument does not parse or is out of bounds.
        """
        value = self._convert(argument)
        if self.multi and self.present:
            self.value = list(self.value) + value
        else:
            self.value = value
        self.present += 1
        self.using_default_value = False

    def _set_default(self, value):
        self.default = None if value is None else self._convert(value)
        if self.using_default_value:
            self.value = self.default

    def unparse(self):
        self.value = self.default
        self.using_default_value = True
        self.present = 0

    def __repr__(self):
        return "<%s %s=%r>" % (type(self).__name__, self.name, self.value)


class FlagValues:
    """A registry of flags whose values read as attributes (`FLAGS.learning_rate`).

    Calling it with an argv list parses the flags there and returns the arguments left over
    (`argv[0]` first).

    Args:
      parse_on_access: Parse `sys.argv` (tolerating unknown flags) when a flag is first read
        before any explicit parse, as TF's `tf.flags.FLAGS` does; otherwise such a read raises
        `UnparsedFlagAccessError`, as absl does.
    """

    def __init__(self, parse_on_access=False):
        self.__dict__["__flags"] = {}
        self.__dict__["_short"] = {}
        self.__dict__["_parsed"] = False
        self.__dict__["_parse_on_access"] = parse_on_access
        self.__dict__["_required"] = set()

    def _flags(self):
        """Returns the dict of flag name -> `Flag`."""
        return self.__dict__["__flags"]

    # ---- registration ----------------------------------------------------------------------
    def _register(self, flag):
        flags = self._flags()
        if flag.name in flags:
            raise DuplicateFlagError("The flag '%s' is defined twice." % flag.name)
        if flag.short_name and flag.short_name in self.__dict__["_short"]:
            raise DuplicateFlagError("The flag '%s' is defined twice." % flag.short_name)
        flags[flag.name] = flag
        if flag.short_name:
            self.__dict__["_short"][flag.short_name] = flag.name

    def __delattr__(self, name):
        flag = self._flags().pop(name, None)
        if flag is None:
            raise AttributeError(name)
        if flag.short_name:
            self.__dict__["_short"].pop(flag.short_name, None)

    # ---- access ----------------------------------------------------------------------------
    def __getattr__(self, name):
        flags = self.__dict__["__flags"]
        if name not in flags:
            raise AttributeError(name)
        if not self.__dict__["_parsed"]:
            if not self.__dict__["_parse_on_access"]:
                raise UnparsedFlagAccessError("Trying to access flag --%s before flags were parsed." % name)
            self(sys.argv, known_only=True)
        return flags[name].value

    def __setattr__(self, name, value):
        flags = self._flags()
        if name not in flags:
            raise AttributeError(name)
        flags[name].value = value
        flags[name].using_default_value = False

    def __getitem__(self, name):
        return self._flags()[name]

    def __contains__(self, name):
        return name in self._flags()

    def __iter__(self):
        return iter(self._flags())

    def __len__(self):
        return len(self._flags())

    def __dir__(self):
        return sorted(self._flags())

    def is_parsed(self):
        return self.__dict__["_parsed"]

    def mark_as_parsed(self):
        self.__dict__["_parsed"] = True

    def unparse_flags(self):
        """Resets every flag to its default and marks the flags unparsed."""
        for f in self._flags().values():
            f.unparse()
        self.__dict__["_parsed"] = False

    def flag_values_dict(self):
        """Returns {name: value} of every flag."""
        return {name: f.value for name, f in self._flags().items()}

    def get_flag_value(self, name, default):
        flag = self._flags().get(name)
        return default if flag is None else flag.value

    def set_default(self, name, value):
        """Changes the default of flag `name` (and its value if it was not set)."""
        self._flags()[name]._set_default(value)

    def __str__(self):
        return self.get_help()

    def get_help(self, prefix=""):
        """The flags' help text: one entry per flag, sorted by name."""
        lines = []
        for name in sorted(self._flags()):
            f = self._flags()[name]
            names = "--%s" % name if not f.short_name else "-%s,--%s" % (f.short_name, name)
            if f.boolean:
                names = names.replace("--%s" % name, "--[no]%s" % name)
            lines.append("%s  %s: %s" % (prefix, names, f.help))
            default = f.default
            if isinstance(default, list):
                default = ",".join(str(x) for x in default)
            if f.boolean:
                default = "true" if default else "false"
            lines.append("%s    (default: '%s')" % (prefix, default))
        return "\n".join(lines)

    # ---- parsing ---------------------------------------------------------------------------
    def __call__(self, argv, known_only=False):
        """Parses the flags in `argv` and returns `[argv[0]]` plus the unparsed arguments.

        Args:
          argv: The command line (a list of strings, program name first).
          known_only: Leave unknown flags in the result instead of raising.

        Returns:
          The program name, then the unknown flags (with `known_only`) and positional arguments.

        Raises:
          TypeError: If `argv` is a string.
          ValueError: If `argv` is empty.
          UnrecognizedFlagError: If a flag is unknown and not `known_only`.
          IllegalFlagValueError: If a value is malformed, out of range, or missing, or a required
            flag was not given.
        """
        if isinstance(argv, (str, bytes)):
            raise TypeError("argv should be a tuple/list of strings, not bytes or string.")
        argv = list(argv)
        if not argv:
            raise ValueError("argv cannot be an empty list, and must contain the program name as the first "
                             "element.")
        flags = self._flags()
        short = self.__dict__["_short"]
        unknown, positional = [], []
        args = argv[1:]
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                positional.extend(args[i:])
                break
            if not arg.startswith("-") or arg == "-":
                positional.append(arg)
                continue
            body = arg[2:] if arg.startswith("--") else arg[1:]
            name, eq, value = body.partition("=")
            name = short.get(name, name)
            flag = flags.get(name)
            if flag is None and name.startswith("no") and not eq:
                cand = flags.get(short.get(name[2:], name[2:]))
                if cand is not None and cand.boolean:
                    cand.parse(False)
                    continue
            if flag is None:
                if known_only:
                    unknown.append(arg)
                    continue
                raise UnrecognizedFlagError(name, value)
            if flag.boolean and not eq:
                flag.parse(True)
                continue
            if not eq:
                if i >= len(args):
                    raise IllegalFlagValueError("flag --%s: Flag --%s must have a value other than None."
                                                % (name, name))
                value = args[i]
                i += 1
            flag.parse(value)
        missing = sorted(n for n in self.__dict__["_required"] if n in flags and flags[n].value is None)
        if missing:
            raise IllegalFlagValueError("flag --%s must have a value other than None." % missing[0])
        self.mark_as_parsed()
        return argv[:1] + unknown + positional


FLAGS = FlagValues(parse_on_access=True)


def DEFINE(parser, name, default, help, flag_values=FLAGS, serializer=None, module_name=None,  # noqa: A002, N802
           required=False, **args):
    """Defines a flag whose values are parsed by `parser(string) -> value` (absl's generic DEFINE)."""
    fn = parser.parse if hasattr(parser, "parse") else parser
    return _define(Flag(fn, name, default, help, short_name=args.get("short_name")), flag_values, required)


def _define(flag, flag_values, required):
    if flag_values is None:
        flag_values = FLAGS
    flag_values._register(flag)
    if required:
        flag_values.__dict__["_required"].add(flag.name)
    return _FlagHolder(flag_values, flag.name)


class _FlagHolder:
    """What `DEFINE_*` returns: `.value` reads the flag (absl's FlagHolder)."""

    def __init__(self, flag_values, name):
        self._flag_values = flag_values
        self.name = name

    @property
    def value(self):
        return getattr(self._flag_values, self.name)

    @property
    def default(self):
        return self._flag_values[self.name].default

    @property
    def present(self):
        return bool(self._flag_values[self.name].present)


def _default_arg(default, kwargs):
    # TF's wrapper also accepted the pre-absl keyword `default_value`.
    if "default_value" in kwargs:
        return kwargs.pop("default_value")
    return default


def DEFINE_string(name, default=None, help=None, flag_values=FLAGS, required=False, **args):  # noqa: A002, N802
    """Defines a string flag.

    Args:
      name: The flag's name.
      default: The default value (a string or None).
      help: The help string.
      flag_values: The `FlagValues` to register it in (default `FLAGS`).
      required: Parsing fails unless the flag gets a value.
      **args: `short_name`.

    Returns:
      A holder whose `.value` reads the flag.

    Raises:
      DuplicateFlagError: If the flag is already defined.
    """
    default = _default_arg(default, args)
    return _define(Flag(lambda s: s if isinstance(s, str) else str(s), name, default, help,
                        short_name=args.get("short_name")), flag_values, required)


def DEFINE_boolean(name, default=None, help=None, flag_values=FLAGS, module_name=None, required=False,  # noqa: A002, N802
                   **args):
    """Defines a boolean flag: `--name`, `--noname`, `--name=true|false|1|0`.

    Raises:
      DuplicateFlagError: If the flag is already defined.
      IllegalFlagValueError: If the default is not a boolean.
    """
    default = _default_arg(default, args)
    return _define(Flag(_parse_bool, name, default, help, short_name=args.get("short_name"), boolean=True,
                        flag_type="bool"), flag_values, required)


DEFINE_bool = DEFINE_boolean


def DEFINE_integer(name, default=None, help=None, lower_bound=None, upper_bound=None,  # noqa: A002, N802
                   flag_values=FLAGS, required=False, **args):
    """Defines an integer flag, optionally bounded (inclusive).

    Raises:
      DuplicateFlagError: If the flag is already defined.
      IllegalFlagValueError: If the default is not an integer or is out of bounds.
    """
    default = _default_arg(default, args)
    return _define(Flag(_parse_int, name, default, help, short_name=args.get("short_name"), flag_type="int",
                        lower_bound=lower_bound, upper_bound=upper_bound), flag_values, required)


def DEFINE_float(name, default=None, help=None, lower_bound=None, upper_bound=None,  # noqa: A002, N802
                 flag_values=FLAGS, required=False, **args):
    """Defines a float flag, optionally bounded (inclusive).

    Raises:
      DuplicateFlagError: If the flag is already defined.
      IllegalFlagValueError: If the default is not a number or is out of bounds.
    """
    default = _default_arg(default, args)
    return _define(Flag(_parse_float, name, default, help, short_name=args.get("short_name"), flag_type="float",
                        lower_bound=lower_bound, upper_bound=upper_bound), flag_values, required)


def DEFINE_enum(name, default=None, enum_values=None, help=None, flag_values=FLAGS, module_name=None,  # noqa: A002, N802
                required=False, **args):
    """Defines a string flag restricted to `enum_values`.

    Raises:
      ValueError: If `enum_values` is empty.
      DuplicateFlagError: If the flag is already defined.
      IllegalFlagValueError: If the default is not one of `enum_values`.
    """
    default = _default_arg(default, args)
    if not enum_values:
        raise ValueError("enum_values cannot be empty, found '%s'" % (enum_values,))
    return _define(Flag(str, name, default, help, short_name=args.get("short_name"), flag_type="enum",
                        enum_values=enum_values), flag_values, required)


def DEFINE_list(name, default=None, help=None, flag_values=FLAGS, required=False, **args):  # noqa: A002, N802
    """Defines a flag holding a list of strings, given comma-separated (`--name=a,b,c`).

    Raises:
      DuplicateFlagError: If the flag is already defined.
    """
    default = _default_arg(default, args)
    return _define(Flag(_parse_list, name, default, help, short_name=args.get("short_name"), flag_type="list"),
                   flag_values, required)


def _define_multi(parse, flag_type):
    def define(name, default=None, help=None, flag_values=FLAGS, required=False, **args):  # noqa: A002
        default = _default_arg(default, args)
        return _define(Flag(parse, name, default, help, short_name=args.get("short_name"), flag_type=flag_type,
                            lower_bound=args.get("lower_bound"), upper_bound=args.get("upper_bound"), multi=True),
                       flag_values, required)
    define.__name__ = "DEFINE_multi_" + flag_type
    define.__doc__ = ("Defines a flag given any number of times (`--name=a --name=b`); its value is the list "
                      "of %s values." % flag_type)
    return define


DEFINE_multi_string = _define_multi(lambda s: s if isinstance(s, str) else str(s), "string")
DEFINE_multi_integer = _define_multi(_parse_int, "integer")
DEFINE_multi_float = _define_multi(_parse_float, "float")


def mark_flag_as_required(flag_name, flag_values=FLAGS):
    """Makes parsing fail unless flag `flag_name` gets a value other than None."""
    flag_values.__dict__["_required"].add(flag_name)


def mark_flags_as_required(flag_names, flag_values=FLAGS):
    for name in flag_names:
        mark_flag_as_required(name, flag_values)
