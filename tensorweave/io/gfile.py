"""`tf.io.gfile`: TF 2.x's names of the file API (local paths, and any URL scheme through fsspec,
the `[fs]` extra). Errors are `tf.errors` classes with TF's messages."""

from ..platform import gfile as _gfile
from ..platform.gfile import GFile, get_registered_schemes, join

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk"]


def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst`.

    Args:
      src: The file to copy.
      dst: The destination.
      overwrite: Whether an existing destination file is replaced.

    Raises:
      tf.errors.NotFoundError: If `src` does not exist.
      tf.errors.AlreadyExistsError: If `dst` exists and `overwrite` is false.
    """
    _gfile.copy(src, dst, overwrite)


def exists(path):
    """Whether the file or directory `path` exists.

    Returns:
      True or False.
    """
    return _gfile.exists(path)


def glob(pattern):
    """The paths matching a glob pattern (or a list of patterns).

    Returns:
      A list of paths.
    """
    return _gfile.glob(pattern)


def isdir(path):
    """Whether `path` is a directory.

    Returns:
      True or False.
    """
    return _gfile.isdir(path)


def listdir(path):
    """The entries of directory `path` (names, not paths).

    Returns:
      A list of names.

    Raises:
      tf.errors.NotFoundError: If `path` is not a directory.
    """
    return _gfile.listdir(path)


def makedirs(path):
    """Creates `path` and its missing parents.

    Raises:
      tf.errors.FailedPreconditionError: If a path component is a file.
    """
    _gfile.makedirs(path)


def mkdir(path):
    """Creates directory `path` (its parent must exist).

    Raises:
      tf.errors.NotFoundError: If the parent does not exist.
    """
    _gfile.mkdir(path)


def remove(path):
    """Deletes file `path`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
      tf.errors.FailedPreconditionError: If it is a directory.
    """
    _gfile.remove(path)


def rename(src, dst, overwrite=False):
    """Renames `src` to `dst`.

    Args:
      src: The file or directory.
      dst: Its new name.
      overwrite: Whether an existing `dst` file is replaced.

    Raises:
      tf.errors.NotFoundError: If `src` does not exist.
      tf.errors.AlreadyExistsError: If `dst` exists and `overwrite` is false.
    """
    _gfile.rename(src, dst, overwrite)


def rmtree(path):
    """Deletes `path` and everything under it.

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
    """
    _gfile.rmtree(path)


def stat(path):
    """The `FileStatistics` (`length`, `mtime_nsec`, `is_directory`) of `path`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
    """
    return _gfile.stat(path)


def walk(top, topdown=True, onerror=None):
    """Walks the directory tree at `top` as `os.walk`.

    Args:
      top: The root directory.
      topdown: Whether a directory comes before its subdirectories (True) or after.
      onerror: Called with the error when a directory cannot be listed.

    Yields:
      `(dirname, subdirectory names, file names)` triples; nothing if `top` is no directory.
    """
    return _gfile.walk(top, topdown, onerror)
