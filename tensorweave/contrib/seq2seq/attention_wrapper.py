"""Attention for `tf.contrib.seq2seq` (TF 1.15's `attention_wrapper.py`): the additive (Bahdanau) and
multiplicative (Luong) attention mechanisms and `AttentionWrapper`, an `RNNCell` that runs a cell and
attends over a memory at each step.

Variable names are TF's: the memory layer `memory_layer/kernel` (made where the mechanism is built),
and, under the wrapper's scope (`.../attention_wrapper/`), the wrapped cell's variables,
`bahdanau_attention/query_layer/kernel`, `bahdanau_attention/attention_v` (with `normalize`:
`attention_g`, `attention_b`), `luong_attention/attention_g` (with `scale`) and
`attention_layer/kernel`.
"""

import collections
import functools
import math

import numpy as np

from ... import variable_scopes as vs
from ...framework import dtypes, ops, tensor_util
from ...framework.tensor_shape import TensorShape, dimension_value
from ...layers.base import Layer
from ...layers.core import Dense
from ...nn.rnn_cell_impl import RNNCell, assert_like_rnncell
from ...ops import array_ops, check_ops, clip_ops, core_ops, init_ops, math_ops, nest, nn_ops, random_ops
from ...ops.functional_ops import scan
from ...ops.tensor_array_ops import TensorArray

__all__ = ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention", "LuongAttention",
           "hardmax", "safe_cumprod", "monotonic_attention", "BahdanauMonotonicAttention", "LuongMonotonicAttention"]


class AttentionMechanism:
    """Base class of the attention mechanisms (`tf.contrib.seq2seq.AttentionMechanism`)."""

    @property
    def alignments_size(self):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError


def _zeros(size, batch_size, dtype):
    """Zeros `[batch_size, size]` (`size` an int)."""
    shape = array_ops.stack([ops.convert_to_tensor(batch_size, dtype=dtypes.int32),
                             ops.convert_to_tensor(size, dtype=dtypes.int32)])
    z = array_ops.zeros(shape, dtype=dtype)
    static_b = tensor_util.constant_value(ops.convert_to_tensor(batch_size))
    static_s = size if isinstance(size, int) else tensor_util.constant_value(ops.convert_to_tensor(size))
    z.set_shape(TensorShape([None if static_b is None else int(static_b),
                             None if static_s is None else int(static_s)]))
    return z


def _prepare_memory(memory, memory_sequence_length, check_inner_dims_defined):
    """Converts the memory to tensors and zeroes each batch entry's steps past its length."""
    memory = nest.map_structure(lambda m: ops.convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None:
        memory_sequence_length = ops.convert_to_tensor(memory_sequence_length, name="memory_sequence_length")
    if check_inner_dims_defined:
        def _check_dims(m):
            if not m.shape[2:].is_fully_defined():
                raise ValueError("Expected memory %s to have fully defined inner dims, but saw shape: %s"
                                 % (m.name, m.shape))
        nest.map_structure(_check_dims, memory)
    if memory_sequence_length is None:
        seq_len_mask = None
    else:
        first = nest.flatten(memory)[0]
        seq_len_mask = array_ops.sequence_mask(memory_sequence_length, maxlen=array_ops.shape(first)[1],
                                               dtype=first.dtype)
        seq_len_batch_size = (dimension_value(memory_sequence_length.shape[0])
                              or array_ops.shape(memory_sequence_length)[0])

    def _maybe_mask(m):
        if seq_len_mask is None:
            return m
        rank = m.shape.ndims
        rank = rank if rank is not None else array_ops.rank(m)
        extra_ones = array_ops.ones(array_ops.reshape(rank - 2, [1]), dtype=dtypes.int32)
        m_batch_size = dimension_value(m.shape[0]) or array_ops.shape(m)[0]
        message = "memory_sequence_length and memory tensor batch sizes do not match."
        with ops.control_dependencies([check_ops.assert_equal(seq_len_batch_size, m_batch_size, message=message)]):
            mask = array_ops.reshape(seq_len_mask, array_ops.concat((array_ops.shape(seq_len_mask), extra_ones), 0))
            return m * mask

    return nest.map_structure(_maybe_mask, memory)


def _maybe_mask_score(score, memory_sequence_length, score_mask_value):
    if memory_sequence_length is None:
        return score
    message = "All values in memory_sequence_length must greater than zero."
    with ops.control_dependencies([check_ops.assert_positive(memory_sequence_length, message=message)]):
        score_mask = array_ops.sequence_mask(memory_sequence_length, maxlen=array_ops.shape(score)[1])
        score_mask_values = score_mask_value * core_ops.ones_like(score)
        return array_ops.where(score_mask, score, score_mask_values)


class _BaseAttentionMechanism(AttentionMechanism):
    """The memory, keys and masking shared by the attention mechanisms; calling one scores the
    query (`_score`) in a fresh variable scope named `_score_scope`."""

    _score_scope = None

    def __init__(self, query_layer, memory, probability_fn, memory_sequence_length=None, memory_layer=None,
                 check_inner_dims_defined=True, score_mask_value=None, custom_key_value_fn=None, name=None):
        if query_layer is not None and not isinstance(query_layer, Layer):
            raise TypeError("query_layer is not a Layer: %s" % type(query_layer).__name__)
        if memory_layer is not None and not isinstance(memory_layer, Layer):
            raise TypeError("memory_layer is not a Layer: %s" % type(memory_layer).__name__)
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype
        if not callable(probability_fn):
            raise TypeError("probability_fn must be callable, saw type: %s" % type(probability_fn).__name__)
        if score_mask_value is None:
            score_mask_value = dtypes.as_dtype(self._memory_layer.dtype).as_numpy_dtype(-np.inf)
        if memory_sequence_length is not None:
            memory_sequence_length = ops.convert_to_tensor(memory_sequence_length, name="memory_sequence_length")
        self._probability_fn = lambda score, prev: probability_fn(
            _maybe_mask_score(score, memory_sequence_length, score_mask_value), prev)
        with ops.name_scope(name, "BaseAttentionMechanismInit", nest.flatten(memory)):
            self._values = _prepare_memory(memory, memory_sequence_length,
                                           check_inner_dims_defined=check_inner_dims_defined)
            self._keys = self.memory_layer(self._values) if self.memory_layer else self._values
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = dimension_value(self._keys.shape[0]) or array_ops.shape(self._keys)[0]
            self._alignments_size = dimension_value(self._keys.shape[1]) or array_ops.shape(self._keys)[1]

    @property
    def memory_layer(self):
        return self._memory_layer

    @property
    def query_layer(self):
        return self._query_layer

    @property
    def values(self):
        return self._values

    @property
    def keys(self):
        return self._keys

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def alignments_size(self):
        return self._alignments_size

    @property
    def state_size(self):
        return self._alignments_size

    def __call__(self, query, state):
        """Score the query based on the keys and values.

        Args:
          query: Tensor of dtype matching `self.values` and shape `[batch_size, query_depth]`.
          state: Tensor of dtype matching `self.values` and shape `[batch_size, alignments_size]`
            (the previous alignments; `alignments_size` is memory's `max_time`).

        Returns:
          `(alignments, next_state)`: the alignments `[batch_size, alignments_size]` and the same.
        """
        with vs.variable_scope(None, self._score_scope, [query]):
            score = self._score(query)
        alignments = self._probability_fn(score, state)
        return alignments, alignments

    def _score(self, query):
        """The `[batch_size, alignments_size]` scores of `query` (in the subclass's `_score_scope`)."""
        raise NotImplementedError

    def initial_alignments(self, batch_size, dtype):
        """Creates the initial alignment values (zeros `[batch_size, alignments_size]`).

        Args:
          batch_size: `int32` scalar, the batch_size.
          dtype: The `dtype`.

        Returns:
          A `dtype` tensor shaped `[batch_size, alignments_size]`.
        """
        return _zeros(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size, dtype):
        """Creates the initial state values (the initial alignments).

        Args:
          batch_size: `int32` scalar, the batch_size.
          dtype: The `dtype`.

        Returns:
          A structure of all-zero tensors with shapes as described by `state_size`.
        """
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query, keys, scale):
    depth = query.shape[-1]
    key_units = keys.shape[-1]
    if (dimension_value(depth) is not None and dimension_value(key_units) is not None
            and dimension_value(depth) != dimension_value(key_units)):
        raise ValueError(
            "Incompatible or unknown inner dimensions between query and keys.  Query (%s) has units: %s.  Keys (%s)"
            " have units: %s.  Perhaps you need to set num_units to the keys' dimension (%s)?"
            % (query, depth, keys, key_units, key_units))
    dtype = query.dtype
    query = array_ops.expand_dims(query, 1)
    score = math_ops.matmul(query, keys, transpose_b=True)
    score = array_ops.squeeze(score, [1])
    if scale:
        g = vs.get_variable("attention_g", dtype=dtype, initializer=init_ops.ones_initializer(), shape=())
        score = g * score
    return score


class LuongAttention(_BaseAttentionMechanism):
    """Implements Luong-style (multiplicative) attention scoring.

    The score of each memory step is `query . key` (`keys = memory_layer(memory)`), times a
    learned scalar `g` (initialized to 1) when `scale`; the alignments are `probability_fn` of the
    scores, with the steps past `memory_sequence_length` set to `score_mask_value` first.

    Args:
      num_units: The depth of the attention mechanism (must equal the query's depth).
      memory: The memory to query; usually the output of an RNN encoder `[batch_size, max_time,
        ...]`.
      memory_sequence_length: (optional) Sequence lengths for the batch entries in memory.
      scale: Python boolean. Whether to scale the energy term.
      probability_fn: (optional) A `callable`. Converts the score to probabilities. The default is
        `tf.nn.softmax`. Other options include `tf.contrib.seq2seq.hardmax` and
        `tf.contrib.sparsemax.sparsemax`. Its signature should be: `probabilities = probability_fn(score)`.
      score_mask_value: (optional) The mask value for score before passing into `probability_fn`.
        The default is -inf. Only used if `memory_sequence_length` is not None.
      dtype: The data type for the memory layer of the attention mechanism.
      custom_key_value_fn: (optional) The custom function for computing keys and values.
      name: Name to use when creating ops.
    """

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False, probability_fn=None,
                 score_mask_value=None, dtype=None, custom_key_value_fn=None, name="LuongAttention"):
        if probability_fn is None:
            probability_fn = nn_ops.softmax
        if dtype is None:
            dtype = dtypes.float32
        super().__init__(query_layer=None,
                         memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
                         memory=memory, probability_fn=lambda score, _: probability_fn(score),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
                         custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name

    _score_scope = "luong_attention"

    def _score(self, query):
        return _luong_score(query, self._keys, self._scale)


def _bahdanau_score(processed_query, keys, normalize):
    dtype = processed_query.dtype
    num_units = dimension_value(keys.shape[2]) or array_ops.shape(keys)[2]
    processed_query = array_ops.expand_dims(processed_query, 1)
    v = vs.get_variable("attention_v", [num_units], dtype=dtype)
    if normalize:
        g = vs.get_variable("attention_g", dtype=dtype, initializer=init_ops.constant_initializer(
            math.sqrt(1.0 / num_units)), shape=())
        b = vs.get_variable("attention_b", [num_units], dtype=dtype, initializer=init_ops.zeros_initializer())
        normed_v = g * v * math_ops.rsqrt(math_ops.reduce_sum(math_ops.square(v)))
        return math_ops.reduce_sum(normed_v * math_ops.tanh(keys + processed_query + b), [2])
    return math_ops.reduce_sum(v * math_ops.tanh(keys + processed_query), [2])


class BahdanauAttention(_BaseAttentionMechanism):
    """Implements Bahdanau-style (additive) attention.

    The score of each memory step is `v . tanh(key + query_layer(query))`; with `normalize`, the
    weight-normalized form `g * v / ||v|| . tanh(key + query_layer(query) + b)` (Salimans and
    Kingma, 2016). The alignments are `probability_fn` of the scores, with the steps past
    `memory_sequence_length` set to `score_mask_value` first.

    Args:
      num_units: The depth of the query mechanism.
      memory: The memory to query; usually the output of an RNN encoder `[batch_size, max_time,
        ...]`.
      memory_sequence_length: (optional) Sequence lengths for the batch entries in memory.
      normalize: Python boolean. Whether to normalize the energy term.
      probability_fn: (optional) A `callable`. Converts the score to probabilities. The default is
        `tf.nn.softmax`.
      score_mask_value: (optional): The mask value for score before passing into `probability_fn`.
        The default is -inf. Only used if `memory_sequence_length` is not None.
      dtype: The data type for the query and memory layers of the attention mechanism.
      custom_key_value_fn: (optional) The custom function for computing keys and values.
      name: Name to use when creating ops.
    """

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False, probability_fn=None,
                 score_mask_value=None, dtype=None, custom_key_value_fn=None, name="BahdanauAttention"):
        if probability_fn is None:
            probability_fn = nn_ops.softmax
        if dtype is None:
            dtype = dtypes.float32
        super().__init__(query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
                         memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
                         memory=memory, probability_fn=lambda score, _: probability_fn(score),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
                         custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    _score_scope = "bahdanau_attention"

    def _score(self, query):
        processed_query = self.query_layer(query) if self.query_layer else query
        return _bahdanau_score(processed_query, self._keys, self._normalize)


def safe_cumprod(x, *args, **kwargs):
    """Computes cumprod of x in logspace using cumsum to avoid underflow.

    The cumprod function and its gradient can result in numerical instabilities when its argument
    has very small and/or zero values. As long as the argument is all positive, we can instead
    compute the cumulative product as exp(cumsum(log(x))) (`x` clipped to [tiny, 1] first).

    Args:
      x: Tensor to take the cumulative product of.
      *args: Passed on to cumsum; these are identical to those in cumprod.
      **kwargs: Passed on to cumsum; these are identical to those in cumprod.

    Returns:
      Cumulative product of x.
    """
    with ops.name_scope(None, "SafeCumprod", [x]):
        x = ops.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return math_ops.exp(math_ops.cumsum(math_ops.log(clip_ops.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i, previous_attention, mode):
    """Compute monotonic attention distribution from choosing probabilities.

    Monotonic attention implies that the input sequence is processed in an explicitly
    left-to-right manner when generating the output sequence: `attention[i] = p_choose_i[i] *
    q[i]` with `q[i] = (1 - p_choose_i[i - 1]) * q[i - 1] + previous_attention[i]`.

    Args:
      p_choose_i: Probability of choosing input sequence/memory element i. Should be of shape
        (batch_size, input_sequence_length), and should all be in the range [0, 1].
      previous_attention: The attention distribution from the previous output timestep. Should be
        of shape (batch_size, input_sequence_length). For the first output timestep,
        previous_attention[n] should be [1, 0, 0, ..., 0] for all n in [0, ... batch_size - 1].
      mode: How to compute the attention distribution. Must be one of 'recursive', 'parallel', or
        'hard'.
        * 'recursive' uses tf.scan to recursively compute the distribution. This is slowest but
          is exact, general, and does not suffer from numerical instabilities.
        * 'parallel' uses parallelized cumulative-sum and cumulative-product operations to compute
          a closed-form solution to the recurrence relation defining the attention distribution.
          This makes it more efficient than 'recursive', but it requires numerical checks which
          make the distribution non-exact. This can be a problem in particular when
          input_sequence_length is long and/or p_choose_i has entries very close to 0 or 1.
        * 'hard' requires that the probabilities in p_choose_i are all either 0 or 1, and
          subsequently uses a more efficient and exact solution.

    Returns:
      A tensor of shape (batch_size, input_sequence_length) representing the attention
      distributions for each sequence in the batch.

    Raises:
      ValueError: mode is not one of 'recursive', 'parallel', 'hard'.
    """
    p_choose_i = ops.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = ops.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        batch_size = dimension_value(p_choose_i.shape[0]) or array_ops.shape(p_choose_i)[0]
        shape = array_ops.reshape(batch_size, [1])
        ones = array_ops.ones(array_ops.stack([batch_size, 1]), dtype=p_choose_i.dtype)
        shifted_1mp_choose_i = array_ops.concat([ones, 1 - p_choose_i[:, :-1]], 1)
        attention = p_choose_i * array_ops.transpose(scan(
            lambda x, yz: array_ops.reshape(yz[0] * x + yz[1], shape),
            [array_ops.transpose(shifted_1mp_choose_i), array_ops.transpose(previous_attention)],
            array_ops.zeros(shape, dtype=p_choose_i.dtype)))
    elif mode == "parallel":
        cumprod_1mp_choose_i = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        attention = p_choose_i * cumprod_1mp_choose_i * math_ops.cumsum(
            previous_attention / clip_ops.clip_by_value(cumprod_1mp_choose_i, 1e-10, 1.), axis=1)
    elif mode == "hard":
        p_choose_i *= math_ops.cumsum(previous_attention, axis=1)
        attention = p_choose_i * math_ops.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    else:
        raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")
    return attention


def _monotonic_probability_fn(score, previous_alignments, sigmoid_noise, mode, seed=None):
    """Attention probability function for monotonic attention (optional pre-sigmoid noise)."""
    if sigmoid_noise > 0:
        noise = random_ops.random_normal(array_ops.shape(score), dtype=score.dtype, seed=seed)
        score += sigmoid_noise * noise
    if mode == "hard":
        p_choose_i = math_ops.cast(score > 0, score.dtype)
    else:
        p_choose_i = math_ops.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


def _monotonic_probability(sigmoid_noise, mode, seed):
    """The `probability_fn(score, previous_alignments)` of the monotonic attention mechanisms."""
    return functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise, mode=mode, seed=seed)


def _score_bias(dtype, score_bias_init):
    """The learned scalar "attention_score_bias" added to the monotonic attention scores."""
    return vs.get_variable("attention_score_bias", shape=(), dtype=dtype,
                           initializer=init_ops.constant_initializer(score_bias_init))


class _BaseMonotonicAttentionMechanism(_BaseAttentionMechanism):
    """Base attention mechanism for monotonic attention: the initial alignments put all the
    attention on the first memory entry."""

    def initial_alignments(self, batch_size, dtype):
        """Creates the initial alignment values: one-hot on memory entry 0.

        Args:
          batch_size: `int32` scalar, the batch_size.
          dtype: The `dtype`.

        Returns:
          A `dtype` tensor shaped `[batch_size, alignments_size]`.
        """
        max_time = self._alignments_size
        return array_ops.one_hot(array_ops.zeros(array_ops.reshape(batch_size, [1]), dtype=dtypes.int32), max_time,
                                 dtype=dtype)


class BahdanauMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic attention mechanism with Bahadanau-style energy function.

    The score is `_bahdanau_score` plus a learned scalar bias `attention_score_bias`; the
    alignments are `monotonic_attention(sigmoid(score), previous alignments, mode)` (Raffel et
    al., 2017, https://arxiv.org/abs/1704.00784).

    Args:
      num_units: The depth of the query mechanism.
      memory: The memory to query; usually the output of an RNN encoder `[batch_size, max_time,
        ...]`.
      memory_sequence_length: (optional) Sequence lengths for the batch entries in memory.
      normalize: Python boolean. Whether to normalize the energy term.
      score_mask_value: (optional): The mask value for score before passing into `probability_fn`.
        The default is -inf. Only used if `memory_sequence_length` is not None.
      sigmoid_noise: Standard deviation of pre-sigmoid noise. See the docstring for
        `_monotonic_probability_fn` for more information.
      sigmoid_noise_seed: (optional) Random seed for pre-sigmoid noise.
      score_bias_init: Initial value for score bias scalar. It's recommended to initialize this
        to a negative value when the length of the memory is large.
      mode: How to compute the attention distribution. Must be one of 'recursive', 'parallel', or
        'hard'. See the docstring for `tf.contrib.seq2seq.monotonic_attention` for more
        information.
      dtype: The data type for the query and memory layers of the attention mechanism.
      name: Name to use when creating ops.
    """

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False, score_mask_value=None,
                 sigmoid_noise=0., sigmoid_noise_seed=None, score_bias_init=0., mode="parallel", dtype=None,
                 name="BahdanauMonotonicAttention"):
        if dtype is None:
            dtype = dtypes.float32
        super().__init__(query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
                         memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
                         memory=memory, probability_fn=_monotonic_probability(sigmoid_noise, mode, sigmoid_noise_seed),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name
        self._score_bias_init = score_bias_init

    _score_scope = "bahdanau_monotonic_attention"

    def _score(self, query):
        processed_query = self.query_layer(query) if self.query_layer else query
        score = _bahdanau_score(processed_query, self._keys, self._normalize)
        return score + _score_bias(processed_query.dtype, self._score_bias_init)


class LuongMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic attention mechanism with Luong-style energy function.

    The score is `_luong_score` plus a learned scalar bias `attention_score_bias`; the alignments
    are `monotonic_attention(sigmoid(score), previous alignments, mode)`.

    Args:
      num_units: The depth of the query mechanism.
      memory: The memory to query; usually the output of an RNN encoder `[batch_size, max_time,
        ...]`.
      memory_sequence_length: (optional) Sequence lengths for the batch entries in memory.
      scale: Python boolean. Whether to scale the energy term.
      score_mask_value: (optional): The mask value for score before passing into `probability_fn`.
        The default is -inf. Only used if `memory_sequence_length` is not None.
      sigmoid_noise: Standard deviation of pre-sigmoid noise.
      sigmoid_noise_seed: (optional) Random seed for pre-sigmoid noise.
      score_bias_init: Initial value for score bias scalar.
      mode: How to compute the attention distribution: 'recursive', 'parallel', or 'hard'.
      dtype: The data type for the memory layer of the attention mechanism.
      name: Name to use when creating ops.
    """

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False, score_mask_value=None,
                 sigmoid_noise=0., sigmoid_noise_seed=None, score_bias_init=0., mode="parallel", dtype=None,
                 name="LuongMonotonicAttention"):
        if dtype is None:
            dtype = dtypes.float32
        super().__init__(query_layer=None,
                         memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
                         memory=memory, probability_fn=_monotonic_probability(sigmoid_noise, mode, sigmoid_noise_seed),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._scale = scale
        self._score_bias_init = score_bias_init
        self._name = name

    _score_scope = "luong_monotonic_attention"

    def _score(self, query):
        return _luong_score(query, self._keys, self._scale) + _score_bias(query.dtype, self._score_bias_init)


class AttentionWrapperState(collections.namedtuple("AttentionWrapperState", (
        "cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"))):
    """`namedtuple` storing the state of an `AttentionWrapper`.

    Contains:
      - `cell_state`: The state of the wrapped `RNNCell` at the previous time step.
      - `attention`: The attention emitted at the previous time step.
      - `time`: int32 scalar containing the current time step.
      - `alignments`: A single or tuple of `Tensor`(s) containing the alignments emitted at the
        previous time step for each attention mechanism.
      - `alignment_history`: (if enabled) a single or tuple of `TensorArray`(s) containing
        alignment matrices from all time steps for each attention mechanism. Call `stack()` on
        each to convert to a `Tensor`.
      - `attention_state`: A single or tuple of nested objects containing attention mechanism
        state for each attention mechanism.
    """

    def clone(self, **kwargs):
        """Clone this object, overriding components provided by kwargs.

        The new state fields' shape must match original state fields' shape (the static shapes
        are merged).

        Example:

        ```python
        initial_state = attention_wrapper.zero_state(dtype=..., batch_size=...)
        initial_state = initial_state.clone(cell_state=encoder_state)
        ```

        Args:
          **kwargs: Any properties of the state object to replace in the returned
            `AttentionWrapperState`.

        Returns:
          A new `AttentionWrapperState` whose properties are the same as this one, except any
          overridden properties as provided in `kwargs`.

        Raises:
          ValueError: If a new tensor's static shape is incompatible with the old one.
        """
        def with_same_shape(old, new):
            if ops.is_tensor(old) and ops.is_tensor(new):
                new.set_shape(old.shape)
            return new

        return nest.map_structure(with_same_shape, self, super()._replace(**kwargs))


def hardmax(logits, name=None):
    """Returns batched one-hot vectors.

    The depth index containing the `1` is that of the maximum logit value (the first one on ties).

    Args:
      logits: A batch tensor of logit values.
      name: Name to use when creating ops.

    Returns:
      A batched one-hot tensor of the dtype of `logits`.
    """
    with ops.name_scope(name, "Hardmax", [logits]):
        logits = ops.convert_to_tensor(logits, name="logits")
        depth = dimension_value(logits.shape[-1])
        if depth is None:
            depth = array_ops.shape(logits)[-1]
        return array_ops.one_hot(math_ops.argmax(logits, -1), depth, dtype=logits.dtype)


def _compute_attention(attention_mechanism, cell_output, attention_state, attention_layer):
    """Computes the attention and alignments for a given attention_mechanism."""
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    expanded_alignments = array_ops.expand_dims(alignments, 1)
    context_ = math_ops.matmul(expanded_alignments, attention_mechanism.values)
    context_ = array_ops.squeeze(context_, [1])
    if attention_layer is not None:
        attention = attention_layer(array_ops.concat([cell_output, context_], 1))
    else:
        attention = context_
    return attention, alignments, next_attention_state


class AttentionWrapper(RNNCell):
    """Wraps another `RNNCell` with attention.

    At each step the cell's input is `cell_input_fn(inputs, previous attention)` (default: their
    concatenation); the cell's output queries every attention mechanism; each one's context (the
    alignment-weighted sum of its memory values) goes through its attention layer, if any, as
    `attention_layer([cell_output, context])`; the attention is their concatenation.

    Args:
      cell: An instance of `RNNCell`.
      attention_mechanism: A list of `AttentionMechanism` instances or a single instance.
      attention_layer_size: A list of Python integers or a single Python integer, the depth of the
        attention (output) layer(s). If None (default), use the context as attention at each time
        step. Otherwise, feed the context and cell output into the attention layer to generate
        attention at each time step.
      alignment_history: Python boolean, whether to store alignment history from all time steps in
        the final output state (currently stored as a time major `TensorArray` on which you must
        call `stack()`).
      cell_input_fn: (optional) A `callable` `(inputs, attention) -> cell inputs`.
      output_attention: Python bool. If `True` (default), the output at each time step is the
        attention value (Luong-style). If `False`, the output is the output of `cell`
        (Bahdanau-style).
      initial_cell_state: The initial state value to use for the cell when the user calls
        `zero_state()`.
      name: Name to use when creating ops.
      attention_layer: A list of `tf.layers.Layer` instances or a single instance that takes the
        cell output and context and produces the attention; exclusive with `attention_layer_size`.
      attention_fn: An optional callable `(attention_mechanism, cell_output, attention_state,
        attention_layer) -> (attention, alignments, next_attention_state)`.

    Raises:
      TypeError: `attention_layer_size` is not None and (`attention_mechanism` is a list but
        `attention_layer_size` is not; or vice versa), or a mechanism is not an
        `AttentionMechanism`.
      ValueError: if `attention_layer_size` is not None, `attention_mechanism` is a list, and its
        length does not match that of `attention_layer_size`; if `attention_layer_size` and
        `attention_layer` are set simultaneously.
    """

    def __init__(self, cell, attention_mechanism, attention_layer_size=None, alignment_history=False,
                 cell_input_fn=None, output_attention=True, initial_cell_state=None, name=None, attention_layer=None,
                 attention_fn=None):
        super().__init__(name=name)
        assert_like_rnncell("cell", cell)
        if isinstance(attention_mechanism, (list, tuple)):
            self._is_multi = True
            attention_mechanisms = tuple(attention_mechanism)
            for mechanism in attention_mechanisms:
                if not isinstance(mechanism, AttentionMechanism):
                    raise TypeError("attention_mechanism must contain only instances of AttentionMechanism, saw "
                                    "type: %s" % type(mechanism).__name__)
        else:
            self._is_multi = False
            if not isinstance(attention_mechanism, AttentionMechanism):
                raise TypeError("attention_mechanism must be an AttentionMechanism or list of multiple "
                                "AttentionMechanism instances, saw type: %s" % type(attention_mechanism).__name__)
            attention_mechanisms = (attention_mechanism,)

        if cell_input_fn is None:
            def cell_input_fn(inputs, attention):
                return array_ops.concat([inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError("cell_input_fn must be callable, saw type: %s" % type(cell_input_fn).__name__)

        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")

        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(attention_mechanisms):
                raise ValueError("If provided, attention_layer_size must contain exactly one integer per "
                                 "attention_mechanism, saw: %d vs %d" % (len(sizes), len(attention_mechanisms)))
            self._attention_layers = tuple(
                Dense(size, name="attention_layer", use_bias=False, dtype=attention_mechanisms[i].dtype)
                for i, size in enumerate(sizes))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            self._attention_layers = tuple(attention_layer if isinstance(attention_layer, (list, tuple))
                                           else (attention_layer,))
            if len(self._attention_layers) != len(attention_mechanisms):
                raise ValueError("If provided, attention_layer must contain exactly one layer per "
                                 "attention_mechanism, saw: %d vs %d"
                                 % (len(self._attention_layers), len(attention_mechanisms)))
            self._attention_layer_size = sum(
                dimension_value(TensorShape(layer.compute_output_shape(
                    TensorShape([None, cell.output_size + dimension_value(mechanism.values.shape[-1])])))[-1])
                for layer, mechanism in zip(self._attention_layers, attention_mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(dimension_value(m.values.shape[-1]) for m in attention_mechanisms)

        self._attention_fn = _compute_attention if attention_fn is None else attention_fn
        self._cell = cell
        self._attention_mechanisms = attention_mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        with ops.name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                final_state_tensor = nest.flatten(initial_cell_state)[-1]
                state_batch_size = (dimension_value(final_state_tensor.shape[0])
                                    or array_ops.shape(final_state_tensor)[0])
                error_message = (
                    "When constructing AttentionWrapper %s: " % self.name
                    + "Non-matching batch sizes between the memory (encoder output) and initial_cell_state.  Are you "
                    "using the BeamSearchDecoder?  You may need to tile your initial state via the "
                    "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.")
                with ops.control_dependencies(self._batch_size_checks(state_batch_size, error_message)):
                    self._initial_cell_state = nest.map_structure(
                        lambda s: core_ops.identity(s, name="check_initial_cell_state"), initial_cell_state)

    def _batch_size_checks(self, batch_size, error_message):
        return [check_ops.assert_equal(batch_size, m.batch_size, message=error_message)
                for m in self._attention_mechanisms]

    def _item_or_tuple(self, seq):
        t = tuple(seq)
        return t if self._is_multi else t[0]

    @property
    def output_size(self):
        if self._output_attention:
            return self._attention_layer_size
        return self._cell.output_size

    @property
    def state_size(self):
        """The `state_size` property of `AttentionWrapper`: an `AttentionWrapperState` of sizes."""
        return AttentionWrapperState(
            cell_state=self._cell.state_size,
            time=TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(a.alignments_size for a in self._attention_mechanisms),
            attention_state=self._item_or_tuple(a.state_size for a in self._attention_mechanisms),
            alignment_history=self._item_or_tuple(a.alignments_size if self._alignment_history else ()
                                                  for a in self._attention_mechanisms))

    def zero_state(self, batch_size, dtype):
        """Return an initial (zero) state tuple for this `AttentionWrapper`.

        **NOTE** Please see the initializer documentation for details of how to call `zero_state`
        if using an `AttentionWrapper` with a `BeamSearchDecoder`.

        Args:
          batch_size: `0D` integer tensor: the batch size.
          dtype: The internal state data type.

        Returns:
          An `AttentionWrapperState` tuple containing zeroed out tensors and, possibly, empty
          `TensorArray` objects.

        Raises:
          InvalidArgumentError: At run time, if `batch_size` does not match the memory's batch size.
        """
        with ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            error_message = (
                "When calling zero_state of AttentionWrapper %s: " % self.name
                + "Non-matching batch sizes between the memory (encoder output) and the requested batch size.  Are "
                "you using the BeamSearchDecoder?  If so, make sure your encoder output has been tiled to beam_width "
                "via tf.contrib.seq2seq.tile_batch, and the batch_size= argument passed to zero_state is "
                "batch_size * beam_width.")
            with ops.control_dependencies(self._batch_size_checks(batch_size, error_message)):
                cell_state = nest.map_structure(lambda s: core_ops.identity(s, name="checked_cell_state"),
                                                cell_state)
            initial_alignments = [m.initial_alignments(batch_size, dtype) for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state,
                time=array_ops.zeros([], dtype=dtypes.int32),
                attention=_zeros(self._attention_layer_size, batch_size, dtype),
                alignments=self._item_or_tuple(initial_alignments),
                attention_state=self._item_or_tuple(m.initial_state(batch_size, dtype)
                                                    for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    TensorArray(dtype, size=0, dynamic_size=True, element_shape=alignment.shape)
                    if self._alignment_history else () for alignment in initial_alignments))

    def call(self, inputs, state):
        """Perform a step of attention-wrapped RNN.

        Args:
          inputs: (Possibly nested tuple of) Tensor, the input at this time step.
          state: An instance of `AttentionWrapperState` containing tensors from the previous time
            step.

        Returns:
          A tuple `(attention_or_cell_output, next_state)`.

        Raises:
          TypeError: If `state` is not an instance of `AttentionWrapperState`.
        """
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be instance of AttentionWrapperState. Received type %s instead."
                            % type(state))
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_state = state.cell_state
        cell_output, next_cell_state = self._cell(cell_inputs, cell_state)

        cell_batch_size = dimension_value(cell_output.shape[0]) or array_ops.shape(cell_output)[0]
        error_message = (
            "When applying AttentionWrapper %s: " % self.name
            + "Non-matching batch sizes between the memory (encoder output) and the query (decoder output).  Are you "
            "using the BeamSearchDecoder?  You may need to tile your memory input via the "
            "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.")
        with ops.control_dependencies(self._batch_size_checks(cell_batch_size, error_message)):
            cell_output = core_ops.identity(cell_output, name="checked_cell_output")

        if self._is_multi:
            previous_attention_state = state.attention_state
            previous_alignment_history = state.alignment_history
        else:
            previous_attention_state = [state.attention_state]
            previous_alignment_history = [state.alignment_history]

        all_alignments, all_attentions, all_attention_states, maybe_all_histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_attention_state[i],
                self._attention_layers[i] if self._attention_layers else None)
            alignment_history = (previous_alignment_history[i].write(state.time, alignments)
                                 if self._alignment_history else ())
            all_attention_states.append(next_attention_state)
            all_alignments.append(alignments)
            all_attentions.append(attention)
            maybe_all_histories.append(alignment_history)

        attention = array_ops.concat(all_attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1,
            cell_state=next_cell_state,
            attention=attention,
            attention_state=self._item_or_tuple(all_attention_states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(maybe_all_histories))
        if self._output_attention:
            return attention, next_state
        return cell_output, next_state


