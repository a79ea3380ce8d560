"""`tf.random.Generator`, `tf.random.create_rng_state` and `tf.random.Algorithm`: a random number
generator whose state (a Philox counter and key) is an int64 variable, as TF 2's.

Each draw reads the state and advances the counter by 256 per value drawn (`RngReadAndSkip`), then
fills the output from that key and counter with the same kernels as the stateless ops, so the
values are TensorFlow's for the same state. In graph mode the state variable is initialized with
the others (`tf.global_variables_initializer()`), and each run of a draw advances it.
"""

import enum
import weakref

import numpy as np

from .framework import dtypes, ops
from .ops import (
    array_ops,
    core_ops,
    math_ops,
    random_generator_ops,  # noqa: F401 (registers the ops)
    state_ops,
)
from .ops.random_ops import _shape_tensor

__all__ = ["Algorithm", "Generator", "create_rng_state", "get_global_generator", "set_global_generator"]

_STATE_SIZE = 3  # Philox: a 128-bit counter and a 64-bit key, in int64 words
_COUNTER_SIZE = 2
_MASK64 = (1 << 64) - 1


class Algorithm(enum.Enum):
    """The RNG algorithms, with TF's ids."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _alg_to_int(alg):
    """TF's `convert_alg_to_int`, Philox only: ThreeFry raises NotImplementedError."""
    if isinstance(alg, Algorithm):
        alg = alg.value
    if isinstance(alg, str):
        names = {"philox": 1, "threefry": 2, "auto_select": 3}
        if alg.lower() not in names:
            raise ValueError("Argument `alg` got unsupported value %s. Supported values are philox for the Philox "
                             "algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection."
                             % alg)
        alg = names[alg.lower()]
    if isinstance(alg, (int, np.integer)) and int(alg) in (1, 3):
        return 1  # auto_select is Philox on CPU
    if isinstance(alg, (int, np.integer)) and int(alg) == 2:
        raise NotImplementedError("The ThreeFry algorithm is not implemented; use Philox")
    raise ValueError("Argument `alg` got unsupported value %r." % (alg,))


def _int64(v):
    v = int(v) & _MASK64
    return v - (1 << 64) if v >= 1 << 63 else v


def _make_state(seed):
    """TF's `_make_1d_state` for Philox: a Python int is cut into 64-bit words (least significant
    first); a vector is cast to int64, cut to 3 words and padded with zeros on the left."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = []
        for _ in range(_STATE_SIZE):
            words.append(_int64(seed & _MASK64))
            seed >>= 64
        return np.array(words, np.int64)
    if ops.is_tensor(seed):
        s = array_ops.reshape(math_ops.cast(seed, dtypes.int64), [-1])[0:_STATE_SIZE]
        pad = math_ops.maximum(_STATE_SIZE - array_ops.shape(s)[0], 0)
        out = array_ops.concat([array_ops.zeros(array_ops.reshape(pad, [1]), dtypes.int64), s], 0)
        out.set_shape([_STATE_SIZE])
        return out
    arr = np.asarray(seed)
    if arr.dtype.kind not in "iub" and not (arr.dtype == object):
        raise TypeError("A seed must be an integer or a vector of integers, got %r" % (seed,))
    words = [_int64(v) for v in np.ravel(arr).tolist()][:_STATE_SIZE]
    return np.array([0] * (_STATE_SIZE - len(words)) + words, np.int64)


def create_rng_state(seed, alg):
    """Creates an RNG state from an integer or a vector of integers (`tf.random.create_rng_state`).

    Args:
      seed: A Python integer (cut into 64-bit words, least significant first) or a vector of
        integers (its first 3 values, padded with zeros on the left).
      alg: The algorithm: "philox", "auto_select", `Algorithm.PHILOX` or its id.

    Returns:
      An int64 Tensor of shape [3]: the counter (two words) then the key.

    Raises:
      NotImplementedError: For the ThreeFry algorithm.
      ValueError: For an unknown algorithm.
    """
    _alg_to_int(alg)
    state = _make_state(seed)
    return state if ops.is_tensor(state) else ops.convert_to_tensor(state, dtype=dtypes.int64)


class Generator:
    """A random number generator, its state an int64 variable (`tf.random.Generator`).

    Build one with `Generator.from_seed`, `from_state`, `from_key_counter` or
    `from_non_deterministic_state`. Its draws (`normal`, `uniform`, `truncated_normal`,
    `uniform_full_int`, `make_seeds`, `split`) are TF's values for the same state.

    Args:
      copy_from: A generator to copy (its current state, in eager mode).
      state: The initial state: a vector of 3 integers or an int64 Tensor.
      alg: The algorithm (Philox: "philox", "auto_select", `Algorithm.PHILOX`).

    Raises:
      ValueError: If neither or both of `copy_from` and `state` are given.
      NotImplementedError: For the ThreeFry algorithm.
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, `state` and `alg` must be None")
            state, alg = copy_from.state.read_value(), copy_from.algorithm
        elif state is None:
            raise ValueError("`state` must be given (or use one of the Generator.from_* constructors)")
        self._alg = _alg_to_int(Algorithm.PHILOX if alg is None else alg)
        if not ops.is_tensor(state):
            state = np.array([_int64(v) for v in np.ravel(np.asarray(state, dtype=object)).tolist()], np.int64)
            if state.shape != (_STATE_SIZE,):
                raise ValueError("The state of a Philox generator has %d words, got %d" % (_STATE_SIZE, state.size))
        from .variables import Variable
        self._state_var = Variable(state, trainable=False, dtype=dtypes.int64, name="StatefulRNG")

    # ---- constructors ------------------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose state is `create_rng_state(seed, alg)`."""
        alg = Algorithm.PHILOX if alg is None else alg
        _alg_to_int(alg)
        return cls(state=_make_state(seed), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator with the given state (3 int64 words for Philox)."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator from a key (an integer) and a counter (two integers)."""
        counter = [_int64(c) for c in np.ravel(np.asarray(counter, dtype=object)).tolist()]
        if len(counter) != _COUNTER_SIZE:
            raise ValueError("The counter of a Philox generator has %d words, got %d" % (_COUNTER_SIZE, len(counter)))
        return cls(state=counter + [_int64(key)], alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        import secrets
        return cls(state=[_int64(secrets.randbits(64)) for _ in range(_STATE_SIZE)], alg=alg)

    # ---- state -------------------------------------------------------------------------------
    @property
    def state(self):
        """The state variable (int64, [3])."""
        return self._state_var

    @property
    def algorithm(self):
        """The algorithm id (1: Philox)."""
        return self._alg

    @property
    def key(self):
        """The key: the state's last word."""
        return self._state_var.read_value()[-1]

    def reset(self, state):
        """Assigns a new state (returns the assign op's value)."""
        return state_ops.assign(self._state_var, ops.convert_to_tensor(state, dtype=dtypes.int64))

    def reset_from_seed(self, seed):
        """Assigns the state of `from_seed(seed)`."""
        return self.reset(_make_state(seed))

    def reset_from_key_counter(self, key, counter):
        """Assigns the state made of `counter` and `key`."""
        counter = [_int64(c) for c in np.ravel(np.asarray(counter, dtype=object)).tolist()]
        return self.reset(np.array(counter + [_int64(key)], np.int64))

    def skip(self, delta):
        """Advances the counter as `delta` draws would; returns the state before."""
        return ops.apply_op("RngReadAndSkip", [state_ops._ref_tensor(self._state_var),
                                               ops.convert_to_tensor(self._alg, dtype=dtypes.int32),
                                               math_ops.cast(delta, dtypes.uint64)], {})

    def _prepare_key_counter(self, shape):
        delta = math_ops.reduce_prod(shape)
        counter_key = self.skip(delta)
        # int64 -> uint64 keeps the bits (TF bitcasts).
        counter = math_ops.cast(counter_key[:_COUNTER_SIZE], dtypes.uint64)
        key = math_ops.cast(counter_key[_COUNTER_SIZE:_COUNTER_SIZE + 1], dtypes.uint64)
        return key, counter

    def _alg_tensor(self):
        return ops.convert_to_tensor(self._alg, dtype=dtypes.int32, name="alg")

    # ---- draws -------------------------------------------------------------------------------
    def _float(self, op_type, shape, dtype):
        key, counter = self._prepare_key_counter(shape)
        return ops.apply_op(op_type, [shape, key, counter, self._alg_tensor()], {"dtype": dtype})

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Outputs random values from a normal distribution.

        Args:
          shape: A 1-D integer Tensor or Python array: the output shape.
          mean: A 0-D Tensor or Python value of type `dtype`.
          stddev: A 0-D Tensor or Python value of type `dtype`.
          dtype: float16, float32 or float64.
          name: A name for the operation (optional).

        Returns:
          A tensor of the specified shape filled with random normal values.
        """
        dtype = dtypes.as_dtype(dtype)
        with ops.name_scope(name, "stateful_normal", [shape, mean, stddev]) as name:
            shape = _shape_tensor(shape)
            mean = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
            rnd = self._float("StatelessRandomNormalV2", shape, dtype)
            return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Outputs random values from a truncated normal distribution (re-drawn beyond 2 stddev).

        Args:
          shape: A 1-D integer Tensor or Python array: the output shape.
          mean: A 0-D Tensor or Python value of type `dtype`.
          stddev: A 0-D Tensor or Python value of type `dtype`.
          dtype: float16, float32 or float64.
          name: A name for the operation (optional).

        Returns:
          A tensor of the specified shape filled with random truncated normal values.
        """
        dtype = dtypes.as_dtype(dtype)
        with ops.name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
            shape = _shape_tensor(shape)
            mean = ops.convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev = ops.convert_to_tensor(stddev, dtype=dtype, name="stddev")
            rnd = self._float("StatelessTruncatedNormalV2", shape, dtype)
            return math_ops.add(math_ops.multiply(rnd, stddev), mean, name=name)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Outputs random values from a uniform distribution over `[minval, maxval)`.

        Args:
          shape: A 1-D integer Tensor or Python array: the output shape.
          minval: The lower bound (for integers, None with `maxval` None: the whole range).
          maxval: The upper bound (exclusive); 1 for floats by default, required for integers.
          dtype: float16, float32, float64, int32, int64, uint32 or uint64.
          name: A name for the operation (optional).

        Returns:
          A tensor of the specified shape filled with random uniform values.

        Raises:
          ValueError: If `dtype` is integral and `maxval` is missing.
        """
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and minval is None:
            if maxval is not None:
                raise ValueError("For integer dtype %r, `minval` and `maxval` must both be None or both given"
                                 % dtype)
            return self.uniform_full_int(shape, dtype=dtype, name=name)
        if maxval is None:
            if dtype.is_integer:
                raise ValueError("Must specify maxval for integer dtype %r" % dtype)
            maxval = 1
        with ops.name_scope(name, "stateful_uniform", [shape, minval, maxval]) as name:
            shape = _shape_tensor(shape)
            minval = ops.convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = ops.convert_to_tensor(maxval, dtype=dtype, name="max")
            if dtype.is_integer:
                key, counter = self._prepare_key_counter(shape)
                return ops.apply_op("StatelessRandomUniformIntV2",
                                    [shape, key, counter, self._alg_tensor(), minval, maxval], {}, name=name)
            rnd = self._float("StatelessRandomUniformV2", shape, dtype)
            return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(maxval, minval)), minval, name=name)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers covering the whole range of `dtype` (int32, int64, uint32 or uint64).

        Args:
          shape: A 1-D integer Tensor or Python array: the output shape.
          dtype: int32, int64, uint32 or uint64.
          name: A name for the operation (optional).

        Returns:
          A tensor of the specified shape and dtype.
        """
        dtype = dtypes.as_dtype(dtype)
        with ops.name_scope(name, "stateful_uniform_full_int", [shape]) as name:
            shape = _shape_tensor(shape)
            key, counter = self._prepare_key_counter(shape)
            return ops.apply_op("StatelessRandomUniformFullIntV2", [shape, key, counter, self._alg_tensor()],
                                {"dtype": dtype}, name=name)

    def make_seeds(self, count=1):
        """`count` new seeds for stateless ops: an int64 Tensor [2, count] (new keys over zeros)."""
        keys = self.uniform_full_int(shape=[count], dtype=dtypes.int64)
        return array_ops.stack([keys, core_ops.zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each keyed by a new 64-bit key (counter zero). Eager mode only, as
        TF's (a graph would draw the keys again for each new state's initializer).

        Returns:
          A list of `count` Generators.

        Raises:
          NotImplementedError: When building a graph.
        """
        from .eager import context
        if not context.executing_eagerly():
            raise NotImplementedError("Generator.split is only supported when executing eagerly (as in TF, whose "
                                      "graph-mode split fails)")
        keys = self.uniform_full_int(shape=[count], dtype=dtypes.int64)
        zeros = array_ops.zeros([_STATE_SIZE - 1], dtypes.int64)
        return [Generator(state=array_ops.concat([zeros, array_ops.reshape(keys[i], [1])], 0), alg=self._alg)
                for i in range(count)]


# ---- the global generator ----------------------------------------------------------------------
_GLOBAL = weakref.WeakKeyDictionary()


def _global_scope():
    """The key of the current global generator: the eager context's graph when executing eagerly,
    else the default graph (a graph-mode generator's state is a variable of one graph)."""
    from .eager import context
    return context.eager_graph() if context.executing_eagerly() else ops.get_default_graph()


def get_global_generator():
    """Retrieves the global generator (`tf.random.get_global_generator`), creating it from a
    non-deterministic state on first use.

    When building a graph, each graph has its own global generator (its state is a variable of that
    graph, initialized with the others); eagerly there is one.

    Returns:
      The global `tf.random.Generator`.
    """
    key = _global_scope()
    g = _GLOBAL.get(key)
    if g is None:
        g = Generator.from_non_deterministic_state()
        _GLOBAL[key] = g
    return g


def set_global_generator(generator):
    """Replaces the global generator with `generator` (`tf.random.set_global_generator`).

    Args:
      generator: The new global `tf.random.Generator`.

    Raises:
      TypeError: If `generator` is not a Generator.
    """
    if not isinstance(generator, Generator):
        raise TypeError("set_global_generator expects a tf.random.Generator, got %r" % (generator,))
    _GLOBAL[_global_scope()] = generator
