"""`tf.resource_loader`: paths relative to the calling script and files of the package."""

import os

import tensorweave as tf


def test_paths_relative_to_caller():
    here = os.path.dirname(os.path.abspath(__file__))
    assert tf.resource_loader.get_data_files_path() == here
    assert tf.resource_loader.get_root_dir_with_all_resources() == here
    assert tf.resource_loader.get_path_to_datafile("x/y.txt") == os.path.join(here, "x/y.txt")
    assert tf.resource_loader.readahead_file_path("/a/b") == "/a/b"


def test_load_resource():
    data = tf.resource_loader.load_resource("include/tensorweave_op.h")
    assert isinstance(data, bytes) and data
    try:
        tf.resource_loader.load_resource("no/such/file")
    except OSError:
        pass
    else:
        raise AssertionError("expected OSError")
