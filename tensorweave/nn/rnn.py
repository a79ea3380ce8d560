"""Recurrent loops over time: `tf.nn.dynamic_rnn`, `bidirectional_dynamic_rnn`, `raw_rnn` and
`tf.contrib.rnn.stack_bidirectional_dynamic_rnn`, as TF 1.15's `rnn.py`.

The loops are a `while_loop` over the time steps reading the inputs from a `TensorArray` and
writing the outputs to another, so gradients flow through time and neither the batch size nor the
number of steps needs to be known statically. A cell is anything with TF's cell API:
`cell(inputs, state)` -> `(output, new_state)`, `state_size`, `output_size`, `zero_state`.

When the cell is a plain LSTM (`BasicLSTMCell`, `LSTMCell` without projection or clipping,
contrib's `LSTMBlockCell`, or a `MultiRNNCell` of them), `dynamic_rnn` runs the whole loop as one
fused `BlockLSTM` op per layer (and its gradient as one `BlockLSTMGrad`), with the same variables
and the same values (see `_fused_lstm`).
"""

from .. import variable_scopes as vs
from ..framework import dtypes, ops, tensor_shape
from ..ops import array_ops, core_ops, math_ops, nest, rnn_fused_ops
from ..ops.control_flow_ops import while_loop
from ..ops.logging_ops import Assert
from ..ops.tensor_array_ops import TensorArray
from .rnn_cell_impl import assert_like_rnncell as _assert_like_rnncell

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn", "raw_rnn", "stack_bidirectional_dynamic_rnn"]


def _transpose_batch_time(x):
    """Swaps the first two axes of `x` (rank >= 2), keeping the static shape."""
    static = x.shape
    if static.ndims is not None and static.ndims < 2:
        return x
    rank = array_ops.rank(x)
    perm = array_ops.concat(([1, 0], array_ops.range(2, rank)), axis=0)
    out = array_ops.transpose(x, perm)
    if static.ndims is not None:
        out.set_shape(tensor_shape.TensorShape([static[1].value, static[0].value]).concatenate(static[2:]))
    return out


def _best_effort_input_batch_size(flat_input):
    """The static batch size (axis 1 of time-major inputs) when known, else a scalar tensor."""
    for x in flat_input:
        shape = x.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError("Expected input tensor %s to have rank at least 2" % x)
        if shape[1].value is not None:
            return shape[1].value
    return array_ops.shape(flat_input[0])[1]


def _infer_state_dtype(explicit_dtype, state):
    if explicit_dtype is not None:
        return dtypes.as_dtype(explicit_dtype)
    if nest.is_nested(state):
        inferred = [e.dtype for e in nest.flatten(state)]
        if not inferred:
            raise ValueError("Unable to infer dtype from empty state.")
        if any(d is not inferred[0] for d in inferred):
            raise ValueError("State has tensors of different inferred_dtypes. Unable to infer a single "
                             "representative dtype.")
        return inferred[0]
    return state.dtype


def _as_shape(size):
    """A cell size (int, TensorShape or 1-D int tensor) as a TensorShape (unknown dims for a tensor)."""
    if isinstance(size, ops.Tensor):
        from ..framework.tensor_util import constant_value
        v = constant_value(size)
        if v is not None:
            return tensor_shape.TensorShape([int(d) for d in v.reshape(-1)])
        n = size.shape[0].value if size.shape.ndims == 1 else None
        return tensor_shape.TensorShape([None] * n if n is not None else None)
    return tensor_shape.as_shape(size)


def _concat(prefix, suffix, static=False):
    """`prefix + suffix` as a shape: a static list when `static`, else a 1-D int32 tensor."""
    if isinstance(suffix, ops.Tensor):
        suffix = array_ops.reshape(math_ops.cast(suffix, dtypes.int32), [-1])
        p = array_ops.reshape(ops.convert_to_tensor(prefix, dtypes.int32), [-1]) \
            if isinstance(prefix, ops.Tensor) else ops.convert_to_tensor([prefix], dtypes.int32)
        return array_ops.concat([p, suffix], 0)
    suffix = list(tensor_shape.as_shape(suffix).as_list() if not isinstance(suffix, int) else [suffix])
    if static:
        p = prefix if isinstance(prefix, (list, tuple)) else [prefix]
        return [None if isinstance(d, ops.Tensor) else d for d in p] + suffix
    return array_ops.stack([prefix] + suffix) if isinstance(prefix, ops.Tensor) else [prefix] + suffix


def _zeros(batch_size, size, dtype):
    shape = _concat(batch_size, size)
    return array_ops.zeros(shape, dtype)


def _initial_state(cell, initial_state, dtype, batch_size):
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """Runs the recurrent network `cell` over the time steps of `inputs`, as `tf.nn.dynamic_rnn`.

    The loop is a `while_loop`, so the number of time steps and the batch size may be unknown
    until run time. With `sequence_length`, example `b` stops at step `sequence_length[b]`: its
    outputs after that are zeros and its final state is the state after its last valid step.

    Args:
      cell: An RNN cell (`cell(inputs, state)` -> `(output, new_state)`, `state_size`,
        `output_size`, `zero_state`).
      inputs: A tensor `[batch, time, ...]` (`[time, batch, ...]` if `time_major`), or a nest
        of such tensors.
      sequence_length: Optional int32/int64 vector `[batch]`: each example's length.
      initial_state: Optional initial state (a tensor or nest matching `cell.state_size`).
      dtype: The state and output dtype; required without `initial_state`.
      parallel_iterations, swap_memory: Accepted for compatibility.
      time_major: Whether inputs and outputs are `[time, batch, ...]`.
      scope: Variable scope (default "rnn").

    Returns:
      A pair `(outputs, state)`: `outputs` shaped `[batch, time, cell.output_size]` (time major:
      `[time, batch, ...]`), in `cell.output_size`'s nest; `state` the final state.

    Raises:
      TypeError: If `cell` is not an RNN cell.
      ValueError: If `inputs` is None or malformed, there is no `initial_state` and no `dtype`,
        or `sequence_length` is not a vector.
    """
    _assert_like_rnncell("cell", cell)
    with vs.variable_scope(scope or "rnn"):
        flat_input = nest.flatten(inputs)
        if not time_major:
            flat_input = [ops.convert_to_tensor(x) for x in flat_input]
            flat_input = tuple(_transpose_batch_time(x) for x in flat_input)
        else:
            flat_input = tuple(ops.convert_to_tensor(x) for x in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("sequence_length must be a vector of length batch_size, but saw shape: %s"
                                 % sequence_length.shape)
            sequence_length = core_ops.identity(sequence_length, name="sequence_length")
        batch_size = _best_effort_input_batch_size(flat_input)
        state = _initial_state(cell, initial_state, dtype, batch_size)
        if sequence_length is not None and not ops.get_default_graph()._eager:
            x_shape = array_ops.shape(sequence_length)
            packed = array_ops.stack([batch_size])
            check = Assert(math_ops.reduce_all(math_ops.equal(x_shape, packed)),
                           ["Expected shape for Tensor %s is " % sequence_length.name, packed, " but saw shape: ",
                            x_shape])
            with ops.control_dependencies([check]):
                sequence_length = core_ops.identity(sequence_length, name="CheckSeqLen")
        inputs = nest.pack_sequence_as(inputs, list(flat_input))
        fused = _fused_lstm(cell, inputs, state, sequence_length, dtype)
        if fused is not None:
            outputs, final_state = fused
        else:
            outputs, final_state = _dynamic_rnn_loop(cell, inputs, state, parallel_iterations, swap_memory,
                                                     sequence_length, dtype)
        if not time_major:
            outputs = nest.map_structure(_transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory, sequence_length=None,
                      dtype=None):
    state = initial_state
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)
    time_steps = array_ops.shape(flat_input[0])[0]
    batch_size = _best_effort_input_batch_size(flat_input)
    got_shapes = tuple(x.shape.with_rank_at_least(3) for x in flat_input)
    const_time_steps, const_batch_size = got_shapes[0].as_list()[:2]
    for shape in got_shapes:
        if not shape[2:].is_fully_defined():
            raise ValueError("Input size (depth of inputs) must be accessible via shape inference, but saw "
                             "value None.")
        if const_time_steps != shape[0].value:
            raise ValueError("Time steps is not the same for all the elements in the input in a batch.")
        if const_batch_size != shape[1].value:
            raise ValueError("Batch_size is not the same for all the elements in the input.")
    out_dtype = _infer_state_dtype(dtype, state)
    zero_output = nest.pack_sequence_as(cell.output_size,
                                        [_zeros(batch_size, s, out_dtype) for s in flat_output_size])
    if sequence_length is not None:
        min_sequence_length = math_ops.reduce_min(sequence_length)
        max_sequence_length = math_ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = ops.convert_to_tensor(0, dtype=dtypes.int32, name="time")
    with ops.name_scope("dynamic_rnn") as base_name:
        pass
    output_ta = tuple(
        TensorArray(out_dtype, size=time_steps, tensor_array_name=base_name + "output_%d" % i,
                    element_shape=tensor_shape.TensorShape([const_batch_size]).concatenate(_as_shape(size)))
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(
        TensorArray(x.dtype, size=time_steps, tensor_array_name=base_name + "input_%d" % i,
                    element_shape=x.shape[1:]).unstack(x)
        for i, x in enumerate(flat_input))

    def _time_step(time, output_ta_t, state):
        input_t = tuple(ta.read(time) for ta in input_ta)
        for x, shape in zip(input_t, got_shapes):
            x.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, list(input_t))

        def call_cell():
            return cell(input_t, state)

        if sequence_length is not None:
            output, new_state = _rnn_step(time, sequence_length, min_sequence_length, max_sequence_length,
                                          zero_output, state, call_cell)
        else:
            output, new_state = call_cell()
        output = nest.flatten(output)
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, output))
        return time + 1, output_ta_t, new_state

    # At least one step runs (when there is one), so the arrays learn their element shape.
    loop_bound = math_ops.minimum(time_steps, math_ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(
        lambda time, *_: time < loop_bound, _time_step, (time, output_ta, state),
        parallel_iterations=parallel_iterations, maximum_iterations=time_steps, swap_memory=swap_memory)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, size in zip(final_outputs, flat_output_size):
        output.set_shape(tensor_shape.TensorShape([const_time_steps, const_batch_size]).concatenate(_as_shape(size)))
    return nest.pack_sequence_as(cell.output_size, list(final_outputs)), final_state


def _rnn_step(time, sequence_length, min_sequence_length, max_sequence_length, zero_output, state, call_cell):
    """One step with TF's copy-through: finished examples emit zeros and keep their state."""
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = time >= sequence_length

    def copy_one(old, new):
        if nest.is_tensor_array(old) or old.shape.ndims == 0:
            return new
        return array_ops.where(copy_cond, old, new)

    new_output, new_state = call_cell()
    nest.assert_same_structure(zero_output, new_output)
    nest.assert_same_structure(state, new_state)
    flat_new_output = [copy_one(z, o) for z, o in zip(flat_zero_output, nest.flatten(new_output))]
    flat_new_state = [copy_one(s, n) for s, n in zip(flat_state, nest.flatten(new_state))]
    for out, z in zip(flat_new_output, flat_zero_output):
        out.set_shape(z.shape)
    for new, old in zip(flat_new_state, flat_state):
        if not nest.is_tensor_array(new):
            new.set_shape(old.shape)
    return (nest.pack_sequence_as(zero_output, flat_new_output), nest.pack_sequence_as(state, flat_new_state))


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """A forward and a backward `dynamic_rnn` over the same inputs, as `tf.nn.bidirectional_dynamic_rnn`.

    The backward cell reads the inputs reversed in time (each example's first
    `sequence_length[b]` steps reversed when `sequence_length` is given) and its outputs are
    reversed back, so both outputs line up with the inputs.

    Args:
      cell_fw, cell_bw: The forward and backward RNN cells.
      inputs: A tensor `[batch, time, ...]` (`[time, batch, ...]` if `time_major`), or a nest.
      sequence_length: Optional int32/int64 vector `[batch]`.
      initial_state_fw, initial_state_bw: Optional initial states.
      dtype: The state dtype; required unless both initial states are given.
      parallel_iterations, swap_memory: Accepted for compatibility.
      time_major: Whether inputs and outputs are `[time, batch, ...]`.
      scope: Variable scope (default "bidirectional_rnn"); the cells run under "fw" and "bw".

    Returns:
      `((output_fw, output_bw), (output_state_fw, output_state_bw))`.

    Raises:
      TypeError: If a cell is not an RNN cell.
      ValueError: As `dynamic_rnn`.
    """
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)

    def _reverse(x):
        if sequence_length is not None:
            return array_ops.reverse_sequence(x, seq_lengths=sequence_length, seq_axis=time_axis,
                                              batch_axis=batch_axis)
        return array_ops.reverse(x, axis=[time_axis])

    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = dynamic_rnn(
                cell_fw, inputs, sequence_length=sequence_length, initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory, time_major=time_major,
                scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            inputs_reverse = nest.map_structure(_reverse, inputs)
            tmp, output_state_bw = dynamic_rnn(
                cell_bw, inputs_reverse, sequence_length=sequence_length, initial_state=initial_state_bw,
                dtype=dtype, parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = nest.map_structure(_reverse, tmp)
    return (output_fw, output_bw), (output_state_fw, output_state_bw)


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """An RNN whose inputs, state and emitted values `loop_fn` controls, as `tf.nn.raw_rnn`.

    `loop_fn(time, cell_output, cell_state, loop_state)` returns
    `(finished, next_input, next_cell_state, emit_output, next_loop_state)`. It is called once
    with `cell_output=None` (time 0, giving the initial input, state and loop state; its
    `emit_output` fixes the emitted structure, or None for `cell.output_size`), then after each
    cell call. The loop runs while any example is unfinished; finished examples emit zeros and
    keep their state.

    Args:
      cell: An RNN cell.
      loop_fn: The callable described above.
      parallel_iterations, swap_memory: Accepted for compatibility.
      scope: Variable scope (default "rnn").

    Returns:
      `(emit_ta, final_state, final_loop_state)`: `emit_ta` a TensorArray (or nest of them)
      holding one `[batch, ...]` emit per step; `final_loop_state` is None when the initial
      loop state was None.

    Raises:
      TypeError: If `cell` is not an RNN cell or `loop_fn` is not callable.
      ValueError: If the structures `loop_fn` returns do not match.
    """
    _assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError("loop_fn must be a callable")
    parallel_iterations = parallel_iterations or 32
    with vs.variable_scope(scope or "rnn"):
        time = ops.convert_to_tensor(0, dtype=dtypes.int32)
        elements_finished, next_input, initial_state, emit_structure, init_loop_state = loop_fn(time, None, None,
                                                                                                None)
        elements_finished = ops.convert_to_tensor(elements_finished)
        flat_input = [ops.convert_to_tensor(x) for x in nest.flatten(next_input)]
        next_input = nest.pack_sequence_as(next_input, flat_input)
        loop_state = init_loop_state if init_loop_state is not None else ops.convert_to_tensor(0, dtypes.int32)
        static_batch = tensor_shape.Dimension(None)
        for x in flat_input:
            d = x.shape[0] if x.shape.ndims else tensor_shape.Dimension(None)
            static_batch = static_batch.merge_with(d)
        const_batch_size = static_batch.value
        batch_size = const_batch_size if const_batch_size is not None else array_ops.shape(flat_input[0])[0]
        nest.assert_same_structure(initial_state, cell.state_size)
        flat_state = [ops.convert_to_tensor(s) for s in nest.flatten(initial_state)]
        state = nest.pack_sequence_as(initial_state, flat_state)
        if emit_structure is not None:
            flat_emit_structure = [ops.convert_to_tensor(e) for e in nest.flatten(emit_structure)]
            flat_emit_size = [e.shape[1:] if e.shape.is_fully_defined() else array_ops.shape(e)[1:]
                              for e in flat_emit_structure]
            flat_emit_dtypes = [e.dtype for e in flat_emit_structure]
        else:
            emit_structure = cell.output_size
            flat_emit_size = nest.flatten(emit_structure)
            flat_emit_dtypes = [flat_state[0].dtype] * len(flat_emit_size)
        flat_emit_ta = [
            TensorArray(dt, dynamic_size=True, size=0, name="rnn_output_%d" % i,
                        element_shape=tensor_shape.TensorShape([const_batch_size]).concatenate(_as_shape(size)))
            for i, (dt, size) in enumerate(zip(flat_emit_dtypes, flat_emit_size))]
        emit_ta = nest.pack_sequence_as(emit_structure, flat_emit_ta)
        zero_emit = nest.pack_sequence_as(emit_structure, [_zeros(batch_size, size, dt) for size, dt in
                                                           zip(flat_emit_size, flat_emit_dtypes)])

        def condition(unused_time, elements_finished, *_):
            return math_ops.logical_not(math_ops.reduce_all(elements_finished))

        def body(time, elements_finished, current_input, emit_ta, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_input, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_input)
            nest.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current, candidate):
                def copy_fn(cur, cand):
                    if nest.is_tensor_array(cur):
                        return cand
                    cand = ops.convert_to_tensor(cand)
                    if cur.shape.ndims == 0:
                        return cand
                    return array_ops.where(elements_finished, cur, cand)
                return nest.map_structure(copy_fn, current, candidate)

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = nest.map_structure(lambda ta, e: ta.write(time, e), emit_ta, emit_output)
            elements_finished = math_ops.logical_or(elements_finished, next_finished)
            return next_time, elements_finished, next_input, emit_ta, next_state, loop_state

        returned = while_loop(condition, body,
                              loop_vars=[time, elements_finished, next_input, emit_ta, state, loop_state],
                              parallel_iterations=parallel_iterations, swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state


def _check_stacked_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    """Validates the per-layer cell and initial-state lists of the stacked bidirectional RNNs.

    Raises:
      ValueError: If the cell lists are empty, not lists, of different lengths, or the initial
        state lists do not match them.
    """
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    if initial_states_fw is not None and (not isinstance(initial_states_fw, list)
                                          or len(initial_states_fw) != len(cells_fw)):
        raise ValueError("initial_states_fw must be a list of state tensors (one per layer).")
    if initial_states_bw is not None and (not isinstance(initial_states_bw, list)
                                          or len(initial_states_bw) != len(cells_bw)):
        raise ValueError("initial_states_bw must be a list of state tensors (one per layer).")


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None, initial_states_bw=None,
                                    dtype=None, sequence_length=None, parallel_iterations=None, time_major=False,
                                    scope=None, swap_memory=False):
    """Stacked bidirectional RNNs, as `tf.contrib.rnn.stack_bidirectional_dynamic_rnn`.

    Layer `i` runs `bidirectional_dynamic_rnn` under the variable scope `cell_<i>` on the previous
    layer's forward and backward outputs concatenated on the last axis.

    Args:
      cells_fw, cells_bw: Lists of RNN cells of equal length (one per layer).
      inputs: A tensor `[batch, time, ...]` (`[time, batch, ...]` if `time_major`).
      initial_states_fw, initial_states_bw: Optional lists of initial states, one per layer.
      dtype: The state dtype; required without initial states.
      sequence_length: Optional int32/int64 vector `[batch]`.
      parallel_iterations, swap_memory: Accepted for compatibility.
      time_major: Whether inputs and outputs are `[time, batch, ...]`.
      scope: Variable scope (default "stack_bidirectional_rnn").

    Returns:
      `(outputs, output_states_fw, output_states_bw)`: the last layer's concatenated outputs and
      tuples of each layer's final forward and backward states.

    Raises:
      ValueError: If the cell lists are empty, not lists, of different lengths, or the initial
        state lists do not match them.
    """
    _check_stacked_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    prev_layer = inputs
    with vs.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            init_fw = initial_states_fw[i] if initial_states_fw else None
            init_bw = initial_states_bw[i] if initial_states_bw else None
            with vs.variable_scope("cell_%d" % i):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, prev_layer, initial_state_fw=init_fw, initial_state_bw=init_bw,
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations, dtype=dtype,
                    swap_memory=swap_memory, time_major=time_major)
                prev_layer = array_ops.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


# ---- the fused LSTM path ------------------------------------------------------------------------
def _plain_lstm(cell):
    """`(num_units, forget_bias, state_is_tuple, use_peephole, cell_clip)` when the BlockLSTM op
    computes `cell`'s step and gradient exactly, else None: a BasicLSTMCell or LSTMCell with tanh
    activation and no projection (LSTMCell: peepholes allowed, no cell clipping, whose gradient
    TF's LSTMCell masks), or a contrib LSTMBlockCell (peepholes and clipping: the same op)."""
    cls = type(cell)
    name = cls.__name__
    if name not in ("BasicLSTMCell", "LSTMCell", "LSTMBlockCell") or not cls.__module__.startswith("tensorweave"):
        return None
    units = getattr(cell, "_num_units", None)
    if not isinstance(units, int) or isinstance(units, bool):
        return None
    peephole, clip = False, -1.0
    if name == "LSTMBlockCell":
        peephole = getattr(cell, "_use_peephole", None)
        clip = getattr(cell, "_cell_clip", None)
        if not isinstance(clip, (int, float)):
            return None
        clip = float(clip)
    else:
        if getattr(cell, "_activation", None) is not math_ops.tanh:
            return None
        if name == "LSTMCell":
            if getattr(cell, "_cell_clip", 1) is not None or getattr(cell, "_num_proj", 1) is not None or \
                    getattr(cell, "_proj_clip", 1) is not None:
                return None
            peephole = getattr(cell, "_use_peepholes", None)
    if not isinstance(peephole, bool):
        return None
    return (units, float(getattr(cell, "_forget_bias", 1.0)), bool(getattr(cell, "_state_is_tuple", True)),
            peephole, clip)


def _fused_layers(cell):
    """`(cells, params, multi)`: the plain LSTM layers of `cell` (itself, or the cells of a
    MultiRNNCell with tuple state whose cells are all plain LSTMs) and their `_plain_lstm`; or None."""
    cls = type(cell)
    if cls.__name__ == "MultiRNNCell" and cls.__module__.startswith("tensorweave"):
        subs = list(getattr(cell, "_cells", None) or ())
        if not subs or not getattr(cell, "_state_is_tuple", False):
            return None
        params = [_plain_lstm(c) for c in subs]
        return None if any(p is None for p in params) else (subs, params, True)
    params = _plain_lstm(cell)
    return None if params is None else ([cell], [params], False)


def _layer_state(state, state_is_tuple, dtype):
    """A plain LSTM layer's initial state as `(c, h)` tensors of `dtype`, or None."""
    if state_is_tuple:
        if not (isinstance(state, tuple) and len(state) == 2 and all(isinstance(v, ops.Tensor) for v in state)):
            return None
        c, h = state
    else:
        if not isinstance(state, ops.Tensor) or state.shape.ndims != 2:
            return None
        c, h = array_ops.split(state, 2, axis=1)
    return (c, h) if c.dtype is dtype and h.dtype is dtype else None


def _fused_lstm(cell, inputs, state, sequence_length, dtype):
    """The loop as one BlockLSTM op per layer when `cell` is a plain LSTM or a MultiRNNCell of them
    (else None). A stack runs layer by layer over the whole sequence: layer l at step t only needs
    layer l - 1 at step t and layer l at step t - 1, so the values equal the step-by-step loop's."""
    layers = _fused_layers(cell)
    if layers is None or nest.is_nested(inputs):
        return None
    subs, params, multi = layers
    x = inputs
    if x.shape.ndims != 3 or x.shape[2].value is None or x.dtype not in rnn_fused_ops.BLOCK_LSTM_TYPES:
        return None
    states = state if multi else (state,)
    if not isinstance(states, tuple) or len(states) != len(subs):
        return None
    inits = [_layer_state(st, p[2], x.dtype) for st, p in zip(states, params)]
    if any(v is None for v in inits):
        return None
    # One cell call on zeros creates (or reuses) the cells' variables under the scopes the loop
    # would use; nothing fetches its values, so no run computes it.
    with ops.name_scope("fused_lstm_build"):
        batch = _best_effort_input_batch_size([x])
        cell(array_ops.zeros(_concat(batch, [x.shape[2].value]), x.dtype), state)
    weights = []
    depth = x.shape[2].value
    for sub, (units, _, _, peephole, _) in zip(subs, params):
        names = ("_kernel", "_bias") + (("_w_i_diag", "_w_f_diag", "_w_o_diag") if peephole else ())
        found = [getattr(sub, n, None) for n in names]
        if any(v is None for v in found):
            return None
        found = [ops.convert_to_tensor(v) for v in found]
        if any(v.dtype is not x.dtype for v in found) or found[0].shape.as_list() != [depth + units, 4 * units]:
            return None
        weights.append(found)
        depth = units
    with ops.name_scope("fused_lstm"):
        n_steps = array_ops.shape(x)[0]
        time_steps = math_ops.cast(n_steps, dtypes.int64)
        seq_len_max = time_steps if sequence_length is None else math_ops.minimum(
            time_steps, math_ops.maximum(math_ops.cast(math_ops.reduce_max(sequence_length), dtypes.int64), 0))
        if sequence_length is not None:
            last = math_ops.maximum(math_ops.minimum(sequence_length, n_steps), 0)
            idx = array_ops.stack([last, array_ops.range(0, array_ops.shape(x)[1])], axis=1)

        def final(init, seq):
            if sequence_length is None and x.shape[0].value:
                return seq[-1]
            full = array_ops.concat([array_ops.expand_dims(init, 0), seq], 0)
            out = full[-1] if sequence_length is None else array_ops.gather_nd(full, idx)
            out.set_shape(init.shape)
            return out

        layer_in, finals = x, []
        for (_, forget_bias, _, peephole, clip), (c0, h0), found in zip(params, inits, weights):
            _, cs, _, _, _, _, h = rnn_fused_ops.block_lstm(seq_len_max, layer_in, c0, h0, *found,
                                                            forget_bias=forget_bias, cell_clip=clip,
                                                            use_peephole=peephole)
            finals.append((final(c0, cs), final(h0, h)))
            layer_in = h
        outputs = layer_in
        if sequence_length is not None:
            # Steps past an example's end emit zeros.
            steps = array_ops.range(0, n_steps)
            valid = math_ops.less(array_ops.expand_dims(steps, 1), array_ops.expand_dims(sequence_length, 0))
            valid = array_ops.broadcast_to(array_ops.expand_dims(valid, 2), array_ops.shape(outputs))
            outputs = array_ops.where(valid, outputs, core_ops.zeros_like(outputs))
            outputs.set_shape(layer_in.shape)
    from .rnn_cell_impl import LSTMStateTuple
    new_states = []
    for st, (_, _, state_is_tuple, _, _), (c_last, h_last) in zip(states, params, finals):
        if not state_is_tuple:
            new_states.append(array_ops.concat([c_last, h_last], 1))
        elif sequence_length is not None:
            # As the loop's copy-through, the final state keeps the initial state's structure.
            new_states.append(nest.pack_sequence_as(st, [c_last, h_last]))
        else:
            new_states.append(LSTMStateTuple(c_last, h_last))
    return outputs, (tuple(new_states) if multi else new_states[0])
