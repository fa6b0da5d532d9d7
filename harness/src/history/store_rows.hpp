#pragma once
// Rows the store and its migrations both write or read (history/store.cpp, history/schema.cpp).
#include <cstdint>
#include <string>

#include "history/sql_connection.hpp"
#include "results/model.hpp"

namespace perfzero::history {

// Text from a run directory may hold any bytes; the database gets valid UTF-8 (PostgreSQL insists):
// invalid bytes become U+FFFD.
std::string valid_utf8(const std::string& s);

// A run's succeeded, non-warm-up trials with their wall time, flags and metrics, read from the trials
// and metrics tables of schema versions 1 to 3 (migration 4 reads them once, then drops them). Cases
// in their order; the run's info is left empty.
results::Run load_measured_trials(SqlConnection& db, std::int64_t run_id);

// One series point per case and metric of `run` (and each case's wall_time): the median of its
// succeeded, undisturbed trials, as `compare --history` takes it (NULL when all were disturbed),
// and of all of them. A series with no succeeded trial gets no point; a case name that comes twice
// in a run gets the first one's.
void insert_series_points(SqlConnection& db, std::int64_t run_id, const results::Run& run);

}  // namespace perfzero::history
