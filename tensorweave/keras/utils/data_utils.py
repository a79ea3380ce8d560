"""Data utilities: `get_file` (cached downloads) and `Sequence`."""

import hashlib
import os
import tarfile
import zipfile
from urllib.parse import urlsplit

from tensorweave.keras.utils.generic_utils import Progbar


def _resolve_hasher(algorithm, file_hash=None):
    """Returns a hashlib hasher for `algorithm` ('auto' picks by length)."""
    if algorithm == "sha256":
        return hashlib.sha256()
    if algorithm == "auto" and file_hash is not None and len(file_hash) == 64:
        return hashlib.sha256()
    return hashlib.md5()


def _hash_file(fpath, algorithm="sha256", chunk_size=65535):
    """Calculates a file sha256 or md5 hash.

    Args:
      fpath: path to the file being validated.
      algorithm: hash algorithm, one of `'auto'`, `'sha256'`, or `'md5'`.
      chunk_size: Bytes to read at a time.

    Returns:
      The file hash (hex digest).
    """
    if isinstance(algorithm, str):
        hasher = _resolve_hasher(algorithm)
    else:
        hasher = algorithm
    with open(fpath, "rb") as fpath_file:
        for chunk in iter(lambda: fpath_file.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Validates a file against a sha256 or md5 hash.

    Args:
      fpath: path to the file being validated.
      file_hash: The expected hash string of the file.
      algorithm: Hash algorithm, one of `'auto'`, `'sha256'`, or `'md5'`;
        `'auto'` detects the algorithm from the hash length.
      chunk_size: Bytes to read at a time.

    Returns:
      Whether the file is valid.
    """
    hasher = _resolve_hasher(algorithm, file_hash)
    return str(_hash_file(fpath, hasher, chunk_size)) == str(file_hash)


def _is_within(directory, target):
    directory = os.path.realpath(directory)
    target = os.path.realpath(target)
    return os.path.commonpath([directory, target]) == directory


def _check_tar_members(archive, path):
    """Refuses tar members that are not plain files/dirs inside `path`.

    Used on Pythons whose `tarfile` has no extraction filters.

    Args:
      archive: an open `tarfile.TarFile`.
      path: the extraction directory.

    Raises:
      ValueError: for a member that is a link, a device, or outside `path`.
    """
    for member in archive.getmembers():
        if not (member.isfile() or member.isdir()):
            raise ValueError("Archive member %r is not a plain file or directory" % member.name)
        if not _is_within(path, os.path.join(path, member.name)):
            raise ValueError("Archive member %r would be extracted outside %r" % (member.name, path))


def _extract_archive(file_path, path=".", archive_format="auto"):
    """Extracts an archive if it matches tar, tar.gz, tar.bz, or zip formats.

    Members that would land outside `path` (absolute names, `..`, links
    pointing out) are refused. Unlike Keras, nothing is deleted on failure.

    Args:
      file_path: path to the archive file.
      path: path to extract the archive file.
      archive_format: Archive format to try for extracting the file. Options
        are 'auto', 'tar', 'zip', and None. 'auto' is ['tar', 'zip'].

    Returns:
      True if a match was found and an archive extraction was completed,
      False otherwise.
    """
    if archive_format is None:
        return False
    if archive_format == "auto":
        archive_format = ["tar", "zip"]
    if isinstance(archive_format, str):
        archive_format = [archive_format]

    for archive_type in archive_format:
        if archive_type == "tar":
            open_fn = tarfile.open
            is_match_fn = tarfile.is_tarfile
        elif archive_type == "zip":
            open_fn = zipfile.ZipFile
            is_match_fn = zipfile.is_zipfile
        else:
            continue

        if is_match_fn(file_path):
            with open_fn(file_path) as archive:
                if archive_type == "tar":
                    if hasattr(tarfile, "data_filter"):
                        archive.extractall(path, filter="data")
                    else:
                        _check_tar_members(archive, path)
                        archive.extractall(path)
                else:
                    for name in archive.namelist():
                        if not _is_within(path, os.path.join(path, name)):
                            raise ValueError("Archive member %r would be extracted outside %r" % (name, path))
                    archive.extractall(path)
            return True
    return False


def get_file(
    fname,
    origin,
    untar=False,
    md5_hash=None,
    file_hash=None,
    cache_subdir="datasets",
    hash_algorithm="auto",
    extract=False,
    archive_format="auto",
    cache_dir=None,
):
    """Downloads a file from a URL if it is not already in the cache.

    By default the file at the url `origin` is downloaded to the cache_dir
    `~/.keras`, placed in the cache_subdir `datasets`, and given the filename
    `fname`. The final location of a file `example.txt` would therefore be
    `~/.keras/datasets/example.txt`. A file already in the cache is returned
    without any network access (after checking `file_hash` if given; on a
    mismatch it is downloaded again).

    Args:
      fname: Name of the file. If an absolute path is specified the file will
        be saved at that location.
      origin: Original URL of the file.
      untar: Deprecated in favor of `extract`. Whether the file should be
        decompressed (a `.tar.gz` next to an extracted folder `fname`).
      md5_hash: Deprecated in favor of `file_hash`. md5 hash of the file.
      file_hash: The expected hash string of the file after download. Both
        sha256 and md5 are supported.
      cache_subdir: Subdirectory under the Keras cache dir where the file is
        saved. If an absolute path is specified the file will be saved there.
      hash_algorithm: `'md5'`, `'sha256'`, or `'auto'` (detect by length).
      extract: True tries extracting the file as an Archive, like tar or zip.
      archive_format: Archive format to try for extracting the file. Options
        are `'auto'`, `'tar'`, `'zip'`, and `None`.
      cache_dir: Location to store cached files, when None it defaults to
        `~/.keras`.

    Returns:
      Path to the downloaded file.

    Raises:
      Exception: `'URL fetch failure on <origin>: ...'` when the download
        fails (for instance when offline).
      ValueError: if a freshly downloaded file does not match `file_hash`.
    """
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash = md5_hash
        hash_algorithm = "md5"
    datadir_base = os.path.expanduser(cache_dir)
    if not os.access(datadir_base, os.W_OK):
        datadir_base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(datadir_base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)

    fname = os.fspath(fname) if fname else fname
    if not fname:
        fname = os.path.basename(urlsplit(origin).path)
        if not fname:
            raise ValueError(
                "Can't parse the file name from the origin provided: "
                "'%s'. Please specify the `fname` argument." % origin
            )

    if untar:
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)

    download = False
    if os.path.exists(fpath):
        if file_hash is not None:
            if not validate_file(fpath, file_hash, algorithm=hash_algorithm):
                print(
                    "A local file was found, but it seems to be "
                    "incomplete or outdated because the "
                    + hash_algorithm
                    + " file hash does not match the original value of "
                    + file_hash
                    + " so we will re-download the data."
                )
                download = True
    else:
        download = True

    if download:
        print("Downloading data from", origin)

        class DLProgbar(object):
            """Progress bar for `urlretrieve`, capped at the reported size."""

            def __init__(self):
                self.progbar = None
                self.finished = False

            def __call__(self, block_num, block_size, total_size):
                if self.progbar is None:
                    if total_size == -1:
                        total_size = None
                    self.progbar = Progbar(total_size)
                current = block_num * block_size
                if total_size is None or total_size == -1:
                    self.progbar.update(current)
                elif current < total_size:
                    self.progbar.update(current)
                elif not self.finished:
                    self.progbar.update(self.progbar.target)
                    self.finished = True

        import urllib.error  # imported here: urllib.request costs ~10 ms at `import tensorweave`
        import urllib.request
        error_msg = "URL fetch failure on {}: {} -- {}"
        try:
            try:
                urllib.request.urlretrieve(origin, fpath, DLProgbar())
            except urllib.error.HTTPError as e:
                raise Exception(error_msg.format(origin, e.code, e.msg))
            except urllib.error.URLError as e:
                raise Exception(error_msg.format(origin, e.errno, e.reason))
        except (Exception, KeyboardInterrupt):
            if os.path.exists(fpath):
                os.remove(fpath)
            raise

        if file_hash is not None and not validate_file(fpath, file_hash, algorithm=hash_algorithm):
            raise ValueError(
                "Incomplete or corrupted file detected. The " + hash_algorithm + " file hash does not match the "
                "provided value of " + file_hash + "."
            )

    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath

    if extract:
        _extract_archive(fpath, datadir, archive_format)

    return fpath


class Sequence(object):
    """Base object for fitting to a sequence of data, such as a dataset.

    Every `Sequence` must implement the `__getitem__` and the `__len__`
    methods. If you want to modify your dataset between epochs you may
    implement `on_epoch_end`. The method `__getitem__` should return a
    complete batch.
    """

    def __getitem__(self, index):
        """Gets batch at position `index`.

        Args:
          index: position of the batch in the Sequence.

        Returns:
          A batch.
        """
        raise NotImplementedError

    def __len__(self):
        """Number of batch in the Sequence.

        Returns:
          The number of batches in the Sequence.
        """
        raise NotImplementedError

    def on_epoch_end(self):
        """Method called at the end of every epoch."""
        pass

    def __iter__(self):
        """Creates a generator that iterates over the Sequence."""
        for item in (self[i] for i in range(len(self))):
            yield item
