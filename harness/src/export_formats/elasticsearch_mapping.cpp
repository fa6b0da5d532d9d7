#include "export_formats/elasticsearch_mapping.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <string>

#include "export_formats/export_text.hpp"

namespace perfzero::export_formats {

namespace {

using nlohmann::json;

// Past this, a keyword is kept in _source but not indexed: Lucene refuses terms over 32 KiB.
constexpr int kIgnoreAbove = 1024;

using Kind = MappingBuilder::Kind;

Kind kind_of(const json& value) {
  switch (value.type()) {
    case json::value_t::number_integer:
      return Kind::integer;
    case json::value_t::number_unsigned:
      // A long holds up to 2^63-1; beyond that only a double can.
      return value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 ? Kind::integer
                 : Kind::floating;
    case json::value_t::number_float:
      return Kind::floating;
    case json::value_t::string:
      return is_iso8601_utc(value.get_ref<const std::string&>()) ? Kind::date : Kind::text;
    case json::value_t::null:
      return Kind::none;  // any field may be null
    default:
      return Kind::text;  // lists of text (flags); nothing else is written
  }
}

Kind merge(Kind a, Kind b) {
  if (a == Kind::none) return b;
  if (b == Kind::none || a == b) return a;
  const auto numeric = [](Kind k) { return k == Kind::integer || k == Kind::floating; };
  if (numeric(a) && numeric(b)) return Kind::floating;
  return Kind::text;
}

json field_mapping(Kind kind) {
  switch (kind) {
    case Kind::integer:
      return {{"type", "long"}};
    case Kind::floating:
      return {{"type", "double"}};
    case Kind::date:
      return {{"type", "date"}, {"format", "strict_date_optional_time||epoch_millis"}};
    default:
      return {{"type", "keyword"}, {"ignore_above", kIgnoreAbove}};
  }
}

}  // namespace

void MappingBuilder::observe(const nlohmann::json& document) {
  for (const auto& [field, value] : document.items()) {
    auto [it, added] = kinds_.try_emplace(field, Kind::none);
    it->second = merge(it->second, kind_of(value));
  }
}

void MappingBuilder::absorb(const MappingBuilder& other) {
  for (const auto& [field, kind] : other.kinds_) {
    auto [it, added] = kinds_.try_emplace(field, Kind::none);
    it->second = merge(it->second, kind);
  }
}

nlohmann::json MappingBuilder::properties() const {
  json properties = json::object();
  // A field that was null everywhere still gets a mapping: keyword, as any other unknown.
  for (const auto& [field, kind] : kinds_) properties[field] = field_mapping(kind);
  return properties;
}

void MappingBuilder::conform(nlohmann::json& document) const {
  for (auto& [field, value] : document.items()) {
    const auto it = kinds_.find(field);
    if (it != kinds_.end() && it->second == Kind::text && value.is_number()) value = value.dump();
  }
}

}  // namespace perfzero::export_formats
