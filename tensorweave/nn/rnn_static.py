"""`tf.nn.static_rnn`, `tf.nn.static_bidirectional_rnn` and `tf.nn.static_state_saving_rnn`: RNNs
unrolled in the graph over a Python list of time steps (TF 1.15's `rnn.py`).

With `sequence_length`, at time `t` row `b` gets `(zeros, state(b, len(b) - 1))` once
`t >= sequence_length[b]`, and `cell(input(b, t), state(b, t - 1))` before, as TF's `_rnn_step`.
Variables live in the scope "rnn" (`rnn/basic_lstm_cell/kernel`), "bidirectional_rnn/fw" and
"bidirectional_rnn/bw".
"""

from ..framework import dtypes, ops
from ..framework.tensor_shape import TensorShape, dimension_value
from ..ops import array_ops, math_ops, nest
from ..variable_scopes import variable_scope
from . import rnn_cell
from .rnn_cell_impl import _concat, assert_like_rnncell

__all__ = ["rnn_cell", "static_bidirectional_rnn", "static_rnn", "static_state_saving_rnn"]


def _infer_state_dtype(explicit_dtype, state):
    if explicit_dtype is not None:
        return explicit_dtype
    if nest.is_nested(state):
        inferred = [element.dtype for element in nest.flatten(state)]
        if not inferred:
            raise ValueError("Unable to infer dtype from empty state.")
        if not all(x == inferred[0] for x in inferred):
            raise ValueError("State has tensors of different inferred_dtypes. Unable to infer a single "
                             "representative dtype.")
        return inferred[0]
    return state.dtype


def _rnn_step(time, sequence_length, zero_output, state, call_cell):
    """One step of an RNN over a batch with `sequence_length`: rows whose sequence has ended
    (`time >= sequence_length`) get the zero output and keep their state."""
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = math_ops.greater_equal(time, sequence_length)
    new_output, new_state = call_cell()
    nest.assert_same_structure(zero_output, new_output)
    nest.assert_same_structure(state, new_state)
    flat_new_output = nest.flatten(new_output)
    flat_new_state = nest.flatten(new_state)

    def copy_one_through(old, new):
        if nest.is_tensor_array(old) or old.shape.ndims == 0:
            return new
        return array_ops.where(copy_cond, old, new)

    final_output = [copy_one_through(z, n) for z, n in zip(flat_zero_output, flat_new_output)]
    final_state = [copy_one_through(s, n) for s, n in zip(flat_state, flat_new_state)]
    for output, flat_output in zip(final_output, flat_zero_output):
        output.set_shape(flat_output.shape)
    for substate, flat_substate in zip(final_state, flat_state):
        if not nest.is_tensor_array(substate):
            substate.set_shape(flat_substate.shape)
    return (nest.pack_sequence_as(zero_output, final_output), nest.pack_sequence_as(state, final_state))


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """Creates a recurrent neural network specified by RNNCell `cell`, unrolled over `inputs`.

    ```python
      state = cell.zero_state(...)
      outputs = []
      for input_ in inputs:
        output, state = cell(input_, state)
        outputs.append(output)
      return (outputs, state)
    ```

    With `sequence_length`, at time `t` for batch row `b`: `(output, state)(b, t) = (t >=
    sequence_length(b)) ? (zeros(cell.output_size), states(b, sequence_length(b) - 1)) :
    cell(input(b, t), state(b, t - 1))`.

    Args:
      cell: An instance of RNNCell.
      inputs: A length T list of inputs, each a `Tensor` of shape `[batch_size, input_size]`, or a
        nested tuple of such elements.
      initial_state: (optional) An initial state for the RNN, with the structure of
        `cell.state_size`.
      dtype: (optional) The data type for the initial state and expected output. Required if
        initial_state is not provided.
      sequence_length: Specifies the length of each sequence in inputs: an int32 or int64 vector
        (tensor) of size `[batch_size]`, values in `[0, T)`.
      scope: VariableScope for the created subgraph; defaults to "rnn".

    Returns:
      A pair (outputs, state): outputs is a length T list of outputs (one for each input), or a
      nested tuple of such elements; state is the final state.

    Raises:
      TypeError: If `cell` is not an instance of RNNCell or `inputs` is not a sequence.
      ValueError: If `inputs` is `None` or an empty list, or if the input depth (column size)
        cannot be inferred from inputs via shape inference.
    """
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    outputs = []
    with variable_scope(scope or "rnn") as varscope:
        first_input = inputs
        while nest.is_nested(first_input):
            first_input = first_input[0]
        if first_input.shape.ndims != 1:
            input_shape = first_input.shape.with_rank_at_least(2)
            fixed_batch_size = input_shape[0]
            for flat_input in nest.flatten(inputs):
                input_shape = flat_input.shape.with_rank_at_least(2)
                batch_size, input_size = input_shape[0], input_shape[1:]
                TensorShape([fixed_batch_size]).assert_is_compatible_with(TensorShape([batch_size]))
                for i, size in enumerate(input_size.dims):
                    if dimension_value(size) is None:
                        raise ValueError("Input size (dimension %d of inputs) must be accessible via shape "
                                         "inference, but saw value None." % i)
        else:
            fixed_batch_size = first_input.shape.with_rank_at_least(1)[0]
        if dimension_value(fixed_batch_size):
            batch_size = dimension_value(fixed_batch_size)
        else:
            batch_size = array_ops.shape(first_input)[0]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, dtype must be specified")
            if getattr(cell, "get_initial_state", None) is not None:
                state = cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
            else:
                state = cell.zero_state(batch_size, dtype)

        if sequence_length is not None:
            sequence_length = ops.convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("sequence_length must be a vector of length batch_size")

            def _create_zero_output(output_size):
                size = _concat(batch_size, output_size)
                output = array_ops.zeros(size, _infer_state_dtype(dtype, state))
                shape = _concat(dimension_value(fixed_batch_size), output_size, static=True)
                output.set_shape(TensorShape(shape))
                return output

            output_size = cell.output_size
            flat_zero_output = tuple(_create_zero_output(size) for size in nest.flatten(output_size))
            zero_output = nest.pack_sequence_as(output_size, flat_zero_output)
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)

        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()

            def call_cell(input_=input_, state=state):
                return cell(input_, state)

            if sequence_length is not None:
                (output, state) = _rnn_step(time, sequence_length, zero_output, state, call_cell)
            else:
                (output, state) = call_cell()
            outputs.append(output)
        return (outputs, state)


def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None, scope=None):
    """RNN that accepts a state saver for time-truncated RNN calculation.

    Args:
      cell: An instance of `RNNCell`.
      inputs: A length T list of inputs, each a `Tensor` of shape `[batch_size, input_size]`.
      state_saver: A state saver object with methods `state` and `save_state`.
      state_name: Python string or tuple of strings: the names the state_saver uses; a tuple with
        the structure of `cell.state_size` when that is a tuple.
      sequence_length: (optional) An int32/int64 vector size [batch_size].
      scope: VariableScope for the created subgraph; defaults to "rnn".

    Returns:
      A pair (outputs, state): outputs is a length T list of outputs, state is the final state;
      both are computed after the state was saved.

    Raises:
      TypeError: If `cell` is not an instance of RNNCell.
      ValueError: If `inputs` is `None` or an empty list, or if the arity and type of `state_name`
        does not match that of `cell.state_size`.
    """
    from ..ops import core_ops as _array_ops
    state_size = cell.state_size
    state_is_tuple = nest.is_nested(state_size)
    state_name_tuple = nest.is_nested(state_name)
    if state_is_tuple != state_name_tuple:
        raise ValueError("state_name should be the same type as cell.state_size.  state_name: %s, "
                         "cell.state_size: %s" % (str(state_name), str(state_size)))
    if state_is_tuple:
        state_name_flat = nest.flatten(state_name)
        state_size_flat = nest.flatten(state_size)
        if len(state_name_flat) != len(state_size_flat):
            raise ValueError("#elems(state_name) != #elems(state_size): %d vs. %d"
                             % (len(state_name_flat), len(state_size_flat)))
        initial_state = nest.pack_sequence_as(state_size, [state_saver.state(s) for s in state_name_flat])
    else:
        initial_state = state_saver.state(state_name)
    (outputs, state) = static_rnn(cell, inputs, initial_state=initial_state, sequence_length=sequence_length,
                                  scope=scope)
    if state_is_tuple:
        flat_state = nest.flatten(state)
        save_state = [state_saver.save_state(name, substate)
                      for name, substate in zip(nest.flatten(state_name), flat_state)]
    else:
        save_state = [state_saver.save_state(state_name, state)]
    with ops.control_dependencies(save_state):
        last_output = outputs[-1]
        flat_last_output = [_array_ops.identity(output) for output in nest.flatten(last_output)]
        outputs[-1] = nest.pack_sequence_as(last_output, flat_last_output)
        if state_is_tuple:
            state = nest.pack_sequence_as(state, [_array_ops.identity(s) for s in flat_state])
        else:
            state = _array_ops.identity(state)
    return (outputs, state)


def _reverse_seq(input_seq, lengths):
    """Reverses a list of Tensors (or nested tuples of them) up to the given lengths (all of it when
    `lengths` is None)."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_input_seq = tuple(nest.flatten(input_) for input_ in input_seq)
    flat_results = [[] for _ in range(len(input_seq))]
    for sequence in zip(*flat_input_seq):
        input_shape = TensorShape(None) if sequence[0].shape.ndims is None else \
            TensorShape([None] * sequence[0].shape.ndims)
        for input_ in sequence:
            input_shape.assert_is_compatible_with(input_.shape)
            input_.set_shape(input_shape)
        s_joined = array_ops.stack(sequence)
        s_reversed = array_ops.reverse_sequence(s_joined, lengths, 0, 1)
        result = array_ops.unstack(s_reversed)
        for r, flat_result in zip(result, flat_results):
            r.set_shape(input_shape)
            flat_result.append(r)
    return [nest.pack_sequence_as(input_, flat_result) for input_, flat_result in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """Creates a bidirectional recurrent neural network, unrolled over `inputs`.

    Independent forward and backward RNNs (the backward one runs over the inputs reversed up to each
    sequence's length) whose outputs are depth-concatenated: `[time][batch][cell_fw.output_size +
    cell_bw.output_size]`.

    Args:
      cell_fw: An instance of RNNCell, to be used for forward direction.
      cell_bw: An instance of RNNCell, to be used for backward direction.
      inputs: A length T list of inputs, each a tensor of shape [batch_size, input_size], or a
        nested tuple of such elements.
      initial_state_fw: (optional) An initial state for the forward RNN.
      initial_state_bw: (optional) Same as for `initial_state_fw`, for `cell_bw`.
      dtype: (optional) The data type for the initial state. Required if either of the initial
        states are not provided.
      sequence_length: (optional) An int32/int64 vector, size `[batch_size]`, containing the actual
        lengths for each of the sequences.
      scope: VariableScope for the created subgraph; defaults to "bidirectional_rnn".

    Returns:
      A tuple (outputs, output_state_fw, output_state_bw): outputs is a length `T` list of the
      depth-concatenated forward and backward outputs; the final states of both RNNs.

    Raises:
      TypeError: If `cell_fw` or `cell_bw` is not an instance of `RNNCell`.
      ValueError: If inputs is None or an empty list.
    """
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                                    scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype, sequence_length,
                                              scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat_outputs = tuple(array_ops.concat([fw, bw], 1)
                         for fw, bw in zip(nest.flatten(output_fw), nest.flatten(output_bw)))
    outputs = nest.pack_sequence_as(output_fw, flat_outputs)
    return (outputs, output_state_fw, output_state_bw)
