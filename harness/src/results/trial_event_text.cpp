#include "results/trial_event_text.hpp"

#include <type_traits>

#include <nlohmann/json.hpp>

namespace perfzero::results {

namespace {

using nlohmann::json;

// Structure goes into `out` directly; every value through one nlohmann serializer, so each is
// written as json::dump writes it. The keys below are literals in the order json's std::map keeps.
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
  void value(const json& v) { values_.dump(v, false, false, 0); }
  template <typename T>
  void field(const char* name, const T& v) {
    key(name);
    if constexpr (std::is_same_v<T, json>) {
      value(v);
    } else {
      value(json(v));
    }
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
    if (m.direction != Direction::unspecified) w.field("direction", std::string(to_string(m.direction)));
    if (m.max_value) w.field("max_value", *m.max_value);
    if (m.min_value) w.field("min_value", *m.min_value);
    w.field("name", m.name);
    w.field("unit", m.unit);
    w.field("value", m.value);
    w.close();
  }
  out += ']';
}

json or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

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
  w.field("outcome", std::string(to_string(t.outcome)));
  w.key("process");
  w.open();
  w.field("detail", t.process.detail);
  w.field("max_cpu_percent", t.process.max_cpu_percent);
  w.field("max_rss", t.process.max_rss);
  w.field("max_vms", t.process.max_vms);
  w.close();
  w.field("ranks", t.ranks);
  w.field("repetitions", t.repetitions);
  w.field("report", or_null(t.report));
  w.field("resumed", t.resumed);
  w.field("samplers", t.samplers);
  w.field("self_wall_time", t.self_wall_time ? json(*t.self_wall_time) : json(nullptr));
  w.field("signal", or_null(t.signal));
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
