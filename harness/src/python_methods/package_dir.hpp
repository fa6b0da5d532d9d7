#pragma once
// Where the perfzero Python package is, so that every interpreter a method names can import it
// without installing it: the directory holding perfzero/, first on the child's PYTHONPATH. Only
// that directory: putting Debian's dist-packages there would hand a virtual environment Debian's
// NumPy as well.
#include <string>

namespace perfzero::python_methods {

// $PERFZERO_PYTHON_PACKAGE_DIR; else <perfzero's dir>/../share/perfzero/python (the Debian package
// python3-perfzero, the images); else the source tree's harness/python (a build tree). "" when
// none holds perfzero/__init__.py.
std::string package_dir();

}  // namespace perfzero::python_methods
