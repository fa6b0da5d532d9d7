#include "results/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/sync_behind.hpp"
#include "results/model_json.hpp"
#include "results/trial_event_text.hpp"

namespace perfzero::results {

namespace {

double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

JournalWriter::JournalWriter(const std::filesystem::path& run_dir) : path_(run_dir / kJournalFile) {
  std::error_code ec;
  if (std::filesystem::exists(path_, ec)) {
    try {
      seq_ = read_journal(path_).last_seq;
    } catch (const std::exception&) {
      // Unreadable as a whole (a line over the limit): new lines still number on from the file's
      // line count, which is at least its highest seq.
      std::ifstream in(path_, std::ios::binary);
      seq_ = std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
    }
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw OutputError(fmt::format("cannot open {}: {}", path_.string(), std::strerror(errno)));
  size_ = ::lseek(fd_, 0, SEEK_END);
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

void JournalWriter::append(nlohmann::json event) {
  // (By value: every caller hands a temporary.)
  event["seq"] = seq_ + 1;
  append_line(event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void JournalWriter::append_line(std::string line) {
  // One write per line: O_APPEND puts it whole at the end, so a reader never sees two interleaved.
  line += '\n';
  // The end the cut left is where O_APPEND puts this line: no second lseek per line.
  off_t start = cut_what_others_appended();
  if (start < 0) start = ::lseek(fd_, 0, SEEK_END);
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
  size_ = start + static_cast<off_t>(line.size());
  ++seq_;
}

// The journal holds only what the harness wrote: bytes a method appended since the harness's last
// line (it can reach $PERFZERO_RUN_DIR) are cut off before the next one, so no line of theirs stands
// between two of the harness's, where a reader might take it for one.
off_t JournalWriter::cut_what_others_appended() {
  if (size_ < 0) return -1;
  const off_t now = ::lseek(fd_, 0, SEEK_END);
  if (now < 0) return -1;
  if (now == size_) return now;
  if (now > size_ && ::ftruncate(fd_, size_) == 0) {
    foreign_bytes_cut_ += static_cast<long long>(now - size_);
    return size_;
  }
  // Shorter than the harness left it (a method truncated it), or it cannot be cut: what is there now
  // is what the reader will check, line by line.
  size_ = now;
  return now;
}

void JournalWriter::run_started(bool resuming) {
  // guarded: from this line on the writer cuts off what others append (cut_what_others_appended), so
  // the reader may take any line out of the harness's sequence as not perfzero's.
  append({{"event", "run_started"}, {"time", now_epoch()}, {"resuming", resuming}, {"guarded", true}});
}

void JournalWriter::trial_finished(const Case& c, const Trial& trial) {
  if (cases_written_.insert(c.name).second) append({{"event", "case"}, {"case", case_header_to_json(c)}});
  // A sync of an earlier trial that failed in the background stops the run here, before this one.
  if (auto failed = files::sync_behind().failure()) throw OutputError(*failed);
  // Written straight from the model (results/trial_event_text.hpp): a trial's event is the size of its report.
  append_line(trial_event_text(c.name, seq_ + 1, trial));
}

void JournalWriter::sync_later() { files::sync_behind().descriptor(fd_, path_); }

void JournalWriter::run_finished(const std::string& status) {
  append({{"event", "run_finished"}, {"time", now_epoch()}, {"status", status}});
  // The run's end waits for every queued sync (the recorder then syncs the reports and summaries).
  files::sync_behind().descriptor(fd_, path_);
  files::sync_behind().flush();
}

namespace {

// Applies one event; throws std::runtime_error (or a json exception) for one perfzero did not write.
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

// One line, at most `limit` bytes; false at the end of the file. Throws for a longer line: reading it
// whole would take memory without bound.
bool read_bounded_line(std::istream& in, std::string& line, std::size_t limit, const std::filesystem::path& path,
                       int number) {
  line.clear();
  char c = 0;
  bool any = false;
  while (in.get(c)) {
    any = true;
    if (c == '\n') return true;
    if (line.size() == limit) {
      throw std::runtime_error(
          fmt::format("{}:{}: a line of over {} bytes (the limit; PERFZERO_MAX_JOURNAL_LINE_BYTES=BYTES raises it)",
                      path.string(), number, limit));
    }
    line.push_back(c);
  }
  return any;
}

struct Numbered {
  int line = 0;
  nlohmann::json event;
};

}  // namespace

std::size_t max_journal_line_bytes() {
  const char* given = std::getenv("PERFZERO_MAX_JOURNAL_LINE_BYTES");
  if (given == nullptr) return kDefaultMaxJournalLineBytes;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(given, &end, 10);
  return end != given && *end == '\0' && value >= 1024 ? static_cast<std::size_t>(value) : kDefaultMaxJournalLineBytes;
}

namespace {

// Which lines of a journal are the harness's, in the order they apply. First every line, then the
// events in seq order: in a journal written before the guard, a line a method appended while a trial
// ran comes before the harness's own line with the same seq, which then replaces it. From a
// "guarded" run_started on, the writer cuts what others append before each of its lines, so its lines
// are 1, 2, 3, ... with nothing between: a line with any other seq is not its own (a method's, with a
// seq far ahead or one the harness already used), and never replaces one.
class Sequence {
 public:
  Sequence(const std::filesystem::path& path, JournalContents& out) : path_(path), out_(out) {}

  void ignore(int number, const std::string& why) {
    ++out_.skipped_lines;
    out_.warnings.push_back(fmt::format("{}:{}: not a line perfzero wrote, ignored: {}", path_.string(), number, why));
  }

  // One parsed line (an object with an "event").
  void take(int number, nlohmann::json event) {
    const auto seq = event.find("seq");
    if (seq == event.end()) {
      if (numbered_.empty()) {
        legacy_.push_back({number, std::move(event)});
      } else {
        ignore(number, "no \"seq\" among numbered lines");
      }
      return;
    }
    if (!seq->is_number_integer() || seq->get<long long>() < 1)
      return ignore(number, "a \"seq\" that is not a positive whole number");
    const long long n = seq->get<long long>();
    if (guarded_ && n != next_) {
      ++out_.foreign_lines;
      return ignore(number, fmt::format("seq {} where the harness's next line is {}", n, next_));
    }
    if (!guarded_ && event["event"] == "run_started" && event.value("guarded", false)) start_guard(n);
    if (guarded_) next_ = n + 1;
    if (const auto earlier = numbered_.find(n); earlier != numbered_.end()) {
      ignore(earlier->second.line, fmt::format("seq {} is claimed again by line {}, which stands", n, number));
    }
    numbered_[n] = {number, std::move(event)};
  }

  // Applies the kept lines, legacy ones first, then by seq.
  void apply() {
    std::map<std::string, std::size_t> index;
    const auto one = [&](const Numbered& n) {
      try {
        apply_event(n.event, out_, index);
      } catch (const std::exception& e) {
        ignore(n.line, e.what());
      }
    };
    for (const auto& n : legacy_) one(n);
    for (const auto& [seq, n] : numbered_) one(n);
    if (!numbered_.empty()) out_.last_seq = numbered_.rbegin()->first;
  }

 private:
  // Lines an earlier version left above a resumed run's guarded start are read as before; none may
  // claim the guarded start's seq or a later one.
  void start_guard(long long n) {
    guarded_ = true;
    for (auto it = numbered_.lower_bound(n); it != numbered_.end();) {
      ++out_.foreign_lines;
      ignore(it->second.line, fmt::format("seq {} at or after the guarded start's {}", it->first, n));
      it = numbered_.erase(it);
    }
  }

  const std::filesystem::path& path_;
  JournalContents& out_;
  std::vector<Numbered> legacy_;            // lines before any seq line (journals written before seq)
  std::map<long long, Numbered> numbered_;  // seq -> the last line that claimed it
  bool guarded_ = false;
  long long next_ = 0;  // the seq due next once guarded
};

}  // namespace

JournalContents read_journal(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  JournalContents out;
  Sequence sequence(path, out);
  const std::size_t limit = max_journal_line_bytes();
  std::string line;
  int number = 0;
  std::optional<int> unparsed_last;  // a line that did not parse: torn if nothing follows it
  while (read_bounded_line(in, line, limit, path, number + 1)) {
    ++number;
    if (line.empty()) continue;
    if (unparsed_last) {
      sequence.ignore(*unparsed_last, "not JSON");
      unparsed_last.reset();
    }
    nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_discarded()) {
      unparsed_last = number;
    } else if (!event.is_object() || !event.contains("event") || !event["event"].is_string()) {
      sequence.ignore(number, "no \"event\"");
    } else {
      sequence.take(number, std::move(event));
    }
  }
  if (unparsed_last) {
    ++out.skipped_lines;
    out.torn_last_line = true;
  }
  sequence.apply();
  return out;
}

}  // namespace perfzero::results
