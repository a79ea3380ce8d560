"""Whole-file functions of `tf.io` and `tf` (`read_file`, `write_file`, `matching_files`: the ops of
`tensorweave.ops.io_file_ops`) and `match_filenames_once` (a local variable holding the matches)."""

from ..framework import ops
from ..ops.io_file_ops import matching_files, read_file, write_file
from ..variables import Variable

__all__ = ["match_filenames_once", "matching_files", "read_file", "write_file"]


def match_filenames_once(pattern, name=None):
    """Saves the list of files matching `pattern`, so it is only computed once.

    The result is a local variable (in `tf.GraphKeys.LOCAL_VARIABLES`, not trainable, of unknown
    shape) initialized by `tf.local_variables_initializer()` with `tf.matching_files(pattern)`.

    Args:
      pattern: A file pattern (glob), or a 1-D tensor of file patterns.
      name: A name for the operations (optional; default "matching_filenames").

    Returns:
      A variable that is initialized to the list of files matching the pattern(s).
    """
    with ops.name_scope(name, "matching_filenames", [pattern]) as name:
        return Variable(matching_files(pattern), trainable=False, validate_shape=False, name=name,
                        collections=[ops.GraphKeys.LOCAL_VARIABLES])
