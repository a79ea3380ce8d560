"""Records the public names of TensorFlow's `tf.compat.v1` API (outside `raw_ops`) into
`docs/api/tf_compat_v1_names.txt`, one dotted name a line (`image.resize_images`), for
`tools/api_coverage.py`.

Run once, in a side environment with TensorFlow (never a dependency of tensorweave):

    python -m venv /tmp/tfenv && /tmp/tfenv/bin/pip install tensorflow-cpu==2.21.0
    /tmp/tfenv/bin/python tools/record_tf_api.py

Recorded from tensorflow-cpu 2.21.0.
"""

import inspect
import os
import types

import tensorflow as tf

ROOT = tf.compat.v1
OUT = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "api", "tf_compat_v1_names.txt")


def walk(module, prefix, seen, names):
    if id(module) in seen:
        return
    seen.add(id(module))
    for attr in sorted(dir(module)):
        if attr.startswith("_") or (not prefix and attr in ("raw_ops", "compat")):
            continue
        try:
            value = getattr(module, attr)
        except Exception:  # lazily loaded modules that fail to import
            continue
        name = prefix + attr
        if isinstance(value, types.ModuleType):
            mod_name = getattr(value, "__name__", "")
            if mod_name.startswith("tensorflow") or mod_name.startswith("keras") or mod_name.startswith("tf_keras"):
                if attr == "keras" or mod_name.startswith(("keras", "tf_keras")):
                    continue  # tf.keras has its own issue; counted separately there
                walk(value, name + ".", seen, names)
            continue
        if inspect.ismodule(value):
            continue
        names.add(name)


def main():
    names = set()
    walk(ROOT, "", set(), names)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("# tf.compat.v1 public names outside raw_ops, compat and keras: tensorflow-cpu %s\n" % tf.__version__)
        for n in sorted(names):
            f.write(n + "\n")
    print(len(names), "names ->", OUT)


if __name__ == "__main__":
    main()
