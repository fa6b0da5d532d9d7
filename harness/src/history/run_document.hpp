#pragma once
// A stored run kept whole once (the run_documents table, docs/history.md): its info (as run.json's
// `run` block), its cases' headers, and per case its warm-ups and trials as JSON (results/
// model_json's trial_to_json), in one zlib-compressed JSON document
// {"info": {...}, "headers": [case, ...], "cases": [[trial, ...], ...]}. Keys repeat in every trial,
// so one document per run compresses far better than one per trial or case. What `history show`
// gives back; read as untrusted input (tests/fuzz/fuzz_history_document.cpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::history {

// `headers[i]` (results::case_header_to_json) describes the case whose warm-ups and trials are `cases[i]`.
std::string compress_document(const nlohmann::json& info, const std::vector<nlohmann::json>& headers,
                              const std::vector<std::vector<nlohmann::json>>& cases);

// The document of `run` as it is.
std::string compress_document(const results::Run& run);

// How much of each trial to restore. The samplers' time series are more than half of a stored
// trial, and only `history show` gives them back: a reader of measurements (the site, its cost
// view) skips them without building them, about a third of the time a document takes to read.
enum class TrialDetail { whole, without_samplers };

// The run (info, cases in order, each trial among its case's warm-ups or trials; not its status)
// restored from `bytes`. Throws HistoryError naming what is wrong when the bytes are not such a
// document, or its info, a header or a trial is not one this perfzero reads.
results::Run restore_document(const std::string& bytes, TrialDetail detail = TrialDetail::whole);

}  // namespace perfzero::history
