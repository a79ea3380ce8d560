"""`tf.gfile`: TF 1.x's file API (local paths, and any URL scheme through fsspec, the `[fs]` extra).

The functions are those of `tensorweave.platform.gfile` under TF 1.x's names; errors are
`tf.errors` classes with TF's messages.
"""

from .platform import gfile as _gfile
from .platform.gfile import FastGFile, GFile

Open = GFile

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory", "ListDirectory",
           "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk"]


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802 (TF's name)
    """Copies file `oldpath` to `newpath`.

    Args:
      oldpath: The file to copy.
      newpath: The destination.
      overwrite: Whether an existing destination file is replaced.

    Raises:
      tf.errors.NotFoundError: If `oldpath` does not exist.
      tf.errors.AlreadyExistsError: If `newpath` exists and `overwrite` is false.
    """
    _gfile.copy(oldpath, newpath, overwrite)


def DeleteRecursively(dirname):  # noqa: N802
    """Deletes `dirname` and everything under it.

    Raises:
      tf.errors.NotFoundError: If `dirname` does not exist.
    """
    _gfile.rmtree(dirname)


def Exists(filename):  # noqa: N802
    """Whether the file or directory `filename` exists.

    Returns:
      True or False.
    """
    return _gfile.exists(filename)


def Glob(filename):  # noqa: N802
    """The paths matching a glob pattern (or a list of patterns).

    Returns:
      A list of paths.
    """
    return _gfile.glob(filename)


def IsDirectory(dirname):  # noqa: N802
    """Whether `dirname` is a directory.

    Returns:
      True or False.
    """
    return _gfile.isdir(dirname)


def ListDirectory(dirname):  # noqa: N802
    """The entries of directory `dirname` (names, not paths).

    Returns:
      A list of names.

    Raises:
      tf.errors.NotFoundError: If `dirname` is not a directory.
    """
    return _gfile.listdir(dirname)


def MakeDirs(dirname):  # noqa: N802
    """Creates `dirname` and its missing parents.

    Raises:
      tf.errors.FailedPreconditionError: If a path component is a file.
    """
    _gfile.makedirs(dirname)


def MkDir(dirname):  # noqa: N802
    """Creates directory `dirname` (its parent must exist).

    Raises:
      tf.errors.NotFoundError: If the parent does not exist.
    """
    _gfile.mkdir(dirname)


def Remove(filename):  # noqa: N802
    """Deletes file `filename`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
    """
    _gfile.remove(filename)


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    """Renames `oldname` to `newname`.

    Args:
      oldname: The file or directory.
      newname: Its new name.
      overwrite: Whether an existing `newname` file is replaced.

    Raises:
      tf.errors.NotFoundError: If `oldname` does not exist.
      tf.errors.AlreadyExistsError: If `newname` exists and `overwrite` is false.
    """
    _gfile.rename(oldname, newname, overwrite)


def Stat(filename):  # noqa: N802
    """The `FileStatistics` (`length`, `mtime_nsec`, `is_directory`) of `filename`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
    """
    return _gfile.stat(filename)


def Walk(top, in_order=True):  # noqa: N802
    """Walks the directory tree at `top`.

    Args:
      top: The root directory.
      in_order: Whether a directory comes before its subdirectories (True) or after.

    Yields:
      `(dirname, subdirectory names, file names)` triples; nothing if `top` is no directory.
    """
    return _gfile.walk(top, topdown=in_order)
