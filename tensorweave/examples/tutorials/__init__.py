"""`tensorflow.examples.tutorials` (TF 1.x's module path)."""
