"""tf.VERSION / tf.version: the TF API version tensorweave implements and the GraphDef versions it writes."""

import re

import tensorweave as tf


def test_version_names_agree_with_the_version_module():
    assert tf.VERSION == tf.version.VERSION == "1.15.5"
    assert tf.GIT_VERSION == tf.version.GIT_VERSION == "tensorweave-" + tf.__version__
    assert tf.GRAPH_DEF_VERSION == tf.version.GRAPH_DEF_VERSION == 2474
    assert tf.GRAPH_DEF_VERSION_MIN_CONSUMER == tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER == 0
    assert tf.GRAPH_DEF_VERSION_MIN_PRODUCER == tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER == 0
    assert isinstance(tf.COMPILER_VERSION, str) and tf.COMPILER_VERSION == tf.version.COMPILER_VERSION
    assert re.match(r"^\d+\.\d+\.\d+$", tf.VERSION)


def test_graph_defs_and_meta_graphs_record_these_versions():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
        meta = tf.train.export_meta_graph()
    assert g.as_graph_def().versions.producer == tf.GRAPH_DEF_VERSION
    assert meta.meta_info_def.tensorflow_version == tf.VERSION
    assert meta.meta_info_def.tensorflow_git_version == tf.GIT_VERSION
