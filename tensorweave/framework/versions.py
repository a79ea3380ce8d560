"""The tensorweave version (`tf.__version__`), where any layer can read it (meta graphs record it)."""

__version__ = "0.1.0"
