#include "onednn/onednn_info.hpp"

#include <oneapi/dnnl/dnnl_debug.h>
#include <oneapi/dnnl/dnnl.hpp>

namespace perfzero::onednn {

std::string dispatched_isa() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::sse41:
      return "sse41";
    case dnnl::cpu_isa::avx:
      return "avx";
    case dnnl::cpu_isa::avx2:
      return "avx2";
    case dnnl::cpu_isa::avx2_vnni:
      return "avx2_vnni";
    case dnnl::cpu_isa::avx512_core:
      return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "other";
  }
}

FrameworkInfo framework_info() {
  const dnnl_version_t* v = dnnl_version();
  return {"oneDNN", std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch),
          std::string(v->hash) + ", cpu runtime " + (v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other") +
              ", isa " + dispatched_isa()};
}

}  // namespace perfzero::onednn
