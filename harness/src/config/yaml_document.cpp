#include "config/yaml_document.hpp"

#include <cctype>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "common/errors.hpp"

namespace perfzero::config::yaml {

namespace {

// Where each document starts, and nothing else: the first pass only counts documents.
class DocumentStarts final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  std::vector<YAML::Mark> starts;
};

std::string at(const std::string& file, const YAML::Mark& mark) {
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

// yaml-cpp 0.7 (Debian 12's) reports a token its parser cannot place, such as a ',' outside
// brackets, as an empty document without consuming it, so YAML::LoadAll loops forever and takes
// all memory (jbeder/yaml-cpp#1040; fixed upstream after 0.8). A document that starts where the
// last one started consumed nothing: that is the syntax error, at that token.
[[noreturn]] void no_progress(const std::string& file, const std::string& text, const YAML::Mark& mark) {
  // The character is named only where mark.pos indexes the bytes: yaml-cpp counts from after a
  // UTF-8 byte order mark, and in characters, not bytes, in UTF-16 and UTF-32.
  const bool utf8_bom = text.rfind("\xEF\xBB\xBF", 0) == 0;
  const bool wide = text.find('\0') < 4 || text.rfind("\xFE\xFF", 0) == 0 || text.rfind("\xFF\xFE", 0) == 0;
  const auto pos = static_cast<std::size_t>(mark.pos) + (utf8_bom ? 3 : 0);
  const bool printable = !wide && pos < text.size() && std::isprint(static_cast<unsigned char>(text[pos])) != 0;
  throw ConfigError(fmt::format("{}: YAML syntax error: unexpected {}", at(file, mark),
                                printable ? fmt::format("'{}'", text[pos]) : std::string("token")));
}

std::vector<YAML::Mark> document_starts(const std::string& file, const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  while (parser.HandleNextDocument(starts)) {
    const auto n = starts.starts.size();
    if (n >= 2 && starts.starts[n - 1].pos == starts.starts[n - 2].pos) no_progress(file, text, starts.starts[n - 1]);
  }
  return starts.starts;
}

}  // namespace

YAML::Node load_one_document(const std::string& file, const std::string& text, const DocumentRules& rules) {
  try {
    const auto starts = document_starts(file, text);
    // A second document ("---") would be silently ignored: one file is one document.
    if (starts.size() > 1) {
      throw ConfigError(fmt::format("{}: holds {} YAML documents ('---'); {}", at(file, starts[1]), starts.size(),
                                    rules.one_document));
    }
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw ConfigError(fmt::format("{}: nested too deeply ({})", at(file, e.mark), rules.nesting_hint));
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}: YAML syntax error: {}", at(file, e.mark), e.msg));
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}: cannot read: {}", e.mark.is_null() ? file : at(file, e.mark), e.msg));
  }
}

}  // namespace perfzero::config::yaml
