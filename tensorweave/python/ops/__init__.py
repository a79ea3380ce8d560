"""`tensorflow.python.ops` (TF 1.x's package path); its modules load on import."""
