"""The decoding helpers of `tf.contrib.seq2seq` (TF 1.15's `helper.py`): how a `BasicDecoder` picks
each step's sample ids and next inputs (teacher forcing, greedy, sampled, scheduled sampling, or
user functions)."""

import abc

from ...framework import dtypes, ops
from ...framework.tensor_shape import TensorShape
from ...ops import array_ops, core_ops, embedding_ops, math_ops, nest, random_ops
from ...ops.array_shape_ops import range as _range
from ...ops.control_flow_ops import cond
from ...ops.tensor_array_ops import TensorArray

__all__ = ["Helper", "CustomHelper", "TrainingHelper", "GreedyEmbeddingHelper", "SampleEmbeddingHelper",
           "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper", "InferenceHelper"]


def _transpose_batch_time(x):
    """Swaps the first two dimensions of `x` (rank >= 2)."""
    x = ops.convert_to_tensor(x)
    ndims = x.shape.ndims
    if ndims is not None and ndims < 2:
        raise ValueError("Expected input tensor %s to have rank at least 2, but saw shape: %s" % (x, x.shape))
    if ndims is None:
        rank = array_ops.rank(x)
        perm = array_ops.concat(([1, 0], math_ops.cast(_range(2, rank), dtypes.int32)), 0)
        return array_ops.transpose(x, perm)
    out = array_ops.transpose(x, [1, 0] + list(range(2, ndims)))
    out.set_shape(TensorShape([x.shape[1], x.shape[0]]).concatenate(x.shape[2:]))
    return out


def _unstack_ta(inp):
    return TensorArray(dtype=inp.dtype, size=array_ops.shape(inp)[0], element_shape=inp.shape[1:]).unstack(inp)


def _embedding_fn(embedding):
    if callable(embedding):
        return embedding
    return lambda ids: embedding_ops.embedding_lookup(embedding, ids)


def _categorical_sample(logits, seed=None):
    """One sample id per row of `logits` `[batch, classes]` (int32), as TF's `categorical_sample`."""
    logits = ops.convert_to_tensor(logits, name="logits")
    event_size = array_ops.shape(logits)[-1]
    batch_shape = array_ops.shape(logits)[:-1]
    logits_2d = array_ops.reshape(logits, array_ops.stack([math_ops.reduce_prod(batch_shape), event_size]))
    ids = random_ops.multinomial(logits_2d, 1, seed=seed, output_dtype=dtypes.int32)
    out = array_ops.reshape(ids, batch_shape)
    out.set_shape(logits.shape[:-1])
    return out


def _bernoulli_sample(probs, batch_size, seed=None):
    """`batch_size` booleans, each True with probability `probs` (a scalar or a `[batch_size]`
    vector), as `Bernoulli(probs).sample` (`uniform < probs`)."""
    uniform = random_ops.random_uniform(array_ops.reshape(batch_size, [1]), seed=seed, dtype=probs.dtype)
    return math_ops.less(uniform, probs)


class Helper(abc.ABC):
    """Interface for implementing sampling in seq2seq decoders (`tf.contrib.seq2seq.Helper`).

    Helper instances are used by `BasicDecoder`.
    """

    @property
    @abc.abstractmethod
    def batch_size(self):
        """Batch size of tensor returned by `sample`: a scalar int32 tensor."""

    @property
    @abc.abstractmethod
    def sample_ids_shape(self):
        """Shape of tensor returned by `sample`, excluding the batch dimension (a `TensorShape`)."""

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self):
        """DType of tensor returned by `sample`."""

    @abc.abstractmethod
    def initialize(self, name=None):
        """Returns `(initial_finished, initial_inputs)`."""

    @abc.abstractmethod
    def sample(self, time, outputs, state, name=None):
        """Returns `sample_ids`."""

    @abc.abstractmethod
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        """Returns `(finished, next_inputs, next_state)`."""


class CustomHelper(Helper):
    """Base abstract class that allows the user to customize sampling.

    Args:
      initialize_fn: callable that returns `(finished, next_inputs)` for the first iteration.
      sample_fn: callable that takes `(time, outputs, state)` and emits tensor `sample_ids`.
      next_inputs_fn: callable that takes `(time, outputs, state, sample_ids)` and emits
        `(finished, next_inputs, next_state)`.
      sample_ids_shape: Either a list of integers, or a 1-D Tensor of type `int32`, the shape of
        each value in the `sample_ids` batch. Defaults to a scalar.
      sample_ids_dtype: The dtype of the `sample_ids` tensor. Defaults to int32.
    """

    def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None, sample_ids_dtype=None):
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = dtypes.as_dtype(sample_ids_dtype or dtypes.int32)

    @property
    def batch_size(self):
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_ids_dtype

    def initialize(self, name=None):
        with ops.name_scope(name, "%sInitialize" % type(self).__name__):
            (finished, next_inputs) = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = array_ops.size(finished)
        return (finished, next_inputs)

    def sample(self, time, outputs, state, name=None):
        with ops.name_scope(name, "%sSample" % type(self).__name__, (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with ops.name_scope(name, "%sNextInputs" % type(self).__name__, (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state, sample_ids=sample_ids)


class _Int32SampleIdsHelper(Helper):
    """A helper whose `sample` gives one int32 id per batch entry, `self._batch_size` of them."""

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return TensorShape([])

    @property
    def sample_ids_dtype(self):
        return dtypes.int32


class TrainingHelper(_Int32SampleIdsHelper):
    """A helper for use during training. Only reads inputs (teacher forcing).

    Returned sample_ids are the argmax of the RNN output logits.

    Args:
      inputs: A (structure of) input tensors, `[batch_size, max_time, ...]` (or time major).
      sequence_length: An int32 vector tensor `[batch_size]`.
      time_major: Python bool. Whether the tensors in `inputs` are time major.
      name: Name scope for any created operations.

    Raises:
      ValueError: if `sequence_length` is not a 1D tensor.
    """

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with ops.name_scope(name, "TrainingHelper", nest.flatten(inputs) + [sequence_length]):
            inputs = nest.map_structure(lambda inp: ops.convert_to_tensor(inp, name="inputs"), inputs)
            self._inputs = inputs
            if not time_major:
                inputs = nest.map_structure(_transpose_batch_time, inputs)
            self._input_tas = nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = ops.convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.shape.ndims != 1:
                raise ValueError("Expected sequence_length to be a vector, but received shape: %s"
                                 % self._sequence_length.shape)
            self._zero_inputs = nest.map_structure(lambda inp: core_ops.zeros_like(inp[0, :]), inputs)
            self._batch_size = array_ops.size(sequence_length)

    @property
    def inputs(self):
        return self._inputs

    @property
    def sequence_length(self):
        return self._sequence_length

    def initialize(self, name=None):
        with ops.name_scope(name, "TrainingHelperInitialize"):
            finished = math_ops.equal(0, self._sequence_length)
            all_finished = math_ops.reduce_all(finished)
            next_inputs = cond(all_finished, lambda: self._zero_inputs,
                               lambda: nest.map_structure(lambda inp: inp.read(0), self._input_tas))
            return (finished, next_inputs)

    def sample(self, time, outputs, name=None, **unused_kwargs):
        with ops.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return math_ops.cast(math_ops.argmax(outputs, axis=-1), dtypes.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        with ops.name_scope(name, "TrainingHelperNextInputs", [time, outputs]):
            next_time = time + 1
            finished = (next_time >= self._sequence_length)
            all_finished = math_ops.reduce_all(finished)
            next_inputs = cond(all_finished, lambda: self._zero_inputs,
                               lambda: nest.map_structure(lambda inp: inp.read(next_time), self._input_tas))
            return (finished, next_inputs, state)


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """A training helper that adds scheduled sampling.

    Returns -1s for sample_ids where no sampling took place; valid sample id values elsewhere.
    With probability `sampling_probability` (per batch entry and step) the next input is the
    embedding of an id sampled from the output logits instead of the ground truth.

    Args:
      inputs: A (structure of) input tensors.
      sequence_length: An int32 vector tensor.
      embedding: A callable that takes a vector tensor of `ids` (argmax ids), or the `params`
        argument for `embedding_lookup`.
      sampling_probability: A 0D or 1D `float32` tensor: the probability of sampling categorically
        from the output ids instead of reading directly from the inputs.
      time_major: Python bool. Whether the tensors in `inputs` are time major.
      seed: The sampling seed.
      scheduling_seed: The schedule decision rule sampling seed.
      name: Name scope for any created operations.

    Raises:
      ValueError: if `sampling_probability` is not a scalar or vector.
    """

    def __init__(self, inputs, sequence_length, embedding, sampling_probability, time_major=False, seed=None,
                 scheduling_seed=None, name=None):
        with ops.name_scope(name, "ScheduledEmbeddingSamplingWrapper", [embedding, sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = ops.convert_to_tensor(sampling_probability, name="sampling_probability")
            if self._sampling_probability.shape.ndims not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. saw shape: %s"
                                 % self._sampling_probability.shape)
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length, time_major=time_major, name=name)

    def initialize(self, name=None):
        return super().initialize(name=name)

    def sample(self, time, outputs, state, name=None):
        with ops.name_scope(name, "ScheduledEmbeddingTrainingHelperSample", [time, outputs]):
            select_sample = _bernoulli_sample(self._sampling_probability, self.batch_size, seed=self._scheduling_seed)
            return array_ops.where(select_sample, _categorical_sample(outputs, seed=self._seed),
                                   array_ops.fill(array_ops.reshape(self.batch_size, [1]), -1))

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with ops.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs", [time, outputs]):
            (finished, base_next_inputs, state) = super().next_inputs(time=time, outputs=outputs, state=state,
                                                                      sample_ids=sample_ids, name=name)

            def maybe_sample():
                where_sampling = math_ops.cast(array_ops.where(sample_ids > -1), dtypes.int32)
                where_not_sampling = math_ops.cast(array_ops.where(sample_ids <= -1), dtypes.int32)
                sample_ids_sampling = array_ops.gather_nd(sample_ids, where_sampling)
                inputs_not_sampling = array_ops.gather_nd(base_next_inputs, where_not_sampling)
                sampled_next_inputs = self._embedding_fn(sample_ids_sampling)
                base_shape = array_ops.shape(base_next_inputs)
                return (array_ops.scatter_nd(indices=where_sampling, updates=sampled_next_inputs, shape=base_shape)
                        + array_ops.scatter_nd(indices=where_not_sampling, updates=inputs_not_sampling,
                                               shape=base_shape))

            all_finished = math_ops.reduce_all(finished)
            next_inputs = cond(all_finished, lambda: base_next_inputs, maybe_sample)
            return (finished, next_inputs, state)


class ScheduledOutputTrainingHelper(TrainingHelper):
    """A training helper that adds scheduled sampling directly to outputs.

    Returns False for sample_ids where no sampling took place; True elsewhere. Where sampled, the
    next input is the RNN output itself (concatenated with `auxiliary_inputs`, or passed through
    `next_inputs_fn`).

    Args:
      inputs: A (structure) of input tensors.
      sequence_length: An int32 vector tensor.
      sampling_probability: A 0D or 1D tensor: the probability of sampling from the outputs
        instead of reading directly from the inputs.
      time_major: Python bool. Whether the tensors in `inputs` are time major.
      seed: The sampling seed.
      next_inputs_fn: (Optional) callable to apply to the RNN outputs to create the next input
        when sampling. If `None` (default), the RNN outputs will be used as the next inputs.
      auxiliary_inputs: An optional (structure of) auxiliary input tensors `[batch_size, time,
        ...]`, concatenated to the sampled outputs.
      name: Name scope for any created operations.

    Raises:
      ValueError: if `sampling_probability` is not a scalar or vector.
    """

    def __init__(self, inputs, sequence_length, sampling_probability, time_major=False, seed=None,
                 next_inputs_fn=None, auxiliary_inputs=None, name=None):
        with ops.name_scope(name, "ScheduledOutputTrainingHelper", [inputs, auxiliary_inputs, sampling_probability]):
            self._sampling_probability = ops.convert_to_tensor(sampling_probability, name="sampling_probability")
            if self._sampling_probability.shape.ndims not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. saw shape: %s"
                                 % self._sampling_probability.shape)
            if auxiliary_inputs is None:
                maybe_concatenated_inputs = inputs
            else:
                inputs = ops.convert_to_tensor(inputs, name="inputs")
                auxiliary_inputs = ops.convert_to_tensor(auxiliary_inputs, name="auxiliary_inputs")
                maybe_concatenated_inputs = array_ops.concat([inputs, auxiliary_inputs], -1)
                if not time_major:
                    auxiliary_inputs = _transpose_batch_time(auxiliary_inputs)
            self._auxiliary_input_tas = (None if auxiliary_inputs is None else _unstack_ta(auxiliary_inputs))
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(inputs=maybe_concatenated_inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def initialize(self, name=None):
        return super().initialize(name=name)

    @property
    def sample_ids_dtype(self):
        return dtypes.bool_

    def sample(self, time, outputs, state, name=None):
        with ops.name_scope(name, "ScheduledOutputTrainingHelperSample", [time, outputs, state]):
            return _bernoulli_sample(self._sampling_probability, self.batch_size, seed=self._seed)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with ops.name_scope(name, "ScheduledOutputTrainingHelperNextInputs", [time, outputs, state]):
            (finished, base_next_inputs, state) = super().next_inputs(time=time, outputs=outputs, state=state,
                                                                      sample_ids=sample_ids, name=name)
            sample_ids = math_ops.cast(sample_ids, dtypes.bool_)

            def maybe_sample():
                def maybe_concatenate_auxiliary_inputs(outputs_, indices=None):
                    if self._auxiliary_input_tas is None:
                        return outputs_
                    next_time = time + 1
                    auxiliary_inputs = self._auxiliary_input_tas.read(next_time)
                    if indices is not None:
                        auxiliary_inputs = array_ops.gather_nd(auxiliary_inputs, indices)
                    return array_ops.concat([outputs_, auxiliary_inputs], -1)

                if self._next_inputs_fn is None:
                    return array_ops.where(sample_ids, maybe_concatenate_auxiliary_inputs(outputs), base_next_inputs)
                where_sampling = math_ops.cast(array_ops.where(sample_ids), dtypes.int32)
                where_not_sampling = math_ops.cast(array_ops.where(math_ops.logical_not(sample_ids)), dtypes.int32)
                outputs_sampling = array_ops.gather_nd(outputs, where_sampling)
                inputs_not_sampling = array_ops.gather_nd(base_next_inputs, where_not_sampling)
                sampled_next_inputs = maybe_concatenate_auxiliary_inputs(self._next_inputs_fn(outputs_sampling),
                                                                         where_sampling)
                base_shape = array_ops.shape(base_next_inputs)
                return (array_ops.scatter_nd(indices=where_sampling, updates=sampled_next_inputs, shape=base_shape)
                        + array_ops.scatter_nd(indices=where_not_sampling, updates=inputs_not_sampling,
                                               shape=base_shape))

            all_finished = math_ops.reduce_all(finished)
            no_samples = math_ops.logical_not(math_ops.reduce_any(sample_ids))
            next_inputs = cond(math_ops.logical_or(all_finished, no_samples), lambda: base_next_inputs,
                               maybe_sample)
            return (finished, next_inputs, state)


class GreedyEmbeddingHelper(_Int32SampleIdsHelper):
    """A helper for use during inference.

    Uses the argmax of the output (treated as logits) and passes the result through an embedding
    layer to get the next input.

    Args:
      embedding: A callable that takes a vector tensor of `ids` (argmax ids), or the `params`
        argument for `embedding_lookup`. The returned tensor will be passed to the decoder input.
      start_tokens: `int32` vector shaped `[batch_size]`, the start tokens.
      end_token: `int32` scalar, the token that marks end of decoding.

    Raises:
      ValueError: if `start_tokens` is not a 1D tensor or `end_token` is not a scalar.
    """

    def __init__(self, embedding, start_tokens, end_token):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = ops.convert_to_tensor(start_tokens, dtype=dtypes.int32, name="start_tokens")
        self._end_token = ops.convert_to_tensor(end_token, dtype=dtypes.int32, name="end_token")
        if self._start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = array_ops.size(self._start_tokens)
        if self._end_token.shape.ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    def initialize(self, name=None):
        finished = array_ops.tile([False], array_ops.reshape(self._batch_size, [1]))
        return (finished, self._start_inputs)

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not ops.is_tensor(outputs):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        return math_ops.argmax(outputs, axis=-1, output_type=dtypes.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        finished = math_ops.equal(sample_ids, self._end_token)
        all_finished = math_ops.reduce_all(finished)
        next_inputs = cond(all_finished, lambda: self._start_inputs, lambda: self._embedding_fn(sample_ids))
        return (finished, next_inputs, state)


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """A helper for use during inference.

    Uses sampling (from a distribution) instead of argmax and passes the result through an
    embedding layer to get the next input.

    Args:
      embedding: A callable that takes a vector tensor of `ids` (argmax ids), or the `params`
        argument for `embedding_lookup`.
      start_tokens: `int32` vector shaped `[batch_size]`, the start tokens.
      end_token: `int32` scalar, the token that marks end of decoding.
      softmax_temperature: (Optional) `float32` scalar, value to divide the logits by before
        computing the softmax. Larger values (above 1.0) result in more random samples, while
        smaller values push the sampling distribution towards the argmax. Must be strictly greater
        than 0. Defaults to 1.0.
      seed: (Optional) The sampling seed.

    Raises:
      ValueError: if `start_tokens` is not a 1D tensor or `end_token` is not a scalar.
    """

    def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None, seed=None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not ops.is_tensor(outputs):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        logits = outputs if self._softmax_temperature is None else outputs / self._softmax_temperature
        return _categorical_sample(logits, seed=self._seed)


class InferenceHelper(Helper):
    """A helper to use during inference with a custom sampling function.

    Args:
      sample_fn: A callable that takes `outputs` and emits tensor `sample_ids`.
      sample_shape: Either a list of integers, or a 1-D Tensor of type `int32`, the shape of each
        sample in the batch returned by `sample_fn`.
      sample_dtype: the dtype of the sample returned by `sample_fn`.
      start_inputs: The initial batch of inputs.
      end_fn: A callable that takes `sample_ids` and emits a `bool` vector shaped `[batch_size]`
        indicating whether each sample is an end token.
      next_inputs_fn: (Optional) A callable that takes `sample_ids` and returns the next batch of
        inputs. If not provided, `sample_ids` is used as the next batch of inputs.
    """

    def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn, next_inputs_fn=None):
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = array_ops.shape(start_inputs)[0]
        self._start_inputs = ops.convert_to_tensor(start_inputs, name="start_inputs")

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_dtype

    def initialize(self, name=None):
        finished = array_ops.tile([False], array_ops.reshape(self._batch_size, [1]))
        return (finished, self._start_inputs)

    def sample(self, time, outputs, state, name=None):
        del time, state
        return self._sample_fn(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        next_inputs = sample_ids if self._next_inputs_fn is None else self._next_inputs_fn(sample_ids)
        finished = self._end_fn(sample_ids)
        return (finished, next_inputs, state)
