#include "common/shell_words.hpp"

namespace perfzero::text {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::optional<std::vector<std::string>> split_shell_words(std::string_view line, std::string& problem) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (is_space(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i == line.size()) {
        problem = "a backslash at the end";
        return std::nullopt;
      }
      word += line[i];
    } else if (c == '\'') {
      const auto end = line.find('\'', i + 1);
      if (end == std::string_view::npos) {
        problem = "an unclosed ' quote";
        return std::nullopt;
      }
      word.append(line.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i == line.size()) {
          problem = "an unclosed \" quote";
          return std::nullopt;
        }
        if (line[i] == '"') break;
        if (line[i] == '\\' && i + 1 < line.size() &&
            std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word += line[i];
      }
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) {
    problem = "no command";
    return std::nullopt;
  }
  return words;
}

}  // namespace perfzero::text
