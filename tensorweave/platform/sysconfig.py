"""`tf.sysconfig`: where the C header for custom-op libraries lives, and the flags to build them.

A kernel library only includes `tensorweave_op.h` and links against nothing (see
docs/custom_ops_c_abi.md), so the link flags are empty:

    cc -shared -fPIC -O2 $(python -c "import tensorweave as tf; print(*tf.sysconfig.get_compile_flags())") \\
        zero_out.c -o libzero_out.so
"""

import os

__all__ = ["get_compile_flags", "get_include", "get_lib", "get_link_flags"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tensorweave/


def get_include():
    """Returns the directory holding `tensorweave_op.h`, the custom-op C header."""
    return os.path.join(_PACKAGE, "include")


def get_lib():
    """Returns the directory of the tensorweave package."""
    return _PACKAGE


def get_compile_flags():
    """Returns the compiler flags for building a custom-op library (`["-I<include dir>"]`)."""
    return ["-I" + get_include()]


def get_link_flags():
    """Returns the linker flags for a custom-op library: none, as it links against no tensorweave library."""
    return []
