"""Version numbers (`tf.__version__`, `tf.version`): tensorweave's own release, the TensorFlow API it
implements, and the GraphDef version range of the graphs it writes and reads; any layer can read them
(meta graphs and GraphDefs record them)."""

import platform as _platform

__version__ = "0.1.0"

# The TF API tensorweave implements (`tf.VERSION`; written as a MetaGraphDef's meta_info_def.tensorflow_version).
VERSION = "1.15.5"
# The build's identity (`tf.GIT_VERSION`; a MetaGraphDef's meta_info_def.tensorflow_git_version).
GIT_VERSION = "tensorweave-" + __version__
# tensorweave compiles nothing: the compiler is the one that built the Python interpreter running it.
COMPILER_VERSION = _platform.python_compiler()
# The GraphDef producer version written in `versions.producer`: TensorFlow 2.21's, so TF reads the graphs
# with the op semantics tensorweave follows.
GRAPH_DEF_VERSION = 2474
# The oldest GraphDef producer version tensorweave reads, and the oldest consumer its GraphDefs need
# (TF's own values).
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
