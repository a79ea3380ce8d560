"""`tensorflow.examples` (TF 1.x's module path): the tutorials' data helpers."""
