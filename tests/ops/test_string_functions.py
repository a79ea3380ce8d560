"""`tf.strings` and the top-level string names against values printed by TensorFlow 2.21 (CPU,
`tf.compat.v1` graph mode): the comment "TF" marks a recorded value. Op-level checks of every
string op (references, shapes, eager) are in tests/ops/op_table/rows_strings.py."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context


def run(t, feed=None):
    with tf.Session(graph=t.graph if hasattr(t, "graph") else None) as s:
        return s.run(t, feed)


def _b(values):
    return [v if isinstance(v, bytes) else v.encode() for v in values]


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _err(fn, cls=tf.errors.InvalidArgumentError):
    with pytest.raises(cls) as e:
        run(fn()) if cls is tf.errors.InvalidArgumentError else fn()
    return str(e.value)


# ---- length, case, strip -------------------------------------------------------------------------
def test_length_bytes_and_utf8_chars():
    x = ["Hello World", "  caf\u00e9 ", "", "\xc3abc"]
    assert run(tf.strings.length(x)).tolist() == [11, 8, 0, 5]  # TF
    assert run(tf.strings.length(x, unit="UTF8_CHAR")).tolist() == [11, 7, 0, 4]  # TF
    assert run(tf.strings.length([b"\xff\xfeab", b"\xc3"], unit="UTF8_CHAR")).tolist() == [4, 1]  # TF
    assert run(tf.strings.length("abc")) == 3
    with pytest.raises(ValueError):
        tf.strings.length(["a"], unit="CHAR")


def test_lower_upper():
    assert run(tf.strings.lower(["HeLLo \xc3\x89", "\u00c9COLE"])).tolist() == [
        b"hello \xc3\x83\xc2\x89", b"\xc3\x89cole"]  # TF: ASCII only without an encoding
    assert run(tf.strings.lower(["HeLLo", "\u00c9COLE"], encoding="utf-8")).tolist() == [b"hello",
                                                                                     b"\xc3\xa9cole"]  # TF
    assert run(tf.strings.upper(["h\u00e9llo", "\u00df"], encoding="utf-8")).tolist() == [b"H\xc3\x89LLO",
                                                                                       b"SS"]  # TF
    assert run(tf.strings.upper(["h\u00e9llo", "abc"])).tolist() == [b"H\xc3\xa9LLO", b"ABC"]  # TF
    assert run(tf.strings.lower([b"A\xffB"], encoding="utf-8")).tolist() == [b"a\xef\xbf\xbdb"]  # TF
    with pytest.raises(TypeError, match="expected type of string"):
        tf.strings.lower(tf.constant([1.0]))


def test_strip():
    assert run(tf.strings.strip([" \t a b \n", "\x0b x \x0c", "\r\n"])).tolist() == [b"a b", b"x", b""]  # TF


# ---- substr --------------------------------------------------------------------------------------
def test_substr_values_and_broadcasting():
    assert run(tf.strings.substr(["Hello", "World"], 1, 3)).tolist() == [b"ell", b"orl"]  # TF
    out = tf.strings.substr([["ten", "eleven"], ["abc", "defg"]], [1, 2], [3, 1])
    assert out.shape.as_list() == [2, 2]
    assert run(out).tolist() == [[b"en", b"e"], [b"bc", b"f"]]  # TF
    assert run(tf.strings.substr(["Hello"], -2, 5)).tolist() == [b"lo"]  # TF
    assert run(tf.strings.substr(["Hello"], -5, 2)).tolist() == [b"He"]  # TF
    assert run(tf.strings.substr(["Hello"], 5, 1)).tolist() == [b""]  # TF
    assert run(tf.strings.substr(["Hello"], 1, -1)).tolist() == [b"ello"]  # TF
    assert run(tf.strings.substr([["ab", "cd"], ["ef", "gh"]], 1, 1)).tolist() == [[b"b", b"d"], [b"f", b"h"]]  # TF
    assert run(tf.substr(["Hello"], 1, 2)).tolist() == [b"el"]


def test_substr_utf8():
    assert run(tf.strings.substr(["h\u00e9llo"], 1, 2, unit="UTF8_CHAR")).tolist() == [b"\xc3\xa9l"]  # TF
    assert run(tf.strings.substr(["h\u00e9llo"], -3, 2, unit="UTF8_CHAR")).tolist() == [b"ll"]  # TF
    assert run(tf.strings.substr(["h\u00e9llo"], -5, 2, unit="UTF8_CHAR")).tolist() == [b"h\xc3\xa9"]  # TF
    assert run(tf.strings.substr(["h\u00e9llo"], 1, -1, unit="UTF8_CHAR")).tolist() == [b""]  # TF
    assert run(tf.strings.substr(["h\u00e9llo"], 5, 2, unit="UTF8_CHAR")).tolist() == [b""]  # TF


def test_substr_errors():
    assert "pos 6 out of range for string b'Hello' at index 0" in _err(
        lambda: tf.strings.substr(["Hello"], 6, 1))  # TF
    assert "pos -6 out of range for string b'Hello' at index 0" in _err(
        lambda: tf.strings.substr(["Hello"], -6, 2))  # TF
    assert "pos 7 out of range for string at index 0" in _err(
        lambda: tf.strings.substr(["h\u00e9llo"], 7, 2, unit="UTF8_CHAR"))  # TF
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):  # TF
        tf.strings.substr(["ab", "cd"], [1, 2, 3], [1, 1, 1])
    p = tf.placeholder(tf.int32)
    out = tf.strings.substr(["ab", "cd"], p, p)
    with pytest.raises(tf.errors.InvalidArgumentError):
        run(out, {p: [1, 1, 1]})


# ---- regular expressions -------------------------------------------------------------------------
def test_regex_replace():
    out = tf.strings.regex_replace(["aaa bab", "xyz"], "a(b)?", r"<\1>")
    assert out.op.type == "StaticRegexReplace"
    assert run(out).tolist() == [b"<><><> b<b>", b"xyz"]  # TF
    assert run(tf.strings.regex_replace(["aaa bab", "xyz"], "a+", r"[\0]", replace_global=False)).tolist() == [
        b"[aaa] bab", b"xyz"]  # TF
    dyn = tf.strings.regex_replace(["aaa bab"], tf.constant("b"), "X")
    assert dyn.op.type == "RegexReplace"
    assert run(dyn).tolist() == [b"aaa XaX"]  # TF
    assert run(tf.regex_replace(["abc"], "x*", "-")).tolist() == [b"-a-b-c-"]  # TF
    assert run(tf.strings.regex_replace(["a\nb"], ".", "X")).tolist() == [b"X\nX"]  # TF
    assert run(tf.strings.regex_replace(["abc"], "(b)", r"\2")).tolist() == [b"abc"]  # TF: unknown group
    assert run(tf.strings.regex_replace(["abc"], "b", r"\\x")).tolist() == [b"a\\xc"]  # TF
    assert run(tf.strings.regex_replace(["abc"], "b", r"\x")).tolist() == [b"ac"]  # TF: bad escape ends it
    assert "Invalid pattern: a(" in _err(lambda: tf.strings.regex_replace(["aaa"], "a(", "X"))  # TF


def test_regex_full_match():
    assert run(tf.strings.regex_full_match(["abc", "ab"], tf.constant("a.c"))).tolist() == [True, False]  # TF
    static = tf.strings.regex_full_match(["abc", "ab"], "ab")
    assert static.op.type == "StaticRegexFullMatch"
    assert run(static).tolist() == [False, True]
    assert "Invalid pattern: a(" in _err(lambda: tf.strings.regex_full_match(["abc"], tf.constant("a(")))  # TF


# ---- reduce_join / join / unsorted_segment_join --------------------------------------------------
def test_reduce_join():
    a = [["a", "b"], ["c", "d"]]
    assert run(tf.strings.reduce_join(a)) == b"abcd"  # TF
    assert run(tf.reduce_join(a, [0, 1])) == b"acbd"  # TF's documented order
    assert run(tf.strings.reduce_join(a, axis=0, separator="-")).tolist() == [b"a-c", b"b-d"]  # TF
    kd = tf.strings.reduce_join(a, axis=-1, keep_dims=True)
    assert kd.shape.as_list() == [2, 1]
    assert run(kd).tolist() == [[b"ab"], [b"cd"]]  # TF
    assert run(tf.strings.reduce_join(a, axis=[])).tolist() == [[b"a", b"b"], [b"c", b"d"]]  # TF
    assert run(tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1)).tolist() == [b"", b""]  # TF
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions."):  # TF
        tf.reduce_join([["a", "b"]], axis=2)
    assert "Duplicate reduction dimension -1" in _err(
        lambda: tf.strings.reduce_join([["a", "b"]], axis=[1, -1]))  # TF
    p = tf.placeholder(tf.string, [None, 3])
    assert tf.strings.reduce_join(p, axis=1).shape.as_list() == [None]


def test_join_and_string_join():
    assert run(tf.strings.join([["a", "b"], "x"], separator="-")).tolist() == [b"a-x", b"b-x"]  # TF
    assert run(tf.string_join(["a", "b"])) == b"ab"


def test_unsorted_segment_join():
    out = tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"], ["e", "f"]], [1, 0, 1], 2, separator=":")
    assert out.shape.as_list() == [2, 2]
    assert run(out).tolist() == [[b"c", b"d"], [b"a:e", b"b:f"]]  # TF
    assert run(tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [[0, 1], [1, 1]], 2)).tolist() == [
        b"a", b"bcd"]  # TF
    assert "segment_ids are not allowed to exceed num_segments or to have negative values." in _err(
        lambda: tf.strings.unsorted_segment_join(["a", "b"], [0, 3], 2))  # TF


# ---- as_string / to_number -----------------------------------------------------------------------
def test_as_string():
    assert run(tf.as_string([1.5, -0.25, np.inf, np.nan, 1e10, 123456789.0])).tolist() == [
        b"1.500000", b"-0.250000", b"inf", b"nan", b"10000000000.000000", b"123456792.000000"]  # TF
    assert run(tf.as_string([1.5, 3.14159], precision=3)).tolist() == [b"1.500", b"3.142"]  # TF
    assert run(tf.as_string([1.5, 3.14159], scientific=True)).tolist() == [b"1.500000e+00", b"3.141590e+00"]  # TF
    assert run(tf.as_string([1.5, 3.14159, 1e20], shortest=True)).tolist() == [b"1.5", b"3.14159", b"1e+20"]  # TF
    assert run(tf.as_string([3.14159, 1234567.0], shortest=True, precision=3)).tolist() == [b"3.14",
                                                                                          b"1.23e+06"]  # TF
    assert run(tf.as_string([1, -23], width=5)).tolist() == [b"    1", b"  -23"]  # TF
    assert run(tf.as_string([1, -23], width=5, fill="0")).tolist() == [b"00001", b"-0023"]  # TF
    assert run(tf.as_string([1, 22], width=4, fill="-")).tolist() == [b"1   ", b"22  "]  # TF
    assert run(tf.as_string([1.5, -2.0], fill="+")).tolist() == [b"+1.500000", b"-2.000000"]  # TF
    assert run(tf.as_string([1.5], width=6, fill=" ")).tolist() == [b" 1.500000"]  # TF
    assert run(tf.as_string([1.0], shortest=True, fill="#")).tolist() == [b"1.00000"]  # TF
    assert run(tf.as_string([True, False])).tolist() == [b"true", b"false"]  # TF
    assert run(tf.as_string([True], width=7)).tolist() == [b"true"]  # TF
    assert run(tf.as_string(tf.constant([2 ** 40], tf.int64))).tolist() == [b"1099511627776"]  # TF
    assert run(tf.as_string(tf.constant([1.5, 0.1], tf.float16))).tolist() == [b"1.500000", b"0.099976"]  # TF
    assert run(tf.as_string(tf.constant([1 + 2j], tf.complex64))).tolist() == [b"(1.000000,2.000000)"]  # TF
    assert run(tf.as_string(tf.constant([1.5 - 2j], tf.complex128), precision=1)).tolist() == [b"(1.5,-2.0)"]  # TF
    assert run(tf.as_string(tf.constant([200], tf.uint8))).tolist() == [b"200"]  # TF
    assert run(tf.as_string(tf.constant([-np.nan, np.inf, -np.inf], tf.float32), width=6, fill="0")).tolist() == [
        b"  -nan", b"   inf", b"  -inf"]  # TF
    assert "Cannot select both scientific and shortest notation" in _err(
        lambda: tf.as_string([1.5], scientific=True, shortest=True))  # TF
    assert "precision not supported for datatype int32" in _err(lambda: tf.as_string([1], precision=2))  # TF
    assert "Fill string must be one or fewer characters" in _err(lambda: tf.as_string([1], fill="ab"))  # TF
    assert 'Fill argument not supported: "x"' in _err(lambda: tf.as_string([1], width=4, fill="x"))  # TF


def test_to_number():
    out = run(tf.strings.to_number(["1.5", " 2", "-3e2", "inf", "nan", "0x10"]))
    np.testing.assert_array_equal(out, np.array([1.5, 2, -300, np.inf, np.nan, 16], np.float32))  # TF
    assert out.dtype == np.float32
    specials = [b"1.", b".5", b"Infinity", b"-INF", b"NaN", b"-nan", b"1e5", b"0x1p3", b"1.5e-50", b"+inf", b"01",
                b"1e400", b"4e-46", b"1.5 "]
    got = run(tf.strings.to_number(specials))
    np.testing.assert_array_equal(got, np.array([1, 0.5, np.inf, -np.inf, np.nan, np.nan, 1e5, 8, 0, np.inf, 1,
                                                 np.inf, 0, 1.5], np.float32))  # TF
    assert run(tf.string_to_number(["0.1"], out_type=tf.float64)).tolist() == [0.1]  # TF
    assert run(tf.strings.to_number(["12", "-7", "010", " 12 ", "-0", "+5"], out_type=tf.int32)).tolist() == [
        12, -7, 10, 12, 0, 5]  # TF
    assert run(tf.strings.to_number(["9223372036854775807"], out_type=tf.int64)).tolist() == [2 ** 63 - 1]  # TF
    for bad, out_type in [("1.5", tf.int32), ("abc", tf.float32), ("", tf.float32), ("3000000000", tf.int32),
                          ("1e", tf.float32), ("1f", tf.float32), ("1_0", tf.float32), ("  ", tf.float32),
                          ("1,5", tf.float32), ("0x10", tf.int32), ("1e3", tf.int32), ("+-1", tf.int32),
                          ("12a", tf.int32)]:
        assert "StringToNumberOp could not correctly convert string: " + bad in _err(
            lambda: tf.strings.to_number([bad], out_type=out_type))  # TF
    with pytest.raises(TypeError, match="DataType int16 not in list of allowed values"):  # TF
        tf.strings.to_number(["1"], out_type=tf.int16)


# ---- base64 --------------------------------------------------------------------------------------
def test_base64():
    assert run(tf.io.encode_base64(["hello", "", "a?>~"])).tolist() == [b"aGVsbG8", b"", b"YT8-fg"]  # TF
    assert run(tf.encode_base64(["hello", "", "a?>~"], pad=True)).tolist() == [b"aGVsbG8=", b"",
                                                                                b"YT8-fg=="]  # TF
    assert run(tf.io.decode_base64(["aGVsbG8", "YT8-fg", "YT8-fg==", "", "YQ", "YR"])).tolist() == [
        b"hello", b"a?>~", b"a?>~", b"", b"a", b"a"]  # TF
    assert "Base64 string length cannot be 1 modulo 4." in _err(lambda: tf.decode_base64(["a"]))  # TF
    for bad in ["aGV+", "Y===", "YQ=", "YQ==YQ==", "a+/=", "YQ ="]:
        assert "Invalid character found in base64." in _err(lambda: tf.io.decode_base64([bad]))  # TF


# ---- hashes --------------------------------------------------------------------------------------
def test_hash_buckets():
    words = ["hello", "", "world", "a" * 100]
    assert run(tf.string_to_hash_bucket(words, 1000)).tolist() == [938, 899, 861, 179]  # TF
    assert run(tf.strings.to_hash_bucket_fast(words, 1000)).tolist() == [296, 263, 598, 618]  # TF
    assert run(tf.string_to_hash_bucket_strong(words, 1000, [1, 2])).tolist() == [622, 435, 990, 610]  # TF
    assert run(tf.string_to_hash_bucket_fast(["hello", "", "world"], 2 ** 62)).tolist() == [
        3786372426573024488, 1936946117179621455, 2601484383088587886]  # TF
    assert run(tf.strings.to_hash_bucket(string_tensor=["hello"], num_buckets=2 ** 62)).tolist() == [
        1331861223480393034]  # TF
    assert "Key must have 2 elements" in _err(lambda: tf.string_to_hash_bucket_strong(["hello"], 10, [1]))  # TF
    with pytest.raises(ValueError, match="passed 0 less than minimum 1"):  # TF
        tf.string_to_hash_bucket_fast(["hello"], 0)
    assert run(tf.strings.to_hash_bucket_fast(tf.zeros([0], tf.string), 5)).tolist() == []  # TF


def test_fingerprint():
    assert run(tf.fingerprint(["hello", ""])).tolist() == [[232, 12, 56, 49, 169, 229, 139, 180],
                                                           [79, 64, 144, 47, 59, 106, 225, 154]]  # TF
    assert run(tf.fingerprint([["hello", ""], ["a", "b"]])).tolist() == [[130, 9, 155, 97, 106, 154, 118, 131],
                                                                         [122, 64, 59, 169, 136, 60, 55, 83]]  # TF
    assert run(tf.fingerprint(tf.constant([[1, 2], [3, 4]], tf.int32))).tolist() == [
        [76, 18, 253, 133, 168, 204, 240, 10], [254, 162, 60, 240, 103, 244, 53, 255]]  # TF
    assert run(tf.fingerprint(tf.constant([1.5, 2.0]))).tolist() == [[64, 181, 56, 72, 223, 224, 189, 72],
                                                                     [156, 206, 45, 21, 1, 1, 236, 37]]  # TF
    assert run(tf.fingerprint(tf.zeros([2, 0]))).tolist() == [[79, 64, 144, 47, 59, 106, 225, 154]] * 2  # TF
    assert run(tf.fingerprint([[["a"]]])).tolist() == [[227, 117, 223, 182, 101, 66, 69, 179]]  # TF
    assert run(tf.fingerprint(tf.constant([[True, False]]))).tolist() == [[236, 208, 118, 51, 144, 142, 61, 0]]  # TF
    assert run(tf.fingerprint(tf.zeros([0], tf.string))).shape == (0, 8)  # TF
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):  # TF
        tf.fingerprint(tf.constant(1))
    with pytest.raises(ValueError, match="Unsupported method: x"):  # TF
        tf.fingerprint(tf.constant([1.5]), method="x")
    assert tf.fingerprint(tf.placeholder(tf.int32, [None, 3])).shape.as_list() == [None, 8]


# ---- split ---------------------------------------------------------------------------------------
def _sparse(st):
    v = run(st)
    return v.indices.tolist(), v.values.tolist(), v.dense_shape.tolist()


def test_string_split():
    words = ["hello world", "a  b", "", " x "]
    assert _sparse(tf.string_split(words)) == ([[0, 0], [0, 1], [1, 0], [1, 1], [3, 0]],
                                               [b"hello", b"world", b"a", b"b", b"x"], [4, 2])  # TF
    assert _sparse(tf.string_split(words, skip_empty=False)) == (
        [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0], [3, 1], [3, 2]],
        [b"hello", b"world", b"a", b"", b"b", b"", b"x", b""], [4, 3])  # TF
    assert _sparse(tf.string_split(["a,b;c", "d"], delimiter=",;")) == (
        [[0, 0], [0, 1], [0, 2], [1, 0]], [b"a", b"b", b"c", b"d"], [2, 3])  # TF
    assert _sparse(tf.string_split(["abc", "d\u00e9"], delimiter="")) == (
        [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], [b"a", b"b", b"c", b"d", b"\xc3", b"\xa9"], [2, 3])  # TF
    assert _sparse(tf.string_split(["a\tb c"])) == ([[0, 0], [0, 1]], [b"a\tb", b"c"], [1, 2])  # TF
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):  # TF
        tf.string_split([["a b"]])
    rt = tf.string_split(["a b", "c"], result_type="RaggedTensor")
    v = run(rt)
    assert v.to_list() == [[b"a", b"b"], [b"c"]]


def test_strings_split_v1():
    words = ["hello world", "a  b", "", " x "]
    assert _sparse(tf.strings.split(words)) == ([[0, 0], [0, 1], [1, 0], [1, 1], [3, 0]],
                                                [b"hello", b"world", b"a", b"b", b"x"], [4, 2])  # TF
    assert _sparse(tf.strings.split(["a,,b", "", ","], sep=",")) == (
        [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]], [b"a", b"", b"b", b"", b"", b""], [3, 3])  # TF
    assert _sparse(tf.strings.split(["a b c d", " x y z "], maxsplit=1)) == (
        [[0, 0], [0, 1], [1, 0], [1, 1]], [b"a", b"b c d", b"x", b"y z "], [2, 2])  # TF
    assert _sparse(tf.strings.split(["a,b,c"], sep=",", maxsplit=1)) == ([[0, 0], [0, 1]], [b"a", b"b,c"],
                                                                         [1, 2])  # TF
    assert _sparse(tf.strings.split(["a<>b<>c"], sep="<>")) == ([[0, 0], [0, 1], [0, 2]], [b"a", b"b", b"c"],
                                                                [1, 3])  # TF
    assert _sparse(tf.strings.split([""])) == ([], [], [1, 0])  # TF
    rt = run(tf.strings.split(["a b", "c"], result_type="RaggedTensor"))  # TF
    assert rt.values.tolist() == [b"a", b"b", b"c"] and rt.row_splits.tolist() == [0, 2, 3]


# ---- ngrams, bytes_split, format -----------------------------------------------------------------
def test_ngrams():
    data = tf.ragged.constant([["a", "b", "c"], ["d"]])

    def rows(t):
        return run(t).to_list()
    assert rows(tf.strings.ngrams(data, 2)) == [[b"a b", b"b c"], []]  # TF
    assert rows(tf.strings.ngrams(data, 2, pad_values=("<s>", "</s>"))) == [
        [b"<s> a", b"a b", b"b c", b"c </s>"], [b"<s> d", b"d </s>"]]  # TF
    assert rows(tf.strings.ngrams(data, 3, separator="_", pad_values="#", padding_width=1)) == [
        [b"#_a_b", b"a_b_c", b"b_c_#"], [b"#_d_#"]]  # TF
    assert rows(tf.strings.ngrams(data, 3, preserve_short_sequences=True)) == [[b"a b c"], [b"d"]]  # TF
    assert rows(tf.strings.ngrams(data, (1, 2))) == [[b"a", b"b", b"c", b"a b", b"b c"], [b"d"]]  # TF
    assert run(tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2)).tolist() == [
        [b"a b", b"b c"], [b"d e", b"e f"]]  # TF
    assert run(tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2)).tolist() == [b"a b", b"b c"]  # TF
    with pytest.raises(ValueError, match="padding_width must be greater than 0."):
        tf.strings.ngrams(data, 2, pad_values="x", padding_width=0)
    with pytest.raises(ValueError, match="pad_values must be provided if padding_width is set."):
        tf.strings.ngrams(data, 2, padding_width=1)


def test_bytes_split():
    assert run(tf.strings.bytes_split(["h\u00e9", "", "ab"])).to_list() == [[b"h", b"\xc3", b"\xa9"], [],
                                                                            [b"a", b"b"]]  # TF
    assert run(tf.strings.bytes_split("abc")).tolist() == [b"a", b"b", b"c"]  # TF
    assert run(tf.strings.bytes_split([["ab"], ["c"]])).to_list() == [[[b"a", b"b"]], [[b"c"]]]  # TF


def test_format():
    assert run(tf.strings.format("x={} y={}", [tf.constant([1, 2, 3]), tf.constant("s")])) == b'x=[1 2 3] y="s"'  # TF
    assert run(tf.strings.format("{}", tf.range(10))) == b"[0 1 2 ... 7 8 9]"  # TF
    assert run(tf.strings.format("{}", tf.reshape(tf.range(12.0), [3, 4]))) == (
        b"[[0 1 2 3]\n [4 5 6 7]\n [8 9 10 11]]")  # TF
    assert run(tf.strings.format("{}", tf.range(10), summarize=2)) == b"[0 1 ... 8 9]"  # TF
    assert run(tf.strings.format("a%b", [1], placeholder="%")) == b"a1b"  # TF
    with pytest.raises(ValueError):
        tf.strings.format("{} {}", [1])


# ---- namespace, eager, gradients -----------------------------------------------------------------
def test_names_are_exported():
    for name in ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams", "reduce_join",
                 "regex_full_match", "regex_replace", "split", "strip", "substr", "to_hash_bucket",
                 "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number", "unicode_decode",
                 "unicode_decode_with_offsets", "unicode_encode", "unicode_split", "unicode_split_with_offsets",
                 "unicode_transcode", "unsorted_segment_join", "upper"]:
        assert callable(getattr(tf.strings, name)), name
    for name in ["as_string", "decode_base64", "encode_base64", "reduce_join", "regex_replace", "string_join",
                 "string_split", "string_strip", "string_to_hash_bucket", "string_to_hash_bucket_fast",
                 "string_to_hash_bucket_strong", "string_to_number", "substr", "fingerprint"]:
        assert callable(getattr(tf, name)), name
        assert callable(getattr(tf.compat.v1, name)), name
    assert tf.io.decode_base64 is tf.decode_base64


def test_string_ops_have_no_gradient():
    x = tf.placeholder(tf.float32, [3])
    s = tf.as_string(x)
    y = tf.strings.to_number(s)
    assert tf.gradients(y, x) == [None]


def test_eager_values():
    with context.eager_mode():
        assert tf.strings.length(["ab", "c"]).numpy().tolist() == [2, 1]
        assert tf.strings.upper("ab").numpy() == b"AB"
        sp = tf.string_split(["a b"])
        assert sp.values.numpy().tolist() == [b"a", b"b"]
        assert tf.strings.unicode_decode(["h\u00e9"], "UTF-8").to_list() == [[104, 233]]


def test_regex_matches_utf8_text_like_re2():
    def rr(x, p, r):
        return run(tf.strings.regex_replace(x, p, r)).tolist()
    assert rr(["h\u00e9llo"], ".", "X") == [b"XXXXX"]  # TF: one match per character
    assert rr(["na\u00efve caf\u00e9"], "[\u00e9\u00ef]", "E") == [b"naEve cafE"]  # TF
    assert rr(["a\u00e9_1"], "\\w", "W") == [b"W\xc3\xa9WW"]  # TF: \w is ASCII
    assert rr(["1\u0663"], "\\d", "D") == [b"D\xd9\xa3"]  # TF
    assert rr(["a\u00a0b c"], "\\s", "S") == [b"a\xc2\xa0bSc"]  # TF
    assert rr(["\u00e9t\u00e9 ok"], "\\b", "|") == [b"\xc3\xa9|t|\xc3\xa9 |ok|"]  # TF
    assert rr(["A\u00c9"], "[[:upper:]]", "U") == [b"U\xc3\x89"]  # TF
    assert rr([b"a\xffb"], "b", "X") == [b"a\xffX"]  # TF
    assert rr(["\u00e9a"], "x*", "-") == [b"-\xc3\xa9-a-"]  # TF
    assert run(tf.strings.regex_full_match(["\u00e9", "ab"], ".")).tolist() == [True, False]  # TF
    assert run(tf.strings.regex_full_match(["\u00e9"], tf.constant("[\u00e9]"))).tolist() == [True]  # TF
    for pattern in ["(a)\\1", "a(?=b)"]:  # TF: RE2 rejects back references and lookahead
        with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern"):
            run(tf.strings.regex_replace(["aab"], pattern, "-"))


def test_strings_split_nd_scalar_and_ragged_input():
    assert _sparse(tf.strings.split([["a b", "c"], ["", "d e f"]])) == (
        [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 1, 0], [1, 1, 1], [1, 1, 2]], [b"a", b"b", b"c", b"d", b"e", b"f"],
        [2, 2, 3])  # TF
    assert run(tf.strings.split([["a b", "c"], ["", "d e f"]], result_type="RaggedTensor")).to_list() == [
        [[b"a", b"b"], [b"c"]], [[], [b"d", b"e", b"f"]]]  # TF
    assert _sparse(tf.strings.split("a b")) == ([[0, 0], [0, 1]], [b"a", b"b"], [1, 2])  # TF
    assert run(tf.strings.split("a b", result_type="RaggedTensor")).to_list() == [[b"a", b"b"]]  # TF
    rt = tf.ragged.constant([["a b"], [], ["c", "d,e"]])
    assert run(tf.strings.split(rt, sep=",", result_type="RaggedTensor")).to_list() == [
        [[b"a b"]], [], [[b"c"], [b"d", b"e"]]]  # TF
    with pytest.raises(ValueError, match="result_type must be 'RaggedTensor' or 'SparseTensor'."):  # TF
        tf.strings.split(["a"], result_type="x")
