#include "results/trial_event_text.hpp"

#include <algorithm>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::results {

namespace {

using nlohmann::json;

// Structure goes into `out` directly; the forms that are not plain (a string that needs escaping or
// is not ASCII, a number) through one nlohmann serializer, so each is written as json::dump writes
// it. The keys below are literals in the order json's std::map keeps.
class EventText {
 public:
  explicit EventText(std::string& out)
      : out_(out),
        values_(nlohmann::detail::output_adapter<char, std::string>(out), ' ', json::error_handler_t::replace) {}

  void open() {
    out_ += '{';
    first_ = true;
  }
  void close() {
    out_ += '}';
    first_ = false;
  }
  // `"name":`, after a comma unless it opens the object.
  void key(const char* name) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += name;
    out_ += "\":";
  }
  // Printable ASCII without a quote or a backslash is its own JSON form (nlohmann escapes below 0x20
  // only, as it is asked not to escape what is not ASCII); anything else, UTF-8 checked, is its.
  void string(std::string_view s) {
    const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
    });
    if (!plain) {
      values_.dump(json(std::string(s)), false, false, 0);
      return;
    }
    out_ += '"';
    out_.append(s);
    out_ += '"';
  }
  // A tree walked here rather than dumped whole: its strings, most of what it holds, take the plain
  // path; its numbers are nlohmann's.
  void value(const json& v) {
    switch (v.type()) {
      case json::value_t::object: {
        out_ += '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
          if (!first) out_ += ',';
          first = false;
          string(it.key());
          out_ += ':';
          value(*it);
        }
        out_ += '}';
        return;
      }
      case json::value_t::array: {
        out_ += '[';
        bool first = true;
        for (const auto& item : v) {
          if (!first) out_ += ',';
          first = false;
          value(item);
        }
        out_ += ']';
        return;
      }
      case json::value_t::string:
        string(v.get_ref<const std::string&>());
        return;
      case json::value_t::boolean:
        out_ += v.get<bool>() ? "true" : "false";
        return;
      case json::value_t::null:
        out_ += "null";
        return;
      default:
        values_.dump(v, false, false, 0);
    }
  }
  void field(const char* name, const json& v) {
    key(name);
    value(v);
  }
  void field(const char* name, std::string_view v) {
    key(name);
    string(v);
  }
  void field(const char* name, const std::string& v) { field(name, std::string_view(v)); }
  void field(const char* name, const char* v) { field(name, std::string_view(v)); }
  void field(const char* name, const std::vector<std::string>& list) {
    key(name);
    out_ += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i > 0) out_ += ',';
      string(list[i]);
    }
    out_ += ']';
  }
  template <typename T>
  requires std::is_arithmetic_v<T>
  void field(const char* name, T v) {
    key(name);
    value(json(v));
  }

 private:
  std::string& out_;
  nlohmann::detail::serializer<json> values_;
  bool first_ = true;
};

void write_metrics(EventText& w, std::string& out, const std::vector<MetricValue>& metrics) {
  out += '[';
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const MetricValue& m = metrics[i];
    if (i > 0) out += ',';
    w.open();
    if (m.direction != Direction::unspecified) w.field("direction", to_string(m.direction));
    if (m.max_value) w.field("max_value", *m.max_value);
    if (m.min_value) w.field("min_value", *m.min_value);
    w.field("name", m.name);
    w.field("unit", m.unit);
    w.field("value", m.value);
    w.close();
  }
  out += ']';
}

void string_or_null(EventText& w, const char* name, const std::string& s) {
  if (s.empty()) {
    w.field(name, json(nullptr));
  } else {
    w.field(name, s);
  }
}

void write_trial(EventText& w, std::string& out, const Trial& t) {
  w.open();
  w.field("detail", t.detail);
  w.field("dir", t.dir);
  w.field("exit_code", t.exit_code ? json(*t.exit_code) : json(nullptr));
  w.field("extras", t.extras);
  w.field("flags", t.flags);
  w.field("harness_seconds", t.harness_seconds);
  w.field("has_exception", t.has_exception);
  w.key("metrics");
  write_metrics(w, out, t.metrics);
  w.field("ml_framework_info", t.ml_framework_info);
  w.field("outcome", to_string(t.outcome));
  w.key("process");
  w.open();
  w.field("detail", t.process.detail);
  w.field("max_cpu_percent", t.process.max_cpu_percent);
  w.field("max_rss", t.process.max_rss);
  w.field("max_vms", t.process.max_vms);
  w.close();
  w.field("ranks", t.ranks);
  w.field("repetitions", t.repetitions);
  string_or_null(w, "report", t.report);
  w.field("resumed", t.resumed);
  w.field("samplers", t.samplers);
  w.field("self_wall_time", t.self_wall_time ? json(*t.self_wall_time) : json(nullptr));
  string_or_null(w, "signal", t.signal);
  w.field("started_offset", t.started_offset);
  w.field("trial", t.number);
  w.field("wall_time", t.wall_time);
  w.field("warmup", t.warmup);
  w.close();
}

}  // namespace

std::string trial_event_text(const std::string& case_name, long long seq, const Trial& t) {
  std::string out;
  out.reserve(2048);
  EventText w(out);
  w.open();
  w.field("case", case_name);
  w.field("event", "trial");
  w.field("seq", seq);
  w.key("trial");
  write_trial(w, out, t);
  w.close();
  return out;
}

}  // namespace perfzero::results
