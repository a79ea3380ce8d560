"""File access for every layer (TF's `tensorflow/python/platform/gfile` and `lib/io/file_io`).

Local paths (and `file://` URLs) use the operating system; any other URL scheme (`gs://`, `s3://`,
`hdfs://`, `memory://`, ...) goes through `fsspec` (the `[fs]` extra, imported on first use) and
the fsspec driver of that scheme. Every tensorweave API that reads or writes files (TFRecord,
checkpoints, summaries, datasets, `tf.read_file`) goes through this module, so each accepts such
URLs.

Errors are TF's classes (`tf.errors.NotFoundError`, ...) with TF's messages. This module sits
below the framework, so the classes are installed by the layer that defines them
(`install_error_classes`, called by `tensorweave.ops.io_file_ops` and the `tf.gfile` namespace);
before that, errors are `OSError`s.
"""

import builtins
import contextlib
import errno as _errno
import fnmatch
import glob as _glob
import os
import posixpath
import re
import shutil
import stat as _stat
import uuid

_ERROR_CLASSES = {}
# The TF error classes this module raises (`install_error_classes` maps these names to classes).
ERROR_NAMES = ("NotFoundError", "AlreadyExistsError", "FailedPreconditionError", "PermissionDeniedError",
               "InvalidArgumentError", "UnimplementedError", "UnknownError")

_LOCAL_SCHEMES = ("", "file")


def install_error_classes(classes):
    """Installs the exception classes errors are raised with.

    Args:
      classes: A dict from TF class names ("NotFoundError", "AlreadyExistsError",
        "FailedPreconditionError", "PermissionDeniedError", "InvalidArgumentError",
        "UnimplementedError", "UnknownError") to classes built as `cls(node_def, op, message)`.
    """
    _ERROR_CLASSES.update(classes)


def error(kind, message):
    """An exception of TF's class `kind` (e.g. "NotFoundError") with `message`."""
    cls = _ERROR_CLASSES.get(kind)
    if cls is None:
        return OSError(message)
    return cls(None, None, message)


def _os_error(e, path):
    """The TF error for an `OSError` raised on `path` (TF's `IOError(context, errno)` messages)."""
    if isinstance(e, (FileNotFoundError,)) or getattr(e, "errno", None) == _errno.ENOENT:
        return error("NotFoundError", "%s; No such file or directory" % path)
    if isinstance(e, FileExistsError):
        return error("AlreadyExistsError", "%s; File exists" % path)
    if isinstance(e, IsADirectoryError):
        return error("FailedPreconditionError", "%s; Is a directory" % path)
    if isinstance(e, NotADirectoryError):
        return error("FailedPreconditionError", "%s; Not a directory" % path)
    if isinstance(e, PermissionError):
        return error("PermissionDeniedError", "%s; Permission denied" % path)
    return error("UnknownError", "%s; %s" % (path, e.strerror or e))


# ---- paths and file systems ----------------------------------------------------------------------
@contextlib.contextmanager
def _os_errors(path):
    """Raises an `OSError` of the body as the TF error of `path` (see `_os_error`)."""
    try:
        yield
    except OSError as e:
        raise _os_error(e, path) from None


def as_str_path(path):
    """`path` (str, bytes or os.PathLike) as a str."""
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode("utf-8")
    if not isinstance(path, str):
        raise TypeError("Expected binary or unicode string, got %r" % (path,))
    return path


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")


def scheme_of(path):
    """The URL scheme of `path` ("" for a plain local path)."""
    m = _SCHEME.match(as_str_path(path))
    return m.group(1) if m else ""


def is_local(path):
    """Whether `path` is a local path (no scheme, or `file://`)."""
    return scheme_of(path) in _LOCAL_SCHEMES


def _local(path):
    path = as_str_path(path)
    return path[len("file://"):] if path.startswith("file://") else path


def _fsspec():
    try:
        import fsspec
    except ImportError as e:
        raise ImportError("File system URLs other than local paths need fsspec: pip install 'tensorweave[fs]'"
                          ) from e
    return fsspec


def _remote(path):
    """(fsspec file system, path inside it) for a URL."""
    path = as_str_path(path)
    scheme = scheme_of(path)
    fsspec = _fsspec()
    try:
        return fsspec.core.url_to_fs(path)
    except (ValueError, ImportError) as e:
        if scheme not in fsspec.available_protocols():
            raise error("UnimplementedError", "File system scheme '%s' not implemented (file: '%s')"
                        % (scheme, path)) from e
        raise


def get_registered_schemes():
    """The URL schemes files can be read from: "" and "file" (local), and those fsspec knows.

    Returns:
      A list of scheme strings.
    """
    schemes = ["", "file"]
    try:
        import fsspec
    except ImportError:
        return schemes
    return schemes + sorted(p for p in fsspec.available_protocols() if p not in schemes)


def join(path, *paths):
    """Joins path components with "/" (as `os.path.join`, also for URLs).

    Returns:
      The joined path.
    """
    path = as_str_path(path)
    paths = [as_str_path(p) for p in paths]
    scheme = scheme_of(path)
    if scheme:
        head = path[:len(scheme) + 3]
        return head + posixpath.join(path[len(head):], *paths)
    return os.path.join(path, *paths)


# ---- queries -------------------------------------------------------------------------------------
def _query(path, local_test, remote_test):
    """`local_test(local_path)` or `remote_test(fs, fs_path)` on `path`; False for an empty path."""
    path = as_str_path(path)
    if not path:
        return False
    if is_local(path):
        return local_test(_local(path))
    fs, p = _remote(path)
    return bool(remote_test(fs, p))


def exists(path):
    """Whether `path` exists (file or directory).

    Returns:
      True or False.
    """
    return _query(path, os.path.exists, lambda fs, p: fs.exists(p))


def isdir(path):
    """Whether `path` is a directory.

    Returns:
      True or False.
    """
    return _query(path, os.path.isdir, lambda fs, p: fs.isdir(p))


class FileStatistics:
    """What `stat` returns: `length` (bytes), `mtime_nsec` (modification time, ns) and `is_directory`."""

    def __init__(self, length=0, mtime_nsec=0, is_directory=False):
        self.length = int(length)
        self.mtime_nsec = int(mtime_nsec)
        self.is_directory = bool(is_directory)

    def __repr__(self):
        return "FileStatistics(length=%d, mtime_nsec=%d, is_directory=%s)" % (
            self.length, self.mtime_nsec, self.is_directory)


def stat(path):
    """The `FileStatistics` of `path`.

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
    """
    path = as_str_path(path)
    if is_local(path):
        with _os_errors(path):
            st = os.stat(_local(path))
        return FileStatistics(st.st_size, st.st_mtime_ns, _stat.S_ISDIR(st.st_mode))
    fs, p = _remote(path)
    try:
        info = fs.info(p)
    except FileNotFoundError:
        raise error("NotFoundError", "%s; No such file or directory" % path) from None
    mtime = info.get("mtime", info.get("created", info.get("LastModified", 0))) or 0
    if hasattr(mtime, "timestamp"):
        mtime = mtime.timestamp()
    return FileStatistics(info.get("size") or 0, float(mtime) * 1e9, info.get("type") == "directory")


def listdir(path):
    """The names of the entries of directory `path` (not "." or ".."), in no particular order.

    Raises:
      tf.errors.NotFoundError: If `path` is not a directory.
    """
    path = as_str_path(path)
    if not isdir(path):
        raise error("NotFoundError", "Could not find directory %s" % path)
    if is_local(path):
        return os.listdir(_local(path))
    fs, p = _remote(path)
    out = []
    for entry in fs.ls(p, detail=False):
        name = posixpath.basename(entry.rstrip("/"))
        if name and name not in out:
            out.append(name)
    return out


_MAGIC = re.compile(r"[*?\[]")


def glob(pattern):
    """The paths matching a glob pattern (or each of a list of patterns): `*`, `?`, `[...]`, with `*`
    not matching "/". A pattern that is no glob matches itself if it exists.

    Returns:
      A list of paths, sorted per pattern.
    """
    if isinstance(pattern, (list, tuple)):
        out = []
        for p in pattern:
            out.extend(glob(p))
        return out
    if isinstance(pattern, bytes):
        pattern = pattern.decode("utf-8")
    if not isinstance(pattern, str):
        raise TypeError("Expected binary or unicode string, got %r" % (pattern,))
    if is_local(pattern):
        prefix = "file://" if pattern.startswith("file://") else ""
        local = _local(pattern)
        if not _MAGIC.search(local):
            return [pattern] if os.path.exists(local) else []
        return sorted(prefix + p for p in _glob.glob(local, include_hidden=True))
    fs, p = _remote(pattern)
    if not _MAGIC.search(p):
        return [pattern] if fs.exists(p) else []
    head = pattern[:len(scheme_of(pattern)) + 3]
    rooted = pattern[len(head):].startswith("/")
    out = []
    for m in fs.glob(p):
        if fnmatch.fnmatchcase("/" + m.lstrip("/"), "/" + p.lstrip("/")):
            out.append(head + (m if rooted else m.lstrip("/")))
    return sorted(out)


def walk(top, topdown=True, onerror=None):
    """Walks the directory tree at `top` as `os.walk`: yields `(dirpath, dirnames, filenames)`.

    Args:
      top: The root directory.
      topdown: Whether a directory is yielded before its subdirectories (True) or after.
      onerror: Called with the error if a directory cannot be listed (default: it is skipped).

    Yields:
      `(dirpath, subdirectory names, file names)` triples; nothing if `top` is no directory.
    """
    top = as_str_path(top)
    try:
        names = listdir(top)
    except Exception as e:  # noqa: BLE001 (TF: onerror gets the error, the walk goes on)
        if onerror is not None:
            onerror(e)
        return
    dirs, files = [], []
    for name in names:
        (dirs if isdir(join(top, name)) else files).append(name)
    if topdown:
        yield top, dirs, files
    for d in dirs:
        yield from walk(join(top, d), topdown, onerror)
    if not topdown:
        yield top, dirs, files


# ---- changes ---------------------------------------------------------------------------------------
def mkdir(path):
    """Creates directory `path` (an existing directory is fine).

    Raises:
      tf.errors.NotFoundError: If the parent directory does not exist.
    """
    path = as_str_path(path)
    if is_local(path):
        try:
            os.mkdir(_local(path))
        except FileExistsError:
            pass
        except OSError as e:
            raise _os_error(e, path) from None
        return
    fs, p = _remote(path)
    parent = posixpath.dirname(p.rstrip("/"))
    if parent and parent != "/" and not fs.isdir(parent) and _has_dirs(fs):
        raise error("NotFoundError", "%s; No such file or directory" % path)
    fs.makedirs(p, exist_ok=True)


def _has_dirs(fs):
    return "memory" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))


def makedirs(path):
    """Creates directory `path` and its missing parents (existing ones are fine).

    Raises:
      tf.errors.FailedPreconditionError: If `path` or a parent is a file.
    """
    path = as_str_path(path)
    if is_local(path):
        local = _local(path)
        parent = local
        while parent and not os.path.exists(parent):
            parent = os.path.dirname(parent.rstrip(os.sep))
        if parent and not os.path.isdir(parent):
            raise error("FailedPreconditionError", "%s is not a directory" % parent)
        with _os_errors(path):
            os.makedirs(local, exist_ok=True)
        return
    fs, p = _remote(path)
    head = path[:len(scheme_of(path)) + 3]
    parent = path[len(head):].rstrip("/")
    while parent and parent != "/":
        inner = _remote(head + parent)[1]
        if fs.exists(inner):
            if not fs.isdir(inner):
                raise error("FailedPreconditionError", "%s is not a directory" % (head + parent))
            break
        parent = posixpath.dirname(parent)
    fs.makedirs(p, exist_ok=True)


def remove(path):
    """Deletes file `path`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
      tf.errors.FailedPreconditionError: If it is a directory.
    """
    path = as_str_path(path)
    if is_local(path):
        local = _local(path)
        if os.path.isdir(local):
            raise error("FailedPreconditionError", "%s; Is a directory" % path)
        with _os_errors(path):
            os.remove(local)
        return
    fs, p = _remote(path)
    if not fs.exists(p):
        raise error("NotFoundError", "%s; No such file or directory" % path)
    if fs.isdir(p):
        raise error("FailedPreconditionError", "%s; Is a directory" % path)
    fs.rm_file(p)


def rmtree(path):
    """Deletes `path` and everything under it (a file is deleted too).

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
    """
    path = as_str_path(path)
    if not exists(path):
        raise error("NotFoundError", "%s not found" % path)
    if is_local(path):
        local = _local(path)
        with _os_errors(path):
            if os.path.isdir(local) and not os.path.islink(local):
                shutil.rmtree(local)
            else:
                os.remove(local)
        return
    fs, p = _remote(path)
    if fs.isdir(p):
        fs.rm(p, recursive=True)
        if fs.exists(p):
            fs.rmdir(p)
    else:
        fs.rm_file(p)


def _source_and_target(oldpath, newpath, overwrite):
    """The paths of a copy or rename as strings, checked: `oldpath` exists, and `newpath` does not unless it
    is a file to `overwrite`."""
    oldpath, newpath = as_str_path(oldpath), as_str_path(newpath)
    if not exists(oldpath):
        raise error("NotFoundError", "%s; No such file or directory" % oldpath)
    if exists(newpath) and (not overwrite or isdir(newpath)):
        raise error("AlreadyExistsError", "file already exists")
    return oldpath, newpath


def copy(oldpath, newpath, overwrite=False):
    """Copies file `oldpath` to `newpath` (across file systems too).

    Args:
      oldpath: The file to copy.
      newpath: The destination file.
      overwrite: Whether an existing `newpath` file is replaced.

    Raises:
      tf.errors.NotFoundError: If `oldpath` does not exist.
      tf.errors.AlreadyExistsError: If `newpath` exists and `overwrite` is false (or it is a directory).
    """
    oldpath, newpath = _source_and_target(oldpath, newpath, overwrite)
    if is_local(oldpath) and is_local(newpath):
        with _os_errors(newpath):
            shutil.copyfile(_local(oldpath), _local(newpath))
        return
    atomic_write(newpath, read_file(oldpath))


def rename(oldpath, newpath, overwrite=False):
    """Renames (moves) `oldpath` to `newpath`.

    Args:
      oldpath: The file or directory to rename.
      newpath: The new name.
      overwrite: Whether an existing `newpath` file is replaced.

    Raises:
      tf.errors.NotFoundError: If `oldpath` does not exist.
      tf.errors.AlreadyExistsError: If `newpath` exists and `overwrite` is false.
    """
    oldpath, newpath = _source_and_target(oldpath, newpath, overwrite)
    if is_local(oldpath) and is_local(newpath):
        with _os_errors(newpath):
            os.replace(_local(oldpath), _local(newpath))
        return
    if scheme_of(oldpath) == scheme_of(newpath):
        fs, p = _remote(oldpath)
        _, q = _remote(newpath)
        if fs.exists(q):
            fs.rm_file(q)
        fs.mv(p, q, recursive=fs.isdir(p))
        return
    if isdir(oldpath):
        raise error("UnimplementedError", "Renaming a directory across file systems is not supported: %s" % oldpath)
    atomic_write(newpath, read_file(oldpath))
    remove(oldpath)


# ---- whole files -----------------------------------------------------------------------------------
def open_raw(path, mode, buffering=-1, os_errors=False):
    """A binary Python file object for `path` ("rb", "wb", "ab", "xb"): the OS's for local paths, fsspec's
    for URLs. Errors are TF's.

    Args:
      path: The path or URL.
      mode: The binary mode.
      buffering: Python's `open` buffering (local files).
      os_errors: Whether a local file's `OSError` is raised as it is (for callers with their own
        messages) rather than as TF's error.

    Raises:
      tf.errors.NotFoundError: If a file to read (or the directory to write in) does not exist.
    """
    path = as_str_path(path)
    if is_local(path):
        try:
            return builtins.open(_local(path), mode, buffering=buffering)
        except OSError as e:
            if os_errors:
                raise
            raise _os_error(e, path) from None
    fs, p = _remote(path)
    if "r" in mode and not fs.isfile(p):
        raise error("NotFoundError", "%s; No such file or directory" % path)
    if "x" in mode:
        if fs.exists(p):
            raise error("AlreadyExistsError", "%s; File exists" % path)
        mode = mode.replace("x", "w")
    if "w" in mode or "a" in mode:
        parent = posixpath.dirname(p.rstrip("/"))
        if parent and parent != "/" and _has_dirs(fs) and not fs.isdir(parent):
            raise error("NotFoundError", "%s; No such file or directory" % path)
    try:
        return fs.open(p, mode)
    except FileNotFoundError:
        raise error("NotFoundError", "%s; No such file or directory" % path) from None


def read_file(path):
    """The bytes of file `path`.

    Raises:
      tf.errors.NotFoundError: If it does not exist.
    """
    with open_raw(path, "rb") as f:
        return f.read()


def write_file(path, data):
    """Writes `data` (bytes or str) to file `path`, replacing it (not atomically; see `atomic_write`)."""
    with open_raw(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def temp_path(path):
    """A unique temporary name next to `path` (for writing a file before renaming it to `path`)."""
    return "%s.tmp%s" % (as_str_path(path), uuid.uuid4().hex)


def atomic_write(path, data):
    """Writes `data` (bytes or str) to `path` through a temporary file renamed over it, so `path` holds
    either its old content or all of `data`, never a part (TF's `atomic_write_string_to_file`)."""
    tmp = temp_path(path)
    write_file(tmp, data)
    try:
        rename(tmp, path, overwrite=True)
    except BaseException:
        try:
            remove(tmp)
        except Exception:  # noqa: BLE001 (the rename's error is the one to see)
            pass
        raise


# ---- GFile -----------------------------------------------------------------------------------------
_MODES = ("r", "w", "a", "r+", "w+", "a+")


class GFile:
    """A file of any supported file system, as TF's `tf.gfile.GFile` (`tf.io.gfile.GFile`).

    The file is opened on first use (a missing file raises `NotFoundError` from the first read, a
    write-mode file is created or truncated by the first write). Text modes ("r", "w", "a", "r+",
    "w+", "a+") read `str` (UTF-8), binary modes ("rb", ...) `bytes`; `write` takes either. Offsets
    (`seek`, `tell`, `read(n)`) count bytes in both.

    Example:

      with tf.gfile.GFile("/tmp/x.txt", "w") as f:
          f.write("hello\\n")
      with tf.gfile.GFile("/tmp/x.txt") as f:
          lines = f.readlines()

    Args:
      name: The path or URL.
      mode: One of "r", "w", "a", "r+", "w+", "a+", optionally with "b".

    Raises:
      tf.errors.InvalidArgumentError: If `mode` is not one of those.
    """

    def __init__(self, name, mode="r"):
        self.__name = as_str_path(name)
        self.__mode = mode
        base = mode.replace("b", "")
        if base not in _MODES:
            raise error("InvalidArgumentError", "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._binary = "b" in mode
        self._readable = base.startswith("r") or "+" in base
        self._writable = not base == "r"
        self._raw_mode = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}[base]
        self._f = None

    @property
    def name(self):
        """The file name."""
        return self.__name

    @property
    def mode(self):
        """The mode the file was opened with."""
        return self.__mode

    def _file(self):
        if self._f is None:
            mode = self._raw_mode
            if not is_local(self.__name) and "+" in mode:
                mode = mode.replace("+", "")
            self._f = open_raw(self.__name, mode)
        return self._f

    def _check_read(self):
        if not self._readable:
            raise error("PermissionDeniedError", "File isn't open for reading")
        return self._file()

    def _check_write(self):
        if not self._writable:
            raise error("PermissionDeniedError", "File isn't open for writing")
        return self._file()

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    def size(self):
        """The size of the file in bytes."""
        if self._f is not None and self._writable:
            self._f.flush()
        return stat(self.__name).length

    def write(self, file_content):
        """Writes `file_content` (str or bytes) at the end of the file."""
        f = self._check_write()
        f.write(file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content))

    def read(self, n=-1):
        """Reads `n` bytes (all that are left if `n` is -1), as `str` in text mode.

        Returns:
          The data read (empty at the end of the file).
        """
        f = self._check_read()
        return self._out(f.read() if n is None or n < 0 else f.read(n))

    def readline(self):
        """Reads the next line, with its "\\n" (empty at the end of the file)."""
        return self._out(self._check_read().readline())

    def readlines(self):
        """All the remaining lines, as a list."""
        f = self._check_read()
        return [self._out(line) for line in f.readlines()]

    def seek(self, offset=None, whence=0, position=None):
        """Moves the read position to `offset` bytes from the start (`whence` 0), the current position
        (1) or the end (2). `position` is TF's deprecated name of `offset`."""
        if position is not None:
            if offset is not None:
                raise TypeError("position is deprecated in favor of the offset argument.")
            offset = position
        f = self._check_read()
        f.seek(0 if offset is None else offset, whence)

    def tell(self):
        """The current position in bytes."""
        return self._file().tell() if self._readable else self._check_write().tell()

    def seekable(self):
        """True: GFiles are seekable."""
        return True

    def flush(self):
        """Flushes what was written to the file system (a later reader sees it)."""
        if self._f is not None and self._writable:
            self._f.flush()

    def close(self):
        """Flushes and closes the file. Closing again does nothing."""
        if self._f is not None:
            f, self._f = self._f, None
            f.close()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 (nothing to report to at garbage collection)
            pass


class FastGFile(GFile):
    """`GFile` (TF's deprecated name: "Use tf.gfile.GFile")."""
