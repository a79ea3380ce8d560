"""`tf.resource_loader`: paths of data files next to the calling script, and files of the package."""

import inspect
import os

__all__ = ["get_data_files_path", "get_path_to_datafile", "get_root_dir_with_all_resources", "load_resource",
           "readahead_file_path"]

_ROOT = os.path.dirname(os.path.abspath(__file__))


def _caller_dir(depth):
    frame = inspect.currentframe()
    try:
        for _ in range(depth + 1):
            frame = frame.f_back
        return os.path.dirname(os.path.abspath(inspect.getfile(frame)))
    finally:
        del frame


def load_resource(path):
    """Loads the resource at `path`, relative to the tensorweave package directory.

    Args:
      path: A path relative to the package (e.g. "include/tensorweave_op.h").

    Returns:
      The file's contents as bytes.

    Raises:
      IOError: If the path is not found or cannot be read.
    """
    with open(os.path.join(_ROOT, path.replace("/", os.sep)), "rb") as f:
        return f.read()


def get_data_files_path():
    """The directory of the script that calls this function (where its data files are).

    Returns:
      The directory path.
    """
    return _caller_dir(1)


def get_root_dir_with_all_resources():
    """The root directory of the caller's data files: without a Bazel runfiles tree, as in TF's fallback,
    the directory of the calling script.

    Returns:
      The directory path.
    """
    return _caller_dir(1)


def get_path_to_datafile(path):
    """The path of a data file relative to the calling script's directory.

    Args:
      path: A path relative to the caller's directory.

    Returns:
      The joined path.
    """
    return os.path.join(_caller_dir(1), path)


def readahead_file_path(path, readahead="128M"):
    """Returns `path` itself (as TF: read-ahead files are not implemented).

    Args:
      path: A path.
      readahead: Unused.

    Returns:
      `path`.
    """
    return path
