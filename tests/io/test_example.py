"""tf.train.Example & co: TensorFlow's protobuf wire format (golden bytes, hand-decoded), round trips."""

import struct
import sys

import pytest

import tensorweave as tf
from tensorweave.ops import example_proto as example_module

pytest.importorskip("google.protobuf")

# Example{features{feature{key:"a" value{int64_list{value:[1, 2, 3]}}}}}
GOLDEN_INT64 = bytes.fromhex("0a0e" "0a0c" "0a0161" "1207" "1a05" "0a03010203")
# Example{features{feature{key:"f" value{float_list{value:[1.5, -2.0]}}}}}
GOLDEN_FLOAT = bytes.fromhex("0a13" "0a11" "0a0166" "120c" "120a" "0a08" "0000c03f" "000000c0")
# Example{features{feature{key:"b" value{bytes_list{value:["hi", ""]}}}}}
GOLDEN_BYTES = bytes.fromhex("0a0f" "0a0d" "0a0162" "1208" "0a06" "0a026869" "0a00")


def _varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _fields(buf):
    """Hand decoder of the protobuf wire format: [(field number, wire type, value bytes or int)]."""
    out, i = [], 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 2:
            n, i = _varint(buf, i)
            value, i = buf[i:i + n], i + n
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise AssertionError("unexpected wire type %d" % wire)
        out.append((number, wire, value))
    return out


def _decode_example(buf):
    """Example bytes -> {key: (list kind field number, raw list payload)}, by hand."""
    (n, w, features), = _fields(buf)
    assert (n, w) == (1, 2)  # Example.features
    result = {}
    for n, w, entry in _fields(features):
        assert (n, w) == (1, 2)  # Features.feature (map entry)
        (kn, _, key), (vn, _, value) = _fields(entry)
        assert (kn, vn) == (1, 2)  # map entry key = 1, value = 2
        (kind, w, payload), = _fields(value)
        assert w == 2
        result[key.decode()] = (kind, payload)
    return result


def test_golden_int64_example_bytes():
    ex = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2, 3]))}))
    assert ex.SerializeToString() == GOLDEN_INT64
    kind, payload = _decode_example(GOLDEN_INT64)["a"]
    assert kind == 3  # Feature.int64_list
    (n, w, packed), = _fields(payload)
    assert (n, w) == (1, 2)  # Int64List.value, packed
    values, i = [], 0
    while i < len(packed):
        v, i = _varint(packed, i)
        values.append(v)
    assert values == [1, 2, 3]


def test_golden_float_example_bytes():
    ex = tf.train.Example()
    ex.features.feature["f"].float_list.value.extend([1.5, -2.0])
    assert ex.SerializeToString() == GOLDEN_FLOAT
    kind, payload = _decode_example(GOLDEN_FLOAT)["f"]
    assert kind == 2  # Feature.float_list
    (n, w, packed), = _fields(payload)
    assert (n, w) == (1, 2)
    assert struct.unpack("<2f", packed) == (1.5, -2.0)


def test_golden_bytes_example_bytes():
    ex = tf.train.Example(features=tf.train.Features(feature={
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"hi", b""]))}))
    assert ex.SerializeToString() == GOLDEN_BYTES
    kind, payload = _decode_example(GOLDEN_BYTES)["b"]
    assert kind == 1  # Feature.bytes_list
    assert [v for _, _, v in _fields(payload)] == [b"hi", b""]


def test_negative_int64_is_ten_byte_varint():
    ex = tf.train.Example()
    ex.features.feature["n"].int64_list.value.append(-1)
    kind, payload = _decode_example(ex.SerializeToString())["n"]
    (_, _, packed), = _fields(payload)
    assert packed == b"\xff" * 9 + b"\x01"


@pytest.mark.parametrize("golden", [GOLDEN_INT64, GOLDEN_FLOAT, GOLDEN_BYTES])
def test_from_string_round_trip(golden):
    ex = tf.train.Example.FromString(golden)
    assert isinstance(ex, tf.train.Example)
    assert ex.SerializeToString() == golden
    again = tf.train.Example()
    again.ParseFromString(golden)
    assert again == ex


def test_unpacked_repeated_values_are_read():
    # A writer may emit non-packed repeated int64 (tag 0x08 per value); parsers must accept it.
    int64_list = bytes.fromhex("0801" "0802")
    feature = b"\x1a" + bytes([len(int64_list)]) + int64_list
    entry = b"\x0a\x01a\x12" + bytes([len(feature)]) + feature
    features = b"\x0a" + bytes([len(entry)]) + entry
    ex = tf.train.Example.FromString(b"\x0a" + bytes([len(features)]) + features)
    assert list(ex.features.feature["a"].int64_list.value) == [1, 2]


def test_sequence_example_round_trip():
    seq = tf.train.SequenceExample(
        context=tf.train.Features(feature={"id": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x"]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"t": tf.train.FeatureList(feature=[
            tf.train.Feature(float_list=tf.train.FloatList(value=[1.0])),
            tf.train.Feature(float_list=tf.train.FloatList(value=[2.0, 3.0]))])}))
    data = seq.SerializeToString()
    # context = 1, feature_lists = 2
    assert [(n, w) for n, w, _ in _fields(data)] == [(1, 2), (2, 2)]
    back = tf.train.SequenceExample.FromString(data)
    assert [list(f.float_list.value) for f in back.feature_lists.feature_list["t"].feature] == [[1.0], [2.0, 3.0]]
    assert back.context.feature["id"].bytes_list.value == [b"x"]


def test_messages_have_tensorflow_names_and_text_format():
    from google.protobuf import text_format
    assert tf.train.Example.DESCRIPTOR.full_name == "tensorflow.Example"
    assert tf.train.Feature.DESCRIPTOR.oneofs_by_name["kind"].fields[2].name == "int64_list"
    ex = text_format.Parse('features { feature { key: "a" value { int64_list { value: [1, 2, 3] } } } }',
                           tf.train.Example())
    assert ex.SerializeToString() == GOLDEN_INT64
    assert ex.features.feature["a"].WhichOneof("kind") == "int64_list"


def test_stand_ins_forward_to_message_classes():
    classes = example_module.message_classes()
    ex = tf.train.Example()
    assert type(ex) is classes["Example"]
    assert isinstance(ex, tf.train.Example) and not isinstance(ex, tf.train.Feature)
    assert not isinstance(b"bytes", tf.train.Example)
    assert issubclass(classes["Feature"], tf.train.Feature)
    assert tf.train.BytesList.FromString(b"\x0a\x01z").value == [b"z"]
    assert "tensorflow.Example" in repr(tf.train.Example)


def test_missing_protobuf_names_the_extra(monkeypatch):
    monkeypatch.setattr(example_module, "_classes", {})
    monkeypatch.setitem(sys.modules, "google.protobuf", None)
    with pytest.raises(ImportError, match=r"tf.train.Example needs protobuf: pip install 'tensorweave\[data\]'"):
        tf.train.Example()


def test_messages_pickle_and_copy():
    import copy
    import pickle
    ex = tf.train.Example.FromString(GOLDEN_INT64)
    assert pickle.loads(pickle.dumps(ex)) == ex
    assert copy.deepcopy(ex).SerializeToString() == GOLDEN_INT64
    assert type(ex).__module__ == "tensorweave.io._messages"
