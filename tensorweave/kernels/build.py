"""`build_library`: compiles C or C++ kernel sources into a shared library for `tf.load_op_library`,
with the system compiler (`$CC`/`$CXX`, else cc/gcc/clang and c++/g++/clang++)."""

import os

from ..platform import sysconfig

# shutil and subprocess are imported where a library is built: `import tensorweave` does not need them
# (~3 ms of import time).

__all__ = ["build_library", "find_compiler"]

_CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".C")


def find_compiler(cplusplus=False):
    """Returns the path of the system C (or C++) compiler, or None if there is none.

    Args:
      cplusplus: Find the C++ compiler ($CXX, c++, g++, clang++) instead of the C one ($CC, cc, gcc, clang).
    """
    import shutil
    env = os.environ.get("CXX" if cplusplus else "CC", "").split()
    names = ["c++", "g++", "clang++"] if cplusplus else ["cc", "gcc", "clang"]
    for name in env[:1] + names:
        path = shutil.which(name)
        if path:
            return path
    return None


def build_library(sources, output, include_dirs=(), extra_args=()):
    """Compiles and links `sources` into the shared library `output` (`-shared -fPIC -O2`).

    The directory of `tensorweave_op.h` (`tf.sysconfig.get_include()`) is on the include path.
    Sources ending in .cc/.cpp/.cxx are compiled as C++ (with the C++ compiler).

    Args:
      sources: A path or a list of paths of C/C++ source files.
      output: The path of the library to write (its directory is created).
      include_dirs: More include directories.
      extra_args: More compiler arguments (e.g. `["-fopenmp"]`).

    Returns:
      The absolute path of `output`.

    Raises:
      RuntimeError: If no compiler is found or compiling fails (with the compiler's messages).
    """
    sources = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    cplusplus = any(str(s).endswith(_CXX_SUFFIXES) for s in sources)
    compiler = find_compiler(cplusplus)
    if compiler is None:
        raise RuntimeError("No %s compiler found: install gcc or clang, or set %s."
                           % (("C++", "CXX") if cplusplus else ("C", "CC")))
    output = os.path.abspath(output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    cmd = [compiler, "-shared", "-fPIC", "-O2"] + sysconfig.get_compile_flags()
    cmd += ["-I" + str(d) for d in include_dirs] + [str(s) for s in sources] + list(extra_args) + ["-o", output]
    import subprocess
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("Compiling %s failed (exit status %d):\n%s\n%s"
                           % (", ".join(map(str, sources)), proc.returncode, " ".join(cmd), proc.stderr.strip()))
    return output
