// The engines this build has: one line each (an engine is its own file in this folder).
#include "engines/engine.hpp"

namespace perfzero::engines {

EngineKind local_engine();
EngineKind mpirun_engine();
EngineKind slurm_engine();

const EngineRegistry& builtin_engines() {
  static const EngineRegistry registry = [] {
    EngineRegistry r;
    r.add(local_engine());
    r.add(mpirun_engine());
    r.add(slurm_engine());
    return r;
  }();
  return registry;
}

}  // namespace perfzero::engines
