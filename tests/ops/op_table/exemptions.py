"""Op types that cannot have an op-table row, each with the reason and the test file covering it.

Keys must be registered op types without a row in tests/ops/op_table/rows_*.py (checked by
tests/ops/test_op_table.py). Op types starting with "_" are internal fused ops that only the plan
compiler's rewrites create (their shape inference refuses graph construction)."""

_INTERNAL = "internal rewrite op: bitwise vs the unfused ops in tests/runtime/test_passes.py"

EXEMPT = {
    "_AddChain": _INTERNAL,
    "_AddChainRows": _INTERNAL,
    "_Conv2DBackpropFilterWithPatches": _INTERNAL,
    "_FusedConv2D": _INTERNAL,
    "_ReluMaxPoolGrad": _INTERNAL,
    "RefRead": "built only inside function bodies (a variable captured by a while_loop/cond body), never in the "
               "graph a row's fn builds: tests/ops/test_op_table_stateful.py::test_ref_read_*",
    "MergeV2Checkpoints": "file-merging op without outputs: "
                          "tests/train/test_tf_meta_graph.py::test_merge_v2_checkpoints_writes_one_data_file_per_shard",
    "Unrestorable": "stands for an op a meta graph could not serialize and raises UnimplementedError whenever it "
                    "runs: tests/train/test_saver.py::test_ops_with_python_object_attrs_import_as_ops_failing_when_run",
}
