"""`tf.data.Options` and its option groups (`OptimizationOptions`, `ThreadingOptions`, `DistributeOptions`)
with the `AutoShardPolicy` and `ExternalStatePolicy` enums: typed holders, set with
`Dataset.with_options` and read back with `Dataset.options()`.

tensorweave records the options; its pipelines are always deterministic and run no graph rewrites,
so the optimization and threading options change no result (as in TF, where they only tune speed).
"""

import enum

__all__ = ["AutoShardPolicy", "AutotuneAlgorithm", "AutotuneOptions", "DistributeOptions", "ExternalStatePolicy",
           "OptimizationOptions", "Options", "ThreadingOptions"]


class AutoShardPolicy(enum.IntEnum):
    """How a distributed input pipeline is sharded: OFF, AUTO, FILE, DATA or HINT."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class AutotuneAlgorithm(enum.IntEnum):
    """The autotuning algorithm: DEFAULT, HILL_CLIMB, GRADIENT_DESCENT, MAX_PARALLELISM or STAGE_BASED."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class ExternalStatePolicy(enum.Enum):
    """What to do when a dataset's functions capture external state: WARN, IGNORE or FAIL."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsBase:
    """Typed options: each property is None (unset) or a value of its type; setting an unknown name
    raises AttributeError, a value of another type TypeError."""

    _PROPS = {}  # name -> (type, factory of the default)

    def __init__(self):
        object.__setattr__(self, "_values", {n: (d() if d is not None else None) for n, (_, d) in
                                             self._PROPS.items()})
        object.__setattr__(self, "_set", set())

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name not in self._PROPS:
            raise AttributeError("Cannot set the property %s on %s." % (name, type(self).__name__))
        ty = self._PROPS[name][0]
        if value is not None and not (isinstance(value, ty) and not (ty is int and isinstance(value, bool))):
            raise TypeError("Property \"%s\" must be of type %s, got: %r (type: %s)" % (name, ty, value, type(value)))
        self._values[name] = value
        self._set.add(name)

    def __eq__(self, other):
        return type(other) is type(self) and self._values == other._values

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._PROPS))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % kv for kv in sorted(self._values.items())))

    def _merge_from(self, other):
        """Takes every property `other` set (nested groups property by property)."""
        for name in self._PROPS:
            mine, theirs = self._values[name], other._values[name]
            if isinstance(mine, _OptionsBase):
                mine._merge_from(theirs)
            elif name in other._set:
                self._values[name] = theirs
                self._set.add(name)


def _bools(*names):
    return {n: (bool, None) for n in names}


class OptimizationOptions(_OptionsBase):
    """The static optimizations of a pipeline (`Options.experimental_optimization`): booleans, None
    meaning TF's default."""

    _PROPS = dict(_bools("apply_default_optimizations", "autotune", "autotune_buffers", "filter_fusion",
                         "filter_parallelization", "filter_with_random_uniform_fusion", "hoist_random_uniform",
                         "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
                         "map_parallelization", "noop_elimination", "parallel_batch", "shuffle_and_repeat_fusion"),
                  autotune_cpu_budget=(int, None))


class ThreadingOptions(_OptionsBase):
    """Threading of a pipeline (`Options.experimental_threading`): `max_intra_op_parallelism` and
    `private_threadpool_size` (ints)."""

    _PROPS = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class DistributeOptions(_OptionsBase):
    """Distribution of a pipeline (`Options.experimental_distribute`): `auto_shard_policy` (an
    `AutoShardPolicy`, default AUTO) and `num_devices`."""

    _PROPS = {"auto_shard_policy": (AutoShardPolicy, lambda: AutoShardPolicy.AUTO), "num_devices": (int, None)}


class AutotuneOptions(_OptionsBase):
    """Autotuning of a pipeline (`Options.autotune`): `enabled` (bool), `cpu_budget`, `ram_budget`,
    `initial_parallelism`, `min_parallelism` (ints) and `autotune_algorithm` (an `AutotuneAlgorithm`)."""

    _PROPS = {"enabled": (bool, None), "cpu_budget": (int, None), "ram_budget": (int, None),
              "initial_parallelism": (int, None), "min_parallelism": (int, None),
              "autotune_algorithm": (AutotuneAlgorithm, None)}


class Options(_OptionsBase):
    """Represents options for `tf.data.Dataset` (set with `Dataset.with_options`, read with
    `Dataset.options()`).

    Properties: `experimental_deterministic` (bool), `experimental_slack` (bool),
    `experimental_external_state_policy` (`ExternalStatePolicy`), and the groups
    `experimental_optimization` (`OptimizationOptions`), `experimental_threading`
    (`ThreadingOptions`), `experimental_distribute` (`DistributeOptions`), `autotune`
    (`AutotuneOptions`). Unset properties are None.
    """

    _PROPS = {"experimental_deterministic": (bool, None), "experimental_slack": (bool, None),
              "experimental_external_state_policy": (ExternalStatePolicy, None),
              "experimental_optimization": (OptimizationOptions, OptimizationOptions),
              "experimental_threading": (ThreadingOptions, ThreadingOptions),
              "experimental_distribute": (DistributeOptions, DistributeOptions),
              "autotune": (AutotuneOptions, AutotuneOptions)}

    def merge(self, options):
        """A new `Options` with this object's options, overridden by those `options` sets.

        Args:
          options: An `Options`.

        Returns:
          The merged `Options`.
        """
        return merge_options(self, options)


def merge_options(*options_list):
    """Merges `Options` objects: a property set by a later one overrides an earlier one.

    Returns:
      A new `Options`.

    Raises:
      TypeError: If an argument is not an `Options`.
    """
    result = Options()
    for o in options_list:
        if not isinstance(o, Options):
            raise TypeError("Expected `tf.data.Options()`, but got %s." % (o,))
        result._merge_from(o)
    return result


def _unary_base():
    from .dataset_transformations import _UnaryDataset
    return _UnaryDataset


def options_dataset(input_dataset, options):
    """`input_dataset` with `options` attached (what `Dataset.with_options` returns)."""
    if not isinstance(options, Options):
        raise TypeError("Expected `tf.data.Options()`, but got %s." % (options,))

    class _OptionsDataset(_unary_base()):
        def _iterate(self, ctx, capture_values):
            return ctx.iterate(self._input)

    ds = _OptionsDataset(input_dataset)
    ds._options = options
    return ds


def dataset_options(dataset):
    """The merged options of `dataset` and its inputs (inner ones first, so outer ones win)."""
    merged = Options()
    for d in dataset._inputs():
        merged = merge_options(merged, dataset_options(d))
    own = getattr(dataset, "_options", None)
    return merge_options(merged, own) if own is not None else merged
