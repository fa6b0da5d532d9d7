#include "config/method_selector.hpp"

#include <gtest/gtest.h>

#include "common/errors.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::config::method_selector_test {
namespace {

void nothing(Context&) {}

Registry make_registry() {
  Registry r;
  for (const char* name : {"benchmark_alpha", "benchmark_alpha_big", "benchmark_beta"}) {
    r.add(MethodInfo{"fam", "Cls", name, "d", {}, nothing});
  }
  r.add(MethodInfo{"fam", "Other", "benchmark_alpha", "d", {}, nothing});
  return r;
}

std::string message_of(const std::string& spec, const Registry& r) {
  try {
    select_methods(spec, "origin", r);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(SelectMethods, ExactNameAndColonForm) {
  const Registry r = make_registry();
  EXPECT_EQ(select_methods("fam.Cls.benchmark_beta", "o", r).at(0)->full_name(), "fam.Cls.benchmark_beta");
  EXPECT_EQ(select_methods("fam.Cls:benchmark_beta", "o", r).at(0)->full_name(), "fam.Cls.benchmark_beta");
}

TEST(SelectMethods, FilterIsAnchoredAtTheStartAndStaysInItsClass) {
  const Registry r = make_registry();
  const auto selected = select_methods("fam.Cls.filter:benchmark_alpha.*", "o", r);
  ASSERT_EQ(selected.size(), 2U);
  EXPECT_EQ(selected[0]->class_name, "Cls");
  // Anchored like Python's re.match: "alpha" does not match "benchmark_alpha".
  EXPECT_THROW(select_methods("fam.Cls.filter:alpha", "o", r), ConfigError);
}

TEST(SelectMethods, UnknownNamesSuggestTheClosest) {
  const Registry r = make_registry();
  EXPECT_NE(message_of("fam.Cls.benchmark_bet", r).find("did you mean 'fam.Cls.benchmark_beta'"), std::string::npos);
  EXPECT_NE(message_of("fam.Clss.filter:x", r).find("did you mean 'fam.Cls'"), std::string::npos);
  EXPECT_NE(message_of("fam.Cls.filter:zzz", r).find("matches no method"), std::string::npos);
  EXPECT_NE(message_of("fam.Cls.filter:(", r).find("not a valid regular expression"), std::string::npos);
  EXPECT_EQ(message_of("fam.Cls.filter:benchmark_beta", r), "");
}

}  // namespace
}  // namespace perfzero::config::method_selector_test
