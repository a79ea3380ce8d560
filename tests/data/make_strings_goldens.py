"""Records TensorFlow's values of the string hash ops into tests/data/strings_goldens.json.

Run with a TensorFlow environment (not needed by the tests):

    /work/tfenv/bin/python tests/data/make_strings_goldens.py

For each string of POOL: StringToHashBucket (TF's legacy Hash64), StringToHashBucketFast (FarmHash
Fingerprint64) and StringToHashBucketStrong (SipHash-2-4, key KEY) with `num_buckets = 2**63 - 1`
(nearly the full 64-bit hash), and `tf.fingerprint` of each string as 8 bytes. Strings are stored as
hex so that any bytes survive JSON.
"""

import json
import os

import numpy as np

# Lengths 0..70 hit every tail length of the 8-byte block hashes and FarmHash's 0-16, 17-32, 33-64
# and >64 byte branches.
POOL = [b"", b"a", b"hello", b"world", b"abcdefg", b"abcdefgh", b"abcdefghi", "caf\u00e9".encode(),
        "\u65e5\u672c\u8a9e".encode(), b"\x00", b"\xff\xfe\x00\x01", b"The quick brown fox",
        b"0123456789abcdef", b"0123456789abcdefg", b"x" * 31, b"y" * 32, b"z" * 33, b"w" * 63, b"v" * 64,
        b"u" * 65, bytes(range(70)), b"a" * 100, b"tensorflow", b" ", b"\n\t"]
KEY = [123456789, 987654321]
BUCKETS = 2 ** 63 - 1


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    pool = np.array(POOL, dtype=object)
    with tf.Session() as s:
        legacy, fast, strong, fp = s.run([tf.strings.to_hash_bucket(pool, BUCKETS),
                                          tf.strings.to_hash_bucket_fast(pool, BUCKETS),
                                          tf.strings.to_hash_bucket_strong(pool, BUCKETS, KEY),
                                          tf.fingerprint(pool)])
    out = {"key": KEY, "num_buckets": BUCKETS, "strings": [p.hex() for p in POOL],
           "legacy": [int(v) for v in legacy], "fast": [int(v) for v in fast], "strong": [int(v) for v in strong],
           "fingerprint": [bytes(bytearray(r)).hex() for r in fp], "tf_version": tf.__version__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strings_goldens.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
