"""The `tf.*` names the Keras engine and backend use, taken from the layers below the package root
(`import tensorweave` from here would import the package from inside its own import)."""

from .. import nn, train
from ..client.session import Session
from ..framework.constant_op import constant
from ..framework.dtypes import as_dtype, int64
from ..framework.dtypes import bool_ as bool  # noqa: A001
from ..framework.ops import (
                             control_dependencies,
                             convert_to_tensor,
                             get_default_graph,
                             get_default_session,
                             is_tensor,
                             name_scope,
                             reset_default_graph,
)
from ..framework.tensor_shape import TensorShape
from ..gradients.gradients_impl import gradients
from ..ops.array_gather_ops import gather
from ..ops.array_join_ops import concat, stack, tile
from ..ops.array_permute_ops import transpose
from ..ops.array_select_ops import where
from ..ops.array_shape_ops import expand_dims, reshape, squeeze
from ..ops.clip_ops import clip_by_value
from ..ops.control_flow_ops import cond
from ..ops.core_ops import (
                             add_n,
                             group,
                             identity,
                             ones_like,
                             placeholder,
                             placeholder_with_default,
                             shape,
                             stop_gradient,
                             zeros_like,
)
from ..ops.math_binary_ops import (
                             equal,
                             greater,
                             maximum,
                             minimum,
                             pow,  # noqa: A004
)
from ..ops.math_matmul_ops import matmul, tensordot
from ..ops.math_reduce_ops import argmax, argmin, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum
from ..ops.math_unary_ops import abs, cast, exp, log, round, sigmoid, sqrt, square, tanh  # noqa: A004
from ..ops.random_ops import random_normal, random_uniform
from ..ops.state_ops import assign, assign_add, assign_sub
from ..variables import Variable, global_variables, is_variable_initialized, variables_initializer

__all__ = ["Session", "TensorShape", "Variable", "abs", "add_n", "argmax", "argmin", "as_dtype", "assign", "assign_add",
           "assign_sub", "bool", "cast", "clip_by_value", "concat", "cond", "constant", "control_dependencies",
           "convert_to_tensor", "equal", "exp", "expand_dims", "gather", "get_default_graph", "get_default_session",
           "global_variables", "gradients", "greater", "group", "identity", "int64", "is_tensor",
           "is_variable_initialized", "log", "matmul", "maximum", "minimum", "name_scope", "nn", "ones_like",
           "placeholder", "placeholder_with_default", "pow", "random_normal", "random_uniform", "reduce_max",
           "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum", "reset_default_graph", "reshape", "round",
           "shape", "sigmoid", "sqrt", "square", "squeeze", "stack", "stop_gradient", "tanh", "tensordot", "tile",
           "train", "transpose", "variables_initializer", "where", "zeros_like"]
