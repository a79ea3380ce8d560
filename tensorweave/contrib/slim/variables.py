"""`tf.contrib.slim.variables` (= `tf.contrib.framework`'s variable helpers): model variables,
variable lookup by scope/name/suffix, the variables to restore, and assigning variables from a
checkpoint or from values, as TF 1.15."""

from ..framework import (
                         get_local_variables,
                         get_model_variables,
                         get_trainable_variables,
                         get_unique_variable,
                         get_variables,
                         get_variables_by_name,
                         get_variables_by_suffix,
                         model_variable,
                         variable,
)
from ..framework_variables import (
                         add_model_variable,
                         assert_global_step,
                         assert_or_get_global_step,
                         assign_from_checkpoint,
                         assign_from_checkpoint_fn,
                         assign_from_values,
                         assign_from_values_fn,
                         create_global_step,
                         filter_variables,
                         get_global_step,
                         get_or_create_global_step,
                         get_variable_full_name,
                         get_variables_to_restore,
                         global_variable,
                         local_variable,
)

__all__ = ["add_model_variable", "assert_global_step", "assert_or_get_global_step", "assign_from_checkpoint",
           "assign_from_checkpoint_fn", "assign_from_values", "assign_from_values_fn", "create_global_step",
           "filter_variables", "get_global_step", "get_or_create_global_step", "get_local_variables",
           "get_model_variables", "get_trainable_variables", "get_unique_variable", "get_variables_by_name",
           "get_variables_by_suffix", "get_variable_full_name", "get_variables_to_restore", "get_variables",
           "global_variable", "local_variable", "model_variable", "variable"]
