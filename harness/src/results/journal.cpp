#include "results/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/sync_behind.hpp"
#include "results/model_json.hpp"

namespace perfzero::results {

namespace {

double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

JournalWriter::JournalWriter(const std::filesystem::path& run_dir) : path_(run_dir / kJournalFile) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw OutputError(fmt::format("cannot open {}: {}", path_.string(), std::strerror(errno)));
}

JournalWriter::~JournalWriter() {
  if (fd_ < 0) return;
  try {
    files::sync_behind().flush();  // the queue must not hold this descriptor once it is closed
  } catch (const OutputError&) {
    // Already reported to the run, or the run is ending on another error.
  }
  ::close(fd_);
}

void JournalWriter::append(const nlohmann::json& event) {
  // One write per line: O_APPEND puts it whole at the end, so a reader never sees two interleaved.
  const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const off_t start = ::lseek(fd_, 0, SEEK_END);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = n < 0 ? errno : ENOSPC;
      // A torn line followed by later events would read as corruption: cut it off again.
      if (done > 0 && start >= 0 && ::ftruncate(fd_, start) != 0) {
        // Nothing more to do: the reader reports the torn line with its line number.
      }
      throw OutputError(fmt::format("cannot append to {}: {}", path_.string(), std::strerror(saved)));
    }
    done += static_cast<std::size_t>(n);
  }
}

void JournalWriter::run_started(bool resuming) {
  append({{"event", "run_started"}, {"time", now_epoch()}, {"resuming", resuming}});
}

void JournalWriter::trial_finished(const Case& c, const Trial& trial) {
  if (cases_written_.insert(c.name).second) append({{"event", "case"}, {"case", case_header_to_json(c)}});
  // A sync of an earlier trial that failed in the background stops the run here, before this one.
  if (auto failed = files::sync_behind().failure()) throw OutputError(*failed);
  append({{"event", "trial"}, {"case", c.name}, {"trial", trial_to_json(trial)}});
}

void JournalWriter::sync_later() { files::sync_behind().descriptor(fd_, path_); }

void JournalWriter::run_finished(const std::string& status) {
  append({{"event", "run_finished"}, {"time", now_epoch()}, {"status", status}});
  // The run's end waits for every queued sync (the recorder then syncs the reports and summaries).
  files::sync_behind().descriptor(fd_, path_);
  files::sync_behind().flush();
}

namespace {

void apply_event(const nlohmann::json& event, JournalContents& out, std::map<std::string, std::size_t>& index) {
  const std::string type = event.at("event").get<std::string>();
  if (type == "case") {
    Case header = case_header_from_json(event.at("case"));
    if (index.find(header.name) == index.end()) {
      index[header.name] = out.cases.size();
      out.cases.push_back(std::move(header));
    }
  } else if (type == "trial") {
    const std::string name = event.at("case").get<std::string>();
    const auto it = index.find(name);
    if (it == index.end()) throw std::runtime_error("a trial of case '" + name + "', which no earlier line declares");
    Trial trial = trial_from_json(event.at("trial"));
    Case& c = out.cases[it->second];
    auto& list = trial.warmup ? c.warmups : c.trials;
    // A trial run again (after an interrupt, by --resume) replaces the earlier record of it.
    const auto same = std::find_if(list.begin(), list.end(), [&](const Trial& t) { return t.number == trial.number; });
    if (same != list.end()) {
      *same = std::move(trial);
    } else {
      list.push_back(std::move(trial));
    }
  } else if (type == "run_finished") {
    out.last_status = event.at("status").get<std::string>();
  } else if (type == "run_started") {
    out.last_status.clear();
  }
  // Unknown event types come from a newer minor version: skipped, as minor versions only add.
}

}  // namespace

JournalContents read_journal(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  JournalContents out;
  std::map<std::string, std::size_t> index;
  std::string line;
  int number = 0;
  std::string pending_error;
  while (std::getline(in, line)) {
    ++number;
    if (!pending_error.empty()) throw std::runtime_error(pending_error);
    if (line.empty()) continue;
    try {
      apply_event(nlohmann::json::parse(line), out, index);
    } catch (const std::exception& e) {
      // Only the last line may be torn; anything earlier is corruption worth stopping for.
      pending_error = fmt::format("{}:{}: unreadable journal event: {}", path.string(), number, e.what());
      ++out.skipped_lines;
    }
  }
  return out;
}

}  // namespace perfzero::results
