#pragma once
// A stored run kept whole once (the run_documents table, docs/history.md): its info (as run.json's
// `run` block) and, per case in the run's case order, its warm-ups and trials as JSON (results/
// model_json's trial_to_json), in one zlib-compressed JSON document. Keys repeat in every trial, so
// one document per run compresses far better than one per trial. What `history show` gives back;
// read as untrusted input (tests/fuzz/fuzz_history_document.cpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::history {

std::string compress_document(const nlohmann::json& info, const std::vector<std::vector<nlohmann::json>>& cases);

// The run's info and the trials of `run.cases` (their headers already read, in order) restored from
// `bytes`: each trial goes to its case's warm-ups or trials. Throws HistoryError naming what is wrong
// when the bytes are not such a document, or its info or a trial is not one this perfzero reads.
void restore_document(const std::string& bytes, results::Run& run);

}  // namespace perfzero::history
