"""Summary ops: the Summary protocol buffers they return (tags, values, images, histograms, audio, text),
their names and collections, merge/merge_all, and their error paths."""

import io
import math
import sys
import wave

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.summary_pb2")
PIL_Image = pytest.importorskip("PIL.Image")


def _run(fetch, feed=None):
    with tf.Session() as sess:
        return sess.run(fetch, feed)


def _parse(serialized):
    assert isinstance(serialized, bytes)
    return tf.Summary.FromString(serialized)


def _png_pixels(encoded):
    img = PIL_Image.open(io.BytesIO(encoded))
    return img.mode, np.asarray(img)


# ---- scalar ------------------------------------------------------------------------------------
def test_scalar_value_tag_name_and_collection():
    loss = tf.placeholder(tf.float64, [])
    s = tf.summary.scalar("loss", loss)
    assert s.dtype == tf.string and s.shape.as_list() == []
    assert s.op.name == "loss" and s.op.type == "ScalarSummary"
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [s]
    parsed = _parse(_run(s, {loss: 1.0 / 3}))
    assert [v.tag for v in parsed.value] == ["loss"]
    assert parsed.value[0].simple_value == np.float32(1.0 / 3)


@pytest.mark.parametrize("name,family,expected_tag,expected_op", [
    ("loss", None, "loss", "loss"),
    ("a b:c", None, "a_b_c", "a_b_c"),
    ("/lead", None, "lead", "lead"),
    ("acc", "train", "train/train/acc", "train/acc"),
])
def test_scalar_tags(name, family, expected_tag, expected_op):
    s = tf.summary.scalar(name, tf.constant(2, tf.int32), family=family)
    assert s.op.name == expected_op
    parsed = _parse(_run(s))
    assert [(v.tag, v.simple_value) for v in parsed.value] == [(expected_tag, 2.0)]


def test_scalar_names_are_uniquified_and_scoped():
    with tf.name_scope("outer"):
        a = tf.summary.scalar("x", 1.0)
        b = tf.summary.scalar("x", 2.0)
    assert (a.op.name, b.op.name) == ("outer/x", "outer/x_1")
    merged = _parse(_run(tf.summary.merge([a, b])))
    assert [(v.tag, v.simple_value) for v in merged.value] == [("outer/x", 1.0), ("outer/x_1", 2.0)]


def test_scalar_custom_collections():
    s = tf.summary.scalar("x", 1.0, collections=["mine"])
    assert tf.get_collection("mine") == [s]
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == []
    assert tf.summary.merge_all() is None
    assert _parse(_run(tf.summary.merge_all(key="mine"))).value[0].simple_value == 1.0


def test_scalar_rejects_non_scalar_at_run_time():
    s = tf.summary.scalar("v", tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"tags and values not the same shape: \[\] != \[2\] "
                                                             r"\(tag 'v'\)"):
        _run(s)


def test_scalar_rejects_bool():
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        tf.summary.scalar("b", tf.constant(True))


# ---- image -------------------------------------------------------------------------------------
def test_image_uint8_pixels_unchanged_for_1_3_4_channels():
    rng = np.random.RandomState(0)
    for channels, mode in [(1, "L"), (3, "RGB"), (4, "RGBA")]:
        tf.reset_default_graph()
        data = rng.randint(0, 256, size=[2, 5, 7, channels]).astype(np.uint8)
        parsed = _parse(_run(tf.summary.image("img", tf.constant(data))))
        assert [v.tag for v in parsed.value] == ["img/image/0", "img/image/1"]
        for i, v in enumerate(parsed.value):
            assert (v.image.height, v.image.width, v.image.colorspace) == (5, 7, channels)
            got_mode, pixels = _png_pixels(v.image.encoded_image_string)
            assert got_mode == mode
            np.testing.assert_array_equal(pixels.reshape(5, 7, channels), data[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_image_float_normalization(dtype):
    positive = np.array([0.0, 0.5, 1.0, 2.0]).reshape(1, 2, 2, 1)        # scale 255/2
    mixed = np.array([-1.0, 0.0, 0.5, 0.25]).reshape(1, 2, 2, 1)        # scale 127/1, offset 128
    tiny = np.full([1, 2, 2, 1], 1e-7)                                   # max below 1e-6: all black
    data = np.concatenate([positive, mixed, tiny]).astype(dtype)
    parsed = _parse(_run(tf.summary.image("f", tf.constant(data), max_outputs=5)))
    got = [_png_pixels(v.image.encoded_image_string)[1].reshape(-1).tolist() for v in parsed.value]
    assert got == [[0, 63, 127, 255], [1, 128, 191, 159], [0, 0, 0, 0]]


def test_image_non_finite_pixels_are_red_and_ignored_for_scaling():
    data = np.array([[[0.0, 0.0, 0.0], [np.nan, 0.0, 0.0]], [[0.5, 0.25, 1.0], [0.0, np.inf, 0.0]]], np.float32)
    parsed = _parse(_run(tf.summary.image("nf", tf.constant(data[None]), max_outputs=1)))
    assert [v.tag for v in parsed.value] == ["nf/image"]
    pixels = _png_pixels(parsed.value[0].image.encoded_image_string)[1]
    np.testing.assert_array_equal(pixels, [[[0, 0, 0], [255, 0, 0]], [[127, 63, 255], [255, 0, 0]]])


def test_image_max_outputs_and_small_batch():
    x = tf.placeholder(tf.float32, [None, 4, 4, 3])
    s = tf.summary.image("im", x, max_outputs=3)
    assert [v.tag for v in _parse(_run(s, {x: np.ones([2, 4, 4, 3])})).value] == ["im/image/0", "im/image/1"]
    assert [v.tag for v in _parse(_run(s, {x: np.ones([5, 4, 4, 3])})).value] == [
        "im/image/0", "im/image/1", "im/image/2"]
    assert _parse(_run(s, {x: np.ones([0, 4, 4, 3])})).value == []


def test_image_errors():
    with pytest.raises(TypeError, match="DataType int32 not in list"):
        tf.summary.image("i", tf.zeros([1, 2, 2, 1], tf.int32))
    with pytest.raises(ValueError, match="less than minimum 1"):
        tf.summary.image("i", tf.zeros([1, 2, 2, 1]), max_outputs=0)
    x = tf.placeholder(tf.float32)
    s = tf.summary.image("i", x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Tensor must be 4-D with last dim 1, 3, or 4, not "
                                                             r"\[1,2,2,2\]"):
        _run(s, {x: np.zeros([1, 2, 2, 2])})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"not \[2,2\]"):
        _run(s, {x: np.zeros([2, 2])})


# ---- histogram ---------------------------------------------------------------------------------
def _reference_limits():
    limits, v = [], 1e-12
    while v < 1e20:
        limits.append(v)
        v *= 1.1
    limits.append(sys.float_info.max)
    return [-x for x in limits[::-1]] + [0.0] + limits


def _reference_histogram(values):
    """TF's histogram::Histogram, one value at a time."""
    limits = _reference_limits()
    buckets = [0.0] * len(limits)
    lo, hi, total, squares = limits[-1], -sys.float_info.max, 0.0, 0.0
    for x in values:
        b = 0
        while b < len(limits) and limits[b] <= x:
            b += 1
        buckets[b] += 1
        lo, hi = min(lo, x), max(hi, x)
        total += x
        squares += x * x
    out_limits, out_counts, i = [], [], 0
    while i < len(buckets):
        end, count, j = limits[i], buckets[i], i + 1
        while count == 0.0 and j < len(buckets) and buckets[j] == 0.0:
            end, count, j = limits[j], buckets[j], j + 1
        out_limits.append(end)
        out_counts.append(count)
        i = j
    return lo, hi, float(len(values)), total, squares, out_limits, out_counts


def test_default_bucket_limits():
    from tensorweave.ops.summary_ops import DEFAULT_BUCKET_LIMITS
    assert DEFAULT_BUCKET_LIMITS.tolist() == _reference_limits()
    assert DEFAULT_BUCKET_LIMITS.size == 1551
    assert DEFAULT_BUCKET_LIMITS[775] == 0.0 and DEFAULT_BUCKET_LIMITS[776] == 1e-12


@pytest.mark.parametrize("values", [
    np.random.RandomState(1).randn(50).astype(np.float32),
    np.array([0.0, 0.0, 1.0, -1.0, 1e-12, 1.1e-12, 5e30, -5e30], np.float64),
    np.arange(-5, 20, dtype=np.int32).reshape(5, 5),
    np.array([7], np.uint8),
    np.zeros([0], np.float32),
])
def test_histogram_matches_tf_histogram(values):
    h = _parse(_run(tf.summary.histogram("h", tf.constant(values)))).value[0]
    assert h.tag == "h"
    lo, hi, num, total, squares, limits, counts = _reference_histogram(values.reshape(-1).astype(np.float64).tolist())
    assert (h.histo.min, h.histo.max, h.histo.num) == (lo, hi, num)
    assert math.isclose(h.histo.sum, total, rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(h.histo.sum_squares, squares, rel_tol=1e-12)
    assert list(h.histo.bucket_limit) == limits
    assert list(h.histo.bucket) == counts


@pytest.mark.parametrize("values,lo,hi", [([0.0, -0.0, 1.0], 0.0, 1.0), ([-0.0, 0.0], -0.0, -0.0),
                                           ([0.0, -0.0], 0.0, 0.0), ([-1.0, -0.0, 0.0], -1.0, -0.0)])
def test_histogram_min_and_max_keep_the_first_of_signed_zeros(values, lo, hi):
    """TF's Histogram::Add takes a value only when it is smaller (greater) than the one held."""
    h = _parse(_run(tf.summary.histogram("h", tf.constant(values, tf.float32)))).value[0].histo
    assert (h.min, h.max) == (lo, hi)
    assert (math.copysign(1, h.min), math.copysign(1, h.max)) == (math.copysign(1, lo), math.copysign(1, hi))


@pytest.mark.parametrize("bad,kind", [(np.nan, "Nan"), (np.inf, "Infinity"), (-np.inf, "Infinity")])
def test_histogram_rejects_non_finite(bad, kind):
    s = tf.summary.histogram("weights", tf.constant([1.0, bad]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="%s in summary histogram for: weights" % kind):
        _run(s)


# ---- text and tensor_summary -------------------------------------------------------------------
def test_text_summary():
    s = tf.summary.text("notes", tf.constant([["a", "b"], ["c", "d"]]))
    v = _parse(_run(s)).value[0]
    assert v.tag == "notes"
    assert v.metadata.plugin_data.plugin_name == "text"
    assert v.tensor.dtype == tf.string.as_datatype_enum
    assert [d.size for d in v.tensor.tensor_shape.dim] == [2, 2]
    assert list(v.tensor.string_val) == [b"a", b"b", b"c", b"d"]


def test_text_rejects_non_string():
    with pytest.raises(ValueError, match="Expected tensor Const:0 to have dtype string, got <dtype: 'float32'>"):
        tf.summary.text("t", tf.constant(1.0))


def test_tensor_summary_numeric_content_and_metadata():
    data = np.arange(6, dtype=np.int64).reshape(2, 3)
    s = tf.summary.tensor_summary("t", tf.constant(data), summary_description="desc", display_name="shown")
    v = _parse(_run(s)).value[0]
    assert (v.tag, v.metadata.summary_description, v.metadata.display_name) == ("t", "desc", "shown")
    assert v.tensor.dtype == tf.int64.as_datatype_enum
    np.testing.assert_array_equal(np.frombuffer(v.tensor.tensor_content, "<i8").reshape(2, 3), data)


# ---- audio -------------------------------------------------------------------------------------
def _wav(encoded):
    with wave.open(io.BytesIO(encoded)) as w:
        frames = np.frombuffer(w.readframes(w.getnframes()), "<i2")
        return w.getnchannels(), w.getframerate(), w.getsampwidth(), frames.reshape(-1, w.getnchannels())


def test_audio_summary_3d():
    data = np.array([[[0.0, 1.0], [-1.0, 0.5], [2.0, -2.0]],
                     [[0.25, -0.25], [1e-5, -1.6e-5], [0.0, 0.0]]], np.float32)
    parsed = _parse(_run(tf.summary.audio("snd", tf.constant(data), 16000.4)))
    assert [v.tag for v in parsed.value] == ["snd/audio/0", "snd/audio/1"]
    a = parsed.value[0].audio
    assert (a.sample_rate, a.num_channels, a.length_frames, a.content_type) == (np.float32(16000.4), 2, 3,
                                                                                 "audio/wav")
    channels, rate, width, frames = _wav(a.encoded_audio_string)
    assert (channels, rate, width) == (2, 16000, 2)
    np.testing.assert_array_equal(frames, [[0, 32767], [-32768, 16384], [32767, -32768]])
    # 1e-5 * 32768 = 0.33 -> 0; -1.6e-5 * 32768 = -0.52 -> -1 (halves away from zero).
    np.testing.assert_array_equal(_wav(parsed.value[1].audio.encoded_audio_string)[3],
                                  [[8192, -8192], [0, -1], [0, 0]])


def test_audio_summary_2d_single_output():
    parsed = _parse(_run(tf.summary.audio("mono", tf.constant([[0.5, -0.5, 0.0]]), 8000, max_outputs=1)))
    assert [v.tag for v in parsed.value] == ["mono/audio"]
    channels, rate, _, frames = _wav(parsed.value[0].audio.encoded_audio_string)
    assert (channels, rate) == (1, 8000)
    np.testing.assert_array_equal(frames.reshape(-1), [16384, -16384, 0])


def test_audio_errors():
    with pytest.raises(TypeError, match="DataType float64 not in list"):
        tf.summary.audio("a", tf.constant([[0.0]], tf.float64), 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="sample_rate must be > 0"):
        _run(tf.summary.audio("a", tf.constant([[0.0]]), 0.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"must be 2-D or 3-D, got \[3\]"):
        _run(tf.summary.audio("b", tf.constant([0.0, 0.1, 0.2]), 1.0))


# ---- merge -------------------------------------------------------------------------------------
def test_merge_and_merge_all():
    a = tf.summary.scalar("a", 1.0)
    b = tf.summary.histogram("b", [1.0, 2.0])
    merged = tf.summary.merge_all()
    assert merged.op.name == "Merge/MergeSummary" and merged.op.type == "MergeSummary"
    assert merged.dtype == tf.string and merged.shape.as_list() == []
    parsed = _parse(_run(merged))
    assert [v.tag for v in parsed.value] == ["a", "b"]
    assert parsed.value[0].simple_value == 1.0 and parsed.value[1].histo.num == 2.0
    named = tf.summary.merge([a, b], collections=["merged"], name="all")
    # As TF: the op is created under name_scope(name), with name=name.
    assert named.op.name == "all/all" and tf.get_collection("merged") == [named]
    # Summaries given as a vector of serialized protos are merged too.
    vector = tf.summary.merge([tf.constant(_run([a, b]))])
    assert [v.tag for v in _parse(_run(vector)).value] == ["a", "b"]


def test_merge_errors():
    a = tf.summary.scalar("a", 1.0)
    dup = tf.summary.merge([a, a])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag a found in summary inputs"):
        _run(dup)
    garbage = tf.summary.merge([tf.constant(b"\xff\xff\xff")])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse one of the summary inputs"):
        _run(garbage)
    with pytest.raises(ValueError, match="shorter than minimum length 1"):
        tf.summary.merge([])
    with pytest.raises(TypeError, match="DataType float32 not in list"):
        tf.summary.merge([tf.constant(1.0)])


def test_merge_all_empty_and_scope():
    assert tf.summary.merge_all() is None
    with tf.name_scope("train"):
        tf.summary.scalar("x", 1.0)
    tf.summary.scalar("y", 2.0)
    parsed = _parse(_run(tf.summary.merge_all(scope="train")))
    assert [v.tag for v in parsed.value] == ["train/x"]


# ---- message classes ---------------------------------------------------------------------------
def test_message_classes():
    s = tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.5)])
    assert isinstance(s, tf.Summary) and not isinstance(s, tf.Event)
    assert tf.summary.Summary.FromString(s.SerializeToString()) == s
    e = tf.Event(wall_time=1.5, step=3, summary=s)
    back = tf.Event.FromString(e.SerializeToString())
    assert (back.step, back.wall_time, back.summary.value[0].tag) == (3, 1.5, "loss")
    log = tf.SessionLog(status=tf.SessionLog.CHECKPOINT, checkpoint_path="/ckpt")
    assert (log.status, tf.SessionLog.START, tf.SessionLog.STOP) == (3, 1, 2)
    h = tf.HistogramProto(min=0.0, max=1.0, num=2)
    assert tf.Summary.Value(tag="h", histo=h).histo.num == 2
    assert tf.SummaryMetadata(display_name="d").display_name == "d"
    assert tf.summary.TaggedRunMetadata(tag="t").tag == "t"
    assert tf.summary.SummaryDescription(type_hint="x").type_hint == "x"
