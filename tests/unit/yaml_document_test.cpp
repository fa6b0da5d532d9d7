#include "config/yaml_document.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/errors.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::config::yaml::yaml_document_test {
namespace {

const DocumentRules kRules{"a test needs two levels", "a test file holds exactly one"};

std::string error_of(const std::string& text) {
  try {
    (void)load_one_document("f.yaml", text, kRules);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

// Text that made yaml-cpp 0.7's LoadAll loop for ever is parsed in a child with an alarm, so a
// regression fails this test instead of taking the machine's memory.
void expect_error_within_seconds(const std::string& text, const std::string& expected) {
  EXPECT_EXIT(
      {
        ::alarm(5);
        std::fputs(error_of(text).c_str(), stderr);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), expected)
      << text;
}

TEST(YamlDocument, OneDocumentIsItsRootAndAnEmptyTextIsNull) {
  const auto root = load_one_document("f.yaml", "a: [1, 2]\n", kRules);
  ASSERT_TRUE(root.IsMap());
  EXPECT_EQ(root["a"].size(), 2U);
  EXPECT_TRUE(load_one_document("f.yaml", "", kRules).IsNull());
  EXPECT_TRUE(load_one_document("f.yaml", "# only a comment\n", kRules).IsNull());
  EXPECT_TRUE(load_one_document("f.yaml", "--- a\n...\n", kRules).IsScalar());
}

TEST(YamlDocument, ASecondDocumentIsAnErrorAtItsStart) {
  EXPECT_EQ(error_of("a: 1\n---\nb: 2\n---\nc: 3\n"),
            "f.yaml:2:1: holds 3 YAML documents ('---'); a test file holds exactly one");
}

TEST(YamlDocument, SyntaxAndNestingErrorsNameTheLineAndColumn) {
  EXPECT_EQ(error_of("a: [1, 2\n"), "f.yaml:2:1: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(error_of(std::string(100000, '[')).rfind("f.yaml:1:", 0), 0U);
  EXPECT_NE(error_of(std::string(100000, '[')).find("nested too deeply (a test needs two levels)"), std::string::npos);
}

TEST(YamlDocumentDeathTest, ATokenTheParserCannotPlaceIsASyntaxErrorNotAnEndlessLoop) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  expect_error_within_seconds(",", "f.yaml:1:1: YAML syntax error: unexpected ','");
  // yaml-cpp's column counts from after a byte order mark; the character named is still the ','.
  expect_error_within_seconds("\xEF\xBB\xBF# ab\n,\n", "f.yaml:2:1: YAML syntax error: unexpected ','");
  expect_error_within_seconds(std::string("\xFF\xFE,\0", 4), "f.yaml:1:1: YAML syntax error: unexpected token");
  expect_error_within_seconds("# a comment\n,2,3\n", "f.yaml:2:1: YAML syntax error: unexpected ','");
  expect_error_within_seconds("a: 1\n---\n, 2\n", "f.yaml:3:1: YAML syntax error: unexpected ','");
}

}  // namespace
}  // namespace perfzero::config::yaml::yaml_document_test
