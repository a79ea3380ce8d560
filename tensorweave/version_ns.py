"""`tf.version`: the version numbers (each defined once in `framework.versions`)."""

from .framework.versions import (
                                 COMPILER_VERSION,
                                 GIT_VERSION,
                                 GRAPH_DEF_VERSION,
                                 GRAPH_DEF_VERSION_MIN_CONSUMER,
                                 GRAPH_DEF_VERSION_MIN_PRODUCER,
                                 VERSION,
)

__all__ = ["COMPILER_VERSION", "GIT_VERSION", "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
           "GRAPH_DEF_VERSION_MIN_PRODUCER", "VERSION"]
