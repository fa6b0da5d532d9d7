#pragma once
// Umbrella header for benchmark authors: include this, write `void method(perfzero::Context&)`,
// and register it with a static perfzero::Registration. See docs/writing_benchmarks.md.
#include "perfzero/context.hpp"
#include "perfzero/measure.hpp"
#include "perfzero/metric.hpp"
#include "perfzero/param.hpp"
#include "perfzero/registry.hpp"
#include "perfzero/repetition_series.hpp"
#include "perfzero/standard_params.hpp"
