"""`tf.initializers`: the initializer classes under their TF1 `tf.initializers.*` names."""

from .ops import init_ops
from .ops.init_ops import he_normal, he_uniform, lecun_normal, lecun_uniform
from .ops.lookup_ops import tables_initializer
from .variables import global_variables_initializer, local_variables_initializer, variables_initializer

__all__ = ["constant", "global_variables", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity",
           "lecun_normal", "lecun_uniform", "local_variables", "ones", "orthogonal", "random_normal", "random_uniform",
           "tables_initializer", "truncated_normal", "uniform_unit_scaling", "variables", "variance_scaling", "zeros"]

constant = init_ops.Constant
glorot_normal = init_ops.GlorotNormal
glorot_uniform = init_ops.GlorotUniform
identity = init_ops.Identity
ones = init_ops.Ones
orthogonal = init_ops.Orthogonal
random_normal = init_ops.RandomNormal
random_uniform = init_ops.RandomUniform
truncated_normal = init_ops.TruncatedNormal
uniform_unit_scaling = init_ops.UniformUnitScaling
variance_scaling = init_ops.VarianceScaling
zeros = init_ops.Zeros
global_variables = global_variables_initializer
local_variables = local_variables_initializer
variables = variables_initializer
