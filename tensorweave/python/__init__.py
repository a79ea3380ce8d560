"""`tensorflow.python` (TF 1.x's internal package path): the modules TF 1.x programs import from it.

A program written `from tensorflow.python.ops import array_ops` runs on tensorweave as
`from tensorweave.python.ops import array_ops`: each module here re-exports, under the names TF's
module had, the tensorweave objects implementing them (only names tensorweave implements with TF's
semantics). Nothing is imported until a module is: `import tensorweave` does not load this package.
"""
