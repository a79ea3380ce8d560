"""`tf.RaggedTensor`, `tf.ragged` and the unicode functions of `tf.strings` (which return ragged
tensors), against values printed by TensorFlow 2.21 (`tf.compat.v1` graph mode; "TF" marks a
recorded value)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


def parts(rt):
    """(flat values, nested row splits) of a fetched RaggedTensorValue, as lists."""
    v = run(rt)
    assert isinstance(v, tf.ragged.RaggedTensorValue)
    return v.flat_values.tolist(), [s.tolist() for s in v.nested_row_splits]


# ---- construction --------------------------------------------------------------------------------
def test_constant_and_fetch():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert isinstance(rt, tf.RaggedTensor)
    assert rt.dtype == tf.int32 and rt.ragged_rank == 1 and rt.row_splits.dtype == tf.int64
    assert rt.shape.as_list() == [3, None]  # TF
    v = run(rt)
    assert v.to_list() == [[1, 2], [3], []]  # TF
    assert v.shape == (3, None) and v.ragged_rank == 1  # TF
    assert v.row_splits.tolist() == [0, 2, 3, 3]
    assert str(v) == "<tf.RaggedTensorValue [[1, 2], [3], []]>"  # TF
    assert run([rt, rt.values])[1].tolist() == [1, 2, 3]


def test_constant_nesting_rules():
    rt2 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert rt2.ragged_rank == 2 and rt2.shape.as_list() == [3, None, None]  # TF
    assert parts(rt2) == ([1, 2, 3, 4, 5, 6], [[0, 2, 2, 3], [0, 2, 3, 6]])
    inner = tf.ragged.constant([[[1, 2]], [], [[4, 5], [6, 7]]], ragged_rank=1)
    assert inner.shape.as_list() == [3, None, 2]  # TF
    assert tf.ragged.constant([["a"], []]).dtype == tf.string
    empty = tf.ragged.constant([[]])
    assert empty.dtype == tf.float32 and empty.shape.as_list() == [1, None]  # TF
    assert tf.ragged.constant([[[]]]).ragged_rank == 2  # TF
    assert tf.ragged.constant([[1, 2]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    dense = tf.ragged.constant([1, 2])
    assert isinstance(dense, tf.Tensor)
    with pytest.raises(ValueError, match="all scalar values must have the same nesting depth"):  # TF
        tf.ragged.constant([[1], 2])
    with pytest.raises(ValueError, match="ragged_rank=2 requires scalar value depth greater than 2"):  # TF
        tf.ragged.constant([[1, 2], [3]], ragged_rank=2)
    with pytest.raises(ValueError, match="inner values have inconsistent shape"):  # TF
        tf.ragged.constant([[[1, 2]], [[3]]], ragged_rank=1)


def test_constant_value():
    v = tf.ragged.constant_value([[1, 2], [3]])
    assert isinstance(v, tf.ragged.RaggedTensorValue)
    assert v.values.dtype == np.int64 and v.row_splits.tolist() == [0, 2, 3]  # TF
    assert v.to_list() == [[1, 2], [3]]
    assert repr(v) == "tf.RaggedTensorValue(values=array([1, 2, 3]), row_splits=array([0, 2, 3]))"  # TF


def test_factories():
    assert parts(tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2], nrows=4)) == (
        [1, 2, 3, 4], [[0, 2, 2, 4, 4]])
    assert parts(tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2])) == ([1, 2, 3, 4], [[0, 2, 2, 4]])
    assert parts(tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [1, 0, 3])) == ([1, 2, 3, 4], [[0, 1, 1, 4]])
    assert parts(tf.RaggedTensor.from_row_starts([1, 2, 3, 4], [0, 1, 1])) == ([1, 2, 3, 4], [[0, 1, 1, 4]])
    assert parts(tf.RaggedTensor.from_row_limits([1, 2, 3, 4], [1, 1, 4])) == ([1, 2, 3, 4], [[0, 1, 1, 4]])
    nested = tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 1, 2]])
    assert run(nested).to_list() == [[[1], [2]], [[3, 4]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="RaggedTensor"):
        run(tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 1, 3]))
    with pytest.raises(ValueError, match="constructor is private"):
        tf.RaggedTensor(tf.constant([1]), tf.constant([0, 1], tf.int64))


def test_from_tensor_and_sparse():
    assert parts(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0)) == ([1, 2, 3], [[0, 2, 3]])
    assert parts(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3])) == (
        [1, 3, 0, 0], [[0, 1, 4]])  # TF
    assert parts(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]])) == ([1, 2, 0, 3, 0, 0], [[0, 3, 6]])
    assert parts(tf.RaggedTensor.from_tensor([[[1, 0], [0, 0]], [[0, 0], [2, 0]]], padding=[0, 0])) == (
        [[1, 0], [0, 0], [2, 0]], [[0, 1, 3]])  # TF
    assert parts(tf.RaggedTensor.from_tensor(np.arange(8).reshape(2, 2, 2), ragged_rank=2)) == (
        list(range(8)), [[0, 2, 4], [0, 2, 4, 6, 8]])  # TF
    st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [4, 5])
    assert parts(tf.RaggedTensor.from_sparse(st)) == ([1, 2, 3], [[0, 2, 2, 3, 3]])
    with pytest.raises(ValueError, match="Specify lengths or padding, but not both"):
        tf.RaggedTensor.from_tensor([[1]], lengths=[1], padding=0)


# ---- conversion and properties -------------------------------------------------------------------
def test_to_tensor_and_to_sparse():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert run(rt.to_tensor()).tolist() == [[1, 2], [3, 0], [0, 0]]
    assert run(rt.to_tensor(default_value=-1)).tolist() == [[1, 2], [3, -1], [-1, -1]]
    sp = run(rt.to_sparse())
    assert sp.indices.tolist() == [[0, 0], [0, 1], [1, 0]] and sp.dense_shape.tolist() == [3, 2]  # TF
    rt2 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    sp2 = run(rt2.to_sparse())
    assert sp2.indices.tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [2, 0, 0], [2, 0, 1], [2, 0, 2]]  # TF
    assert sp2.dense_shape.tolist() == [3, 2, 3]  # TF
    assert run(rt2.to_tensor()).tolist() == [[[1, 2, 0], [3, 0, 0]], [[0, 0, 0], [0, 0, 0]],
                                             [[4, 5, 6], [0, 0, 0]]]
    rt3 = tf.ragged.constant([[[1, 2]], [], [[4, 5], [6, 7]]], ragged_rank=1)
    assert run(rt3.to_tensor(default_value=[8, 9])).tolist() == [[[1, 2], [8, 9]], [[8, 9], [8, 9]],
                                                                 [[4, 5], [6, 7]]]  # TF
    sp3 = run(rt3.to_sparse())
    assert sp3.indices.tolist() == [[0, 0, 0], [0, 0, 1], [2, 0, 0], [2, 0, 1], [2, 1, 0], [2, 1, 1]]  # TF
    assert sp3.dense_shape.tolist() == [3, 2, 2]  # TF
    assert run(rt.to_tensor(shape=[2, 3])).tolist() == [[1, 2, 0], [3, 0, 0]]
    s = tf.ragged.constant([["a"], ["b", "c"]]).to_tensor()
    assert run(s).tolist() == [[b"a", b""], [b"b", b"c"]]


def test_partitions_and_getitem():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert run(rt.row_lengths()).tolist() == [2, 1, 0]
    assert run(rt.nrows()) == 3
    assert run(rt.value_rowids()).tolist() == [0, 0, 1]
    assert run(rt.row_starts()).tolist() == [0, 2, 3] and run(rt.row_limits()).tolist() == [2, 3, 3]
    assert run(rt[0]).tolist() == [1, 2] and run(rt[-1]).tolist() == [] and run(rt[1]).tolist() == [3]
    rt2 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert run(rt2[0]).to_list() == [[1, 2], [3]]  # TF
    assert run(rt2.row_lengths(axis=2)).to_list() == [[2, 1], [], [3]]
    assert run(rt2.flat_values).tolist() == [1, 2, 3, 4, 5, 6]
    assert len(rt2.nested_row_splits) == 2
    assert run(rt.with_flat_values(rt.flat_values * 2)).to_list() == [[2, 4], [6], []]
    with pytest.raises(ValueError, match="to_list can only be used in eager mode."):  # TF
        rt.to_list()
    assert run(rt[1:]).to_list() == [[3], []]
    assert run(rt[-2:-1]).to_list() == [[3]]
    assert run(rt[:10]).to_list() == [[1, 2], [3], []]
    assert run(rt[2:1]).to_list() == []
    assert run(rt2[1:]).to_list() == [[], [[4, 5, 6]]]
    with pytest.raises(NotImplementedError):
        rt[::2]
    with pytest.raises(NotImplementedError):
        rt[0, 1]


def test_eager_ragged():
    with context.eager_mode():
        rt = tf.ragged.constant([[1, 2], [3], []])
        assert rt.to_list() == [[1, 2], [3], []]
        assert rt.to_tensor().numpy().tolist() == [[1, 2], [3, 0], [0, 0]]
        assert tf.ragged.range([3, 1]).to_list() == [[0, 1, 2], [0]]


def test_spec():
    spec = tf.RaggedTensorSpec([None, None], tf.int32)
    assert spec.ragged_rank == 1 and spec.dtype == tf.int32 and spec.row_splits_dtype == tf.int64
    assert spec.is_compatible_with(tf.ragged.constant([[1], [2, 3]]))
    assert not spec.is_compatible_with(tf.ragged.constant([[1.0]]))
    assert tf.RaggedTensorSpec([2, None, 3], tf.int32, ragged_rank=1).shape.as_list() == [2, None, 3]
    with pytest.raises(ValueError):
        tf.RaggedTensorSpec([None, None], tf.int32, ragged_rank=2)


# ---- tf.ragged functions -------------------------------------------------------------------------
def test_ragged_range():
    assert run(tf.ragged.range([3, 5, 2])).to_list() == [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]
    assert run(tf.ragged.range([0, 5, 8], [3, 3, 12], 2)).to_list() == [[0, 2], [], [8, 10]]
    assert run(tf.ragged.range([5, 0], [0, 5], [-2, 2])).to_list() == [[5, 3, 1], [0, 2, 4]]  # TF
    assert run(tf.ragged.range(0.0, [1.0, 2.0], 0.5)).to_list() == [[0.0, 0.5], [0.0, 0.5, 1.0, 1.5]]  # TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):  # TF
        run(tf.ragged.range([5, 0], [0, 5], 0))


def test_segment_ids():
    assert run(tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5])).tolist() == [0, 0, 0, 2, 2]
    out = run(tf.ragged.row_splits_to_segment_ids(tf.constant([0, 3, 3, 5], tf.int32)))
    assert out.tolist() == [0, 0, 0, 2, 2] and out.dtype == np.int32  # TF
    assert run(tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2])).tolist() == [0, 3, 3, 5]
    assert run(tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2], 5)).tolist() == [0, 3, 3, 5, 5, 5]  # TF
    assert run(tf.ragged.segment_ids_to_row_splits(tf.zeros([0], tf.int64))).tolist() == [0]  # TF


def test_stack():
    v = run(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]))
    assert v.to_list() == [[1, 2], [3]] and v.row_splits.dtype == np.int32  # TF
    assert run(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4], [5, 6]])])).to_list() == [
        [[1, 2]], [[3, 4], [5, 6]]]  # TF
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert run(tf.ragged.stack([rt, tf.constant([[7, 8]])])).to_list() == [[[1, 2], [3], []], [[7, 8]]]  # TF
    assert run(tf.ragged.stack([tf.ragged.constant([[1], [2, 3]])])).to_list() == [[[1], [2, 3]]]  # TF
    with pytest.raises(NotImplementedError, match="axis"):
        tf.ragged.stack([rt], axis=1)


def test_boolean_mask_and_map_flat_values():
    assert run(tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])
               ).to_list() == [[1, 3], [6]]  # TF
    m3 = np.array([[[True, False], [True, True]], [[False, False], [False, True]]])
    assert parts(tf.ragged.boolean_mask(np.arange(8).reshape(2, 2, 2), m3)) == (
        [0, 2, 3, 7], [[0, 2, 4], [0, 1, 3, 3, 4]])  # TF
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert run(tf.ragged.boolean_mask(rt, tf.ragged.constant([[True, False], [True], []]))).to_list() == [
        [1], [3], []]  # TF
    assert run(tf.ragged.boolean_mask([1, 2, 3], [True, False, True])).tolist() == [1, 3]  # TF
    assert run(tf.ragged.map_flat_values(tf.multiply, rt, 10)).to_list() == [[10, 20], [30], []]  # TF


# ---- unicode -------------------------------------------------------------------------------------
def test_unicode_decode():
    out = tf.strings.unicode_decode([b"h\xc3\xa9llo", b"", b"\xffa\xe2\x82b"], "UTF-8")
    assert run(out).to_list() == [[104, 233, 108, 108, 111], [], [65533, 97, 65533, 98]]
    bad = b"\xffa\xe2\x82b\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"
    assert run(tf.strings.unicode_decode([bad], "UTF-8")).to_list() == [[65533, 97, 65533, 98] + [65533] * 9]  # TF
    assert run(tf.strings.unicode_decode([bad], "UTF-8", errors="ignore")).to_list() == [[97, 98]]  # TF
    assert run(tf.strings.unicode_decode([b"\xff"], "UTF-8", replacement_char=63)).to_list() == [[63]]  # TF
    assert run(tf.strings.unicode_decode([b"a\x01\x7f\x85b"], "UTF-8", replace_control_characters=True)
               ).to_list() == [[97, 65533, 127, 65533, 98]]  # TF
    assert run(tf.strings.unicode_decode(["a\u0085\u009f\u00a0".encode()], "UTF-8",
                                         replace_control_characters=True)).to_list() == [[97, 133, 159, 160]]  # TF
    assert run(tf.strings.unicode_decode([["ab", "c"]], "UTF-8")).to_list() == [[[97, 98], [99]]]  # TF
    assert run(tf.strings.unicode_decode("ab", "UTF-8")).tolist() == [97, 98]  # TF
    assert run(tf.strings.unicode_decode(["h\u00e9llo\U0001F600".encode("utf-16-be")], "UTF-16-BE")).to_list() == [
        [104, 233, 108, 108, 111, 128512]]  # TF
    assert run(tf.strings.unicode_decode([b"\x00a\x00"], "UTF-16-BE")).to_list() == [[97, 65533]]  # TF
    assert run(tf.strings.unicode_decode([b"\xd8\x00\x00a", b"\xdc\x00"], "UTF-16-BE")).to_list() == [
        [65533, 97], [65533]]  # TF
    assert run(tf.strings.unicode_decode([b"\x00\x11\x00\x00\x00\x00\x00a\x00\x00"], "UTF-32-BE")).to_list() == [
        [65533, 97, 65533]]  # TF
    assert run(tf.strings.unicode_decode([b"h\xe9"], "ISO-8859-1")).to_list() == [[104, 233]]  # TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting on input string"):  # TF
        run(tf.strings.unicode_decode([b"\xffa"], "UTF-8", errors="strict"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not create converter for input encoding: foo"):
        run(tf.strings.unicode_decode(["a"], "foo"))  # TF
    with pytest.raises(ValueError, match="Rank of `input` must be statically known."):
        tf.strings.unicode_decode(tf.placeholder(tf.string), "UTF-8")


def test_unicode_decode_with_offsets_and_split():
    chars, offsets = run(tf.strings.unicode_decode_with_offsets([b"h\xc3\xa9llo", b"\xffa"], "UTF-8"))
    assert chars.to_list() == [[104, 233, 108, 108, 111], [65533, 97]]  # TF
    assert offsets.to_list() == [[0, 1, 3, 4, 5], [0, 1]]  # TF
    parts_ = run(tf.strings.unicode_split([b"h\xc3\xa9llo", b"\xffa"], "UTF-8"))
    assert parts_.to_list() == [[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"\xef\xbf\xbd", b"a"]]  # TF
    split, offs = run(tf.strings.unicode_split_with_offsets([b"h\xc3\xa9llo", b"\xffa"], "UTF-8"))
    assert split.to_list() == parts_.to_list() and offs.to_list() == [[0, 1, 3, 4, 5], [0, 1]]  # TF
    assert run(tf.strings.unicode_split(["h\u00e9".encode("utf-16-be")], "UTF-16-BE")).to_list() == [
        [b"\x00h", b"\x00\xe9"]]  # TF


def test_unicode_encode_and_transcode():
    rt = tf.ragged.constant([[104, 233], [], [0x1F600, 0x110000, 0xD800]])
    assert run(tf.strings.unicode_encode(rt, "UTF-8")).tolist() == [
        b"h\xc3\xa9", b"", b"\xf0\x9f\x98\x80\xef\xbf\xbd\xef\xbf\xbd"]  # TF
    assert run(tf.strings.unicode_encode(tf.ragged.constant([[104, 0x1F600]]), "UTF-16-BE")).tolist() == [
        b"\x00h\xd8=\xde\x00"]  # TF
    assert run(tf.strings.unicode_encode(tf.ragged.constant([[65, 0x110000, -1]]), "UTF-8", errors="ignore")
               ).tolist() == [b"A"]  # TF
    assert run(tf.strings.unicode_encode(tf.ragged.constant([[0x110000]]), "UTF-8", replacement_char=63)
               ).tolist() == [b"?"]  # TF
    assert run(tf.strings.unicode_encode([[104, 105], [106, 107]], "UTF-8")).tolist() == [b"hi", b"jk"]  # TF
    assert run(tf.strings.unicode_encode([104, 105], "UTF-8")) == b"hi"  # TF
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Code point is out of range for Unicode, or is a surrogate."):  # TF
        run(tf.strings.unicode_encode(tf.ragged.constant([[0x110000]]), "UTF-8", errors="strict"))
    assert run(tf.strings.unicode_transcode([b"h\xc3\xa9llo", b"\xffa"], "UTF-8", "UTF-16-BE")).tolist() == [
        b"\x00h\x00\xe9\x00l\x00l\x00o", b"\xff\xfd\x00a"]  # TF
    assert run(tf.strings.unicode_transcode(["h\u00e9llo".encode("utf-16-be")], "UTF-16-BE", "UTF-8")
               ).tolist() == [b"h\xc3\xa9llo"]  # TF
    with pytest.raises(ValueError, match="'latin1' not in"):  # TF
        tf.strings.unicode_transcode(["a"], "UTF-8", "latin1")


def test_names():
    for name in ["RaggedTensorValue", "boolean_mask", "constant", "constant_value", "map_flat_values", "range",
                 "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack"]:
        assert hasattr(tf.ragged, name), name
    assert tf.compat.v1.RaggedTensor is tf.RaggedTensor and tf.compat.v1.RaggedTensorSpec is tf.RaggedTensorSpec


def test_placeholder_feeds_a_ragged_value():
    rt = tf.ragged.placeholder(tf.int32, ragged_rank=1)
    assert rt.ragged_rank == 1 and rt.dtype == tf.int32 and rt.shape.as_list() == [None, None]
    dense = rt.to_tensor()
    with tf.Session() as s:
        out = s.run(dense, {rt: tf.ragged.constant_value([[1, 2], [3]], dtype=np.int32)})
        assert out.tolist() == [[1, 2], [3, 0]]
        again = s.run(rt, {rt: tf.ragged.constant_value([[4], [], [5, 6]], dtype=np.int32)})
        assert again.to_list() == [[4], [], [5, 6]]
    rt2 = tf.ragged.placeholder(tf.float32, ragged_rank=2, value_shape=[2])
    assert rt2.shape.as_list() == [None, None, None, 2]
    with tf.Session() as s:
        v = tf.ragged.constant_value([[[[1.0, 2.0]]], []], dtype=np.float32, ragged_rank=2)
        assert s.run(rt2, {rt2: v}).to_list() == [[[[1.0, 2.0]]], []]
        with pytest.raises(ValueError, match="ragged_rank"):
            s.run(rt2, {rt2: tf.ragged.constant_value([[1.0]])})


def test_stack_dynamic_partitions():
    v = run(tf.ragged.stack_dynamic_partitions(["a", "b", "c", "d", "e"], [3, 0, 2, 2, 3], 5))
    assert v.to_list() == [[b"b"], [], [b"c", b"d"], [b"a", b"e"], []] and v.row_splits.dtype == np.int32  # TF
    assert run(tf.ragged.stack_dynamic_partitions([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 2)).to_list() == [
        [[3, 4]], [[1, 2], [5, 6]]]  # TF
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    assert run(tf.ragged.stack_dynamic_partitions(rt, [1, 0, 1], 3)).to_list() == [
        [[3]], [[1, 2], [4, 5, 6]], []]  # TF
    assert run(tf.ragged.stack_dynamic_partitions([1, 2], 1, 3)).to_list() == [[], [[1, 2]], []]  # TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="partitions must be less than num_partitions"):  # TF
        run(tf.ragged.stack_dynamic_partitions([1, 2], [0, 3], 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="partitions must be non-negative"):  # TF
        run(tf.ragged.stack_dynamic_partitions([1, 2], [0, -1], 3))


def test_cross_and_cross_hashed():
    a = tf.ragged.constant([["a", "b"], ["c"], []])
    b = tf.ragged.constant([["x", "y"], ["z"], ["w"]])
    c = tf.constant([["1"], ["2"], ["3"]])
    i = tf.ragged.constant([[7, 8], [9], [10]], dtype=tf.int64)
    sp = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"], [3, 2])
    assert run(tf.ragged.cross([a, b])).to_list() == [[b"a_X_x", b"a_X_y", b"b_X_x", b"b_X_y"], [b"c_X_z"],
                                                      []]  # TF
    assert run(tf.ragged.cross([a, b, c])).to_list() == [
        [b"a_X_x_X_1", b"a_X_y_X_1", b"b_X_x_X_1", b"b_X_y_X_1"], [b"c_X_z_X_2"], []]  # TF
    assert run(tf.ragged.cross([a, i])).to_list() == [[b"a_X_7", b"a_X_8", b"b_X_7", b"b_X_8"], [b"c_X_9"], []]  # TF
    assert run(tf.ragged.cross([a, sp])).to_list() == [[b"a_X_p", b"b_X_p"], [b"c_X_q", b"c_X_r"], []]  # TF
    assert run(tf.ragged.cross([c, tf.constant([["u", "v"], ["w", "x"], ["y", "z"]])])).to_list() == [
        [b"1_X_u", b"1_X_v"], [b"2_X_w", b"2_X_x"], [b"3_X_y", b"3_X_z"]]  # TF
    assert run(tf.ragged.cross([tf.ragged.constant([[1]], dtype=tf.int32)])).to_list() == [[b"1"]]  # TF
    assert run(tf.ragged.cross([])).to_list() == []  # TF
    assert run(tf.ragged.cross_hashed([a, b])).to_list() == [
        [1484974617627318892, 3920818148696658747, 3552177129620670004, 5470948523078679805],
        [5890530401397985473], []]  # TF
    assert run(tf.ragged.cross_hashed([a, b], num_buckets=100)).flat_values.tolist() == [92, 47, 4, 5, 80]  # TF
    assert run(tf.ragged.cross_hashed([a, b], num_buckets=1000, hash_key=123)).flat_values.tolist() == [
        161, 714, 917, 455, 868]  # TF
    assert run(tf.ragged.cross_hashed([a, i])).flat_values.tolist() == [
        3509787333349122856, 7821721036908942428, 443223928722139976, 9003972888028304919, 275615255459328304]  # TF
    assert run(tf.ragged.cross_hashed([i])).flat_values.tolist() == [
        7129489355927154095, 8054468179830813262, 7845129889167355796, 33772883479508614]  # TF
    with pytest.raises(ValueError, match="Unexpected dtype for inputs\\[0\\]"):  # TF
        tf.ragged.cross([tf.ragged.constant([[1.0]])])
    with pytest.raises(ValueError, match="inputs must all have the same batch dimension size."):  # TF
        tf.ragged.cross([a, tf.ragged.constant([["x"]])])


def test_bounding_shape():
    rt2 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert run(rt2.bounding_shape()).tolist() == [3, 2, 3]
    assert run(rt2.bounding_shape(axis=1)) == 2
    inner = tf.ragged.constant([[[1, 2]], [], [[4, 5], [6, 7]]], ragged_rank=1)
    out = inner.bounding_shape(out_type=tf.int32)
    assert out.dtype == tf.int32 and run(out).tolist() == [3, 2, 2]
    assert run(tf.ragged.constant([[], []]).bounding_shape()).tolist() == [2, 0]


def test_ragged_fill_empty_rows():
    out = run(tf.ragged_fill_empty_rows(tf.constant([0, 0, 2, 4], tf.int64), tf.constant([1., 2., 3., 4.]),
                                        tf.constant(6, tf.int64), tf.constant(-1.)))
    assert out[0].tolist() == [0, 0, 1, 2, 3, 4, 5]  # TF
    assert out[1].tolist() == [1, 2, -1, 3, -1, 4, -1]  # TF
    assert out[2].tolist() == [False, True, False, True, False, True]  # TF
    assert out[3].tolist() == [0, 1, 3, 5]  # TF
    out = run(tf.ragged_fill_empty_rows(tf.constant([2, 0], tf.int64), tf.constant([1., 2.]),
                                        tf.constant(3, tf.int64), tf.constant(-1.)))
    assert [o.tolist() for o in out] == [[0, 1, 2], [2.0, -1.0, 1.0], [False, True, False], [2, 0]]  # TF
    out = run(tf.ragged_fill_empty_rows(tf.zeros([0], tf.int64), tf.zeros([0]), tf.constant(2, tf.int64),
                                        tf.constant(-1.)))
    assert [o.tolist() for o in out] == [[0, 1], [-1.0, -1.0], [True, True], []]  # TF
    out = run(tf.ragged_fill_empty_rows([1], ["a"], 2, "z"))
    assert out[1].tolist() == [b"z", b"a"]  # TF
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):  # TF
        tf.ragged_fill_empty_rows([1], [[1.0, 2.0]], 2, 0.0)
    for bad in (5, -1):
        with pytest.raises(tf.errors.InvalidArgumentError, match="indices\\(0, 0\\) is invalid: %d >= 2" % bad):  # TF
            run(tf.ragged_fill_empty_rows([bad], [1.0], 2, 0.0))


def test_ragged_fill_empty_rows_gradient():
    d_values, d_default = run(tf.ragged_fill_empty_rows_grad(tf.constant([0, 1, 3, 5], tf.int64),
                                                             tf.constant([1., 2., 3., 4., 5., 6., 7.])))
    assert d_values.tolist() == [1, 2, 4, 6] and d_default == 15  # TF
    v, d = tf.constant([1., 2., 3., 4.]), tf.constant(-1.)
    out = tf.ragged_fill_empty_rows(tf.constant([0, 0, 2, 4], tf.int64), v, tf.constant(6, tf.int64), d)
    gv, gd = run(tf.gradients(out[1] * tf.range(1., 8.), [v, d]))
    assert gv.tolist() == [1, 2, 4, 6] and gd == 15  # TF


def test_boolean_mask_selects_ragged_rows():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert run(tf.ragged.boolean_mask(rt, [True, False, True])).to_list() == [[1, 2], []]  # TF
    rt2 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert run(tf.ragged.boolean_mask(rt2, [True, False, True])).to_list() == [[[1, 2], [3]], [[4, 5, 6]]]


def test_operators():
    rt = tf.ragged.constant([[1, 2], [3], []])
    cases = [(rt + 1, [[2, 3], [4], []]), (10 - rt, [[9, 8], [7], []]), (rt * rt, [[1, 4], [9], []]),
             (rt / 2, [[0.5, 1.0], [1.5], []]), (rt < 2, [[True, False], [False], []]), (-rt, [[-1, -2], [-3], []]),
             (abs(-rt), [[1, 2], [3], []]), (rt ** 2, [[1, 4], [9], []]), (rt % 2, [[1, 0], [1], []]),
             (7 // rt, [[7, 3], [2], []]), ((rt < 3) & (rt > 1), [[False, True], [False], []]),
             (~(rt < 2), [[False, True], [True], []])]  # TF
    for t, want in cases:
        assert run(t).to_list() == want
    assert (rt / 2).dtype == tf.float64  # TF
    other = tf.ragged.constant([[1, 2], [3], []])
    assert run(rt + other).to_list() == [[2, 4], [6], []]
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF
        run(rt + tf.ragged.constant([[1, 2], [3, 4], []]))
    with pytest.raises(NotImplementedError):
        rt + tf.constant([1, 2, 3])


def test_eager_checks_and_operators():
    with context.eager_mode():
        rt = tf.ragged.constant([[1, 2], [3], []])
        assert (rt + tf.ragged.constant([[1, 2], [3], []])).to_list() == [[2, 4], [6], []]
        with pytest.raises(tf.errors.InvalidArgumentError, match="identical ragged splits"):
            rt + tf.ragged.constant([[1], [2, 3], []])
        assert tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]).to_list() == [[1, 2], [3]]
        with pytest.raises(tf.errors.InvalidArgumentError, match="nvals"):
            tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 1])
        assert tf.ragged.stack_dynamic_partitions([1, 2, 3], [1, 0, 1], 2).to_list() == [[2], [1, 3]]
        with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
            tf.ragged.stack_dynamic_partitions([1, 2], [0, -1], 3)
        assert tf.ragged.cross([rt, tf.ragged.constant([["a"], ["b"], ["c"]])]).to_list() == [
            [b"1_X_a", b"2_X_a"], [b"3_X_b"], []]
        assert rt.bounding_shape().numpy().tolist() == [3, 2]
