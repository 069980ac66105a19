"""`pip install .`: the Python module `pmusim`, built by the project's CMake build (docs/library.md, "Python").

No network and no packages from PyPI: CMake, a C++17 compiler, pybind11 and the other libraries come from Debian
(scripts/setup.sh), setuptools with pip. The module is built in build/python-module (or in the build tree that
PMUSIM_BUILD_DIR names, already configured) and copied where setuptools installs extensions.
"""
import glob
import os
import re
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """The version of `project(pmusim VERSION x.y.z)` in CMakeLists.txt: the one the module and the command report."""
    with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(pmusim VERSION ([0-9.]+)", f.read())
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(pmusim VERSION ...) line")
    return match.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("PMUSIM_BUILD_DIR") or os.path.join(SOURCE, "build", "python-module")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DPMUSIM_BUILD_PYTHON=ON", "-DPython3_EXECUTABLE=" + sys.executable])
        subprocess.check_call(["cmake", "--build", build, "--target", "pmusim_python", "--parallel",
                               os.environ.get("PMUSIM_JOBS", "2")])
        built = glob.glob(os.path.join(build, "python", "pmusim*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one built module under {build}/python, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        self.copy_file(built[0], target)


setup(
    name="pmusim",
    version=project_version(),
    description="simulator and register model of hardware performance monitor units",
    ext_modules=[Extension("pmusim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build files beside the CMake build's, not in it
    options={"build": {"build_base": os.path.join("build", "python-setuptools")}},
    zip_safe=False,
)
