"""`tf.contrib.seq2seq.BasicDecoder` (TF 1.15's `basic_decoder.py`): one cell step per decoding step,
an optional output layer, and a `Helper` choosing the sample ids and the next inputs."""

import collections

from ...framework import ops
from ...framework.tensor_shape import TensorShape, as_shape
from ...layers.base import Layer
from ...nn.rnn_cell_impl import assert_like_rnncell
from ...ops import nest
from .decoder import Decoder
from .helper import Helper

__all__ = ["BasicDecoderOutput", "BasicDecoder"]


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    """The per-step output of a `BasicDecoder`: `rnn_output` (the cell output, after the output
    layer) and `sample_id` (the helper's sample)."""


def _as_shape(s):
    return TensorShape([s]) if isinstance(s, int) else as_shape(s)


def _cell_output_size(cell, output_layer):
    """The output size (without batch) of `cell`, passed through `output_layer` when there is one."""
    size = cell.output_size
    if output_layer is None:
        return size
    shape = nest.map_structure(lambda s: TensorShape([None]).concatenate(_as_shape(s)), size)
    out = output_layer.compute_output_shape(shape)
    return nest.map_structure(lambda s: TensorShape(s)[1:], out)


class BasicDecoder(Decoder):
    """Basic sampling decoder.

    Args:
      cell: An `RNNCell` instance.
      helper: A `Helper` instance.
      initial_state: A (possibly nested tuple of...) tensors and TensorArrays. The initial state
        of the RNNCell.
      output_layer: (Optional) An instance of `tf.layers.Layer`, i.e., `tf.layers.Dense`. Optional
        layer to apply to the RNN output prior to storing the result or sampling.

    Raises:
      TypeError: if `cell`, `helper` or `output_layer` have an incorrect type.
    """

    def __init__(self, cell, helper, initial_state, output_layer=None):
        assert_like_rnncell("cell", cell)
        if not isinstance(helper, Helper):
            raise TypeError("helper must be a Helper, received: %s" % type(helper))
        if output_layer is not None and not isinstance(output_layer, Layer):
            raise TypeError("output_layer must be a Layer, received: %s" % type(output_layer))
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    def _rnn_output_size(self):
        return _cell_output_size(self._cell, self._output_layer)

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(), sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        """Initialize the decoder: `(finished, first_inputs, initial_state)`."""
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        """Perform a decoding step: `(outputs, next_state, next_inputs, finished)`."""
        with ops.name_scope(name, "BasicDecoderStep", (time, inputs)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            (finished, next_inputs, next_state) = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        outputs = BasicDecoderOutput(cell_outputs, sample_ids)
        return (outputs, next_state, next_inputs, finished)
