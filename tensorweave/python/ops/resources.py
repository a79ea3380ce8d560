"""`tensorflow.python.ops.resources` (TF 1.x's module path): the collections of resources (tensor
forests, boosted-trees ensembles, lookup tables) and their initializers, as TF-Examples'
`random_forest.py` imports them."""

from ...ops.resources import (
    initialize_resources,
    local_resources,
    register_resource,
    report_uninitialized_resources,
    shared_resources,
)

__all__ = ["initialize_resources", "local_resources", "register_resource", "report_uninitialized_resources",
           "shared_resources"]
