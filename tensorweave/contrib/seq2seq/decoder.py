"""`tf.contrib.seq2seq.Decoder` and `dynamic_decode` (TF 1.15's `decoder.py`): the decoding loop is a
`while_loop` writing each step's outputs to `TensorArray`s, so it is differentiable (training through
a `TrainingHelper`) and runs for a number of steps known only at run time."""

import abc

from ... import variable_scopes as vs
from ...framework import dtypes, ops, tensor_util
from ...framework.tensor_shape import TensorShape, as_shape
from ...ops import array_ops, core_ops, math_ops, nest
from ...ops.control_flow_ops import while_loop
from ...ops.tensor_array_ops import TensorArray
from .helper import _transpose_batch_time

__all__ = ["Decoder", "dynamic_decode"]


class Decoder(abc.ABC):
    """An RNN Decoder abstract interface object (`tf.contrib.seq2seq.Decoder`).

    Concepts used by this interface:
    - `inputs`: (structure of) tensors and TensorArrays that is passed as input to the RNNCell
      composing the decoder, at each time step.
    - `state`: (structure of) tensors and TensorArrays that is passed to the RNNCell instance as
      the state.
    - `finished`: boolean tensor telling whether each sequence in the batch is finished.
    - `outputs`: Instance of BasicDecoderOutput. Result of the decoding, at each time step.
    """

    @property
    def batch_size(self):
        """The batch size of input values."""
        raise NotImplementedError

    @property
    def output_size(self):
        """A (possibly nested tuple of...) integer[s] or `TensorShape` object[s]."""
        raise NotImplementedError

    @property
    def output_dtype(self):
        """A (possibly nested tuple of...) dtype[s]."""
        raise NotImplementedError

    @abc.abstractmethod
    def initialize(self, name=None):
        """Called before any decoding iterations: returns `(finished, initial_inputs, initial_state)`."""

    @abc.abstractmethod
    def step(self, time, inputs, state, name=None):
        """Called per step of decoding: returns `(outputs, next_state, next_inputs, finished)`."""

    def finalize(self, outputs, final_state, sequence_lengths):
        """Optional post-processing of the stacked outputs (raises NotImplementedError by default)."""
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """Whether this decoder keeps track of finished states itself (beam search does)."""
        return False


def _zero_outputs(size, dtype, batch_size):
    def make(s, d):
        shape = as_shape(s) if not isinstance(s, int) else TensorShape([s])
        static_batch = tensor_util.constant_value(ops.convert_to_tensor(batch_size))
        full = array_ops.concat([array_ops.reshape(batch_size, [1]),
                                 ops.convert_to_tensor(shape.as_list(), dtype=dtypes.int32)], 0)
        z = array_ops.zeros(full, dtype=d)
        z.set_shape(TensorShape([static_batch]).concatenate(shape))
        return z
    return nest.map_structure(make, size, dtype)


def dynamic_decode(decoder, output_time_major=False, impute_finished=False, maximum_iterations=None,
                   parallel_iterations=32, swap_memory=False, scope=None):
    """Perform dynamic decoding with `decoder`.

    Calls initialize() once and step() repeatedly on the Decoder object, until every sequence is
    finished or `maximum_iterations` steps have run.

    Args:
      decoder: A `Decoder` instance.
      output_time_major: Python boolean. Default: `False` (batch major). If `True`, outputs are
        returned as time major tensors (this mode is faster). Otherwise, outputs are returned as
        batch major tensors (this adds extra time to the computation).
      impute_finished: Python boolean. If `True`, then states for batch entries which are marked
        as finished get copied through and the corresponding outputs get zeroed out. This causes
        some slowdown at each time step, but ensures that the final state and outputs have the
        correct values and that backprop ignores time steps that were marked as finished.
      maximum_iterations: `int32` scalar, maximum allowed number of decoding steps. Default is
        `None` (decode until the decoder is fully done).
      parallel_iterations: Argument passed to `tf.while_loop`.
      swap_memory: Argument passed to `tf.while_loop`.
      scope: Optional variable scope to use (default "decoder").

    Returns:
      `(final_outputs, final_state, final_sequence_lengths)`.

    Raises:
      TypeError: if `decoder` is not an instance of `Decoder`.
      ValueError: if `maximum_iterations` is provided but is not a scalar.
    """
    if not isinstance(decoder, Decoder):
        raise TypeError("Expected decoder to be type Decoder, but saw: %s" % type(decoder))

    with vs.variable_scope(scope, "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = ops.convert_to_tensor(maximum_iterations, dtype=dtypes.int32,
                                                       name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")

        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = _zero_outputs(decoder.output_size, decoder.output_dtype, decoder.batch_size)

        if maximum_iterations is not None:
            initial_finished = math_ops.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_sequence_lengths = core_ops.zeros_like(initial_finished, dtype=dtypes.int32)
        initial_time = ops.convert_to_tensor(0, dtype=dtypes.int32)

        static_batch = tensor_util.constant_value(ops.convert_to_tensor(decoder.batch_size, name="batch_size"))

        def _shape(from_shape):
            if not isinstance(from_shape, TensorShape) and not isinstance(from_shape, int):
                from_shape = as_shape(from_shape)
            if isinstance(from_shape, int):
                from_shape = TensorShape([from_shape])
            return TensorShape([static_batch]).concatenate(from_shape)

        def _create_ta(s, d):
            return TensorArray(dtype=d, size=0, dynamic_size=True, element_shape=_shape(s))

        initial_outputs_ta = nest.map_structure(_create_ta, decoder.output_size, decoder.output_dtype)

        def condition(unused_time, unused_outputs_ta, unused_state, unused_inputs, finished,
                      unused_sequence_lengths):
            return math_ops.logical_not(math_ops.reduce_all(finished))

        def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
            (next_outputs, decoder_state, next_inputs, decoder_finished) = decoder.step(time, inputs, state)
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = math_ops.logical_or(decoder_finished, finished)
            next_sequence_lengths = array_ops.where(
                math_ops.logical_not(finished), array_ops.fill(array_ops.shape(sequence_lengths), time + 1),
                sequence_lengths)

            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(outputs_ta, next_outputs)
            nest.assert_same_structure(inputs, next_inputs)

            if impute_finished:
                emit = nest.map_structure(lambda out, zero: array_ops.where(finished, zero, out), next_outputs,
                                          zero_outputs)
            else:
                emit = next_outputs

            def _maybe_copy_state(new, cur):
                if nest.is_tensor_array(cur):
                    pass_through = True
                else:
                    new.set_shape(cur.shape)
                    pass_through = (new.shape.ndims == 0)
                return new if pass_through else array_ops.where(finished, cur, new)

            if impute_finished:
                next_state = nest.map_structure(_maybe_copy_state, decoder_state, state)
            else:
                next_state = decoder_state

            outputs_ta = nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
            return (time + 1, outputs_ta, next_state, next_inputs, next_finished, next_sequence_lengths)

        res = while_loop(condition, body,
                         loop_vars=(initial_time, initial_outputs_ta, initial_state, initial_inputs,
                                    initial_finished, initial_sequence_lengths),
                         parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
                         swap_memory=swap_memory)

        final_outputs_ta = res[1]
        final_state = res[2]
        final_sequence_lengths = res[5]

        final_outputs = nest.map_structure(lambda ta: ta.stack(), final_outputs_ta)

        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_sequence_lengths)
        except NotImplementedError:
            pass

        if not output_time_major:
            final_outputs = nest.map_structure(_transpose_batch_time, final_outputs)

    return final_outputs, final_state, final_sequence_lengths
