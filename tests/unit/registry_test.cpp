#include "perfzero/registry.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::registry_test {
namespace {

void do_nothing(Context& /*ctx*/) {}

MethodInfo method(const std::string& family, const std::string& name) {
  MethodInfo info;
  info.family = family;
  info.class_name = "Test";
  info.method = name;
  info.description = "a test method";
  info.params.push_back(ParamSpec{"size", ParamType::integer, std::int64_t{4}, "how many"});
  info.function = &do_nothing;
  return info;
}

TEST(Registry, FindsWhatWasAddedByFullName) {
  Registry registry;
  registry.add(method("unit", "benchmark_b"));
  registry.add(method("unit", "benchmark_a"));
  const MethodInfo* found = registry.find("unit.Test.benchmark_a");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->method, "benchmark_a");
  EXPECT_EQ(found->function, &do_nothing);
  EXPECT_NE(found->find_param("size"), nullptr);
  EXPECT_EQ(found->find_param("sizes"), nullptr);
  EXPECT_EQ(registry.find("unit.Test.benchmark_c"), nullptr);
  EXPECT_EQ(registry.find("unit.Test"), nullptr);
}

TEST(Registry, ListsMethodsSortedByName) {
  Registry registry;
  registry.add(method("zeta", "benchmark_x"));
  registry.add(method("alpha", "benchmark_y"));
  registry.add(method("alpha", "benchmark_a"));
  ASSERT_EQ(registry.methods().size(), 3U);
  EXPECT_EQ(registry.methods()[0].full_name(), "alpha.Test.benchmark_a");
  EXPECT_EQ(registry.methods()[1].full_name(), "alpha.Test.benchmark_y");
  EXPECT_EQ(registry.methods()[2].full_name(), "zeta.Test.benchmark_x");
}

TEST(Registry, StaticRegistrationReachesTheSharedInstance) {
  // The built-in families link into this test binary and register themselves before main.
  EXPECT_NE(Registry::instance().find("sanity.Sanity.benchmark_noop"), nullptr);
  const Registration added(method("unit_registration", "benchmark_static"));
  EXPECT_NE(Registry::instance().find("unit_registration.Test.benchmark_static"), nullptr);
}

TEST(RegistryDeathTest, ADuplicateNameAbortsAtStartUp) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Registry registry;
  registry.add(method("unit", "benchmark_twice"));
  EXPECT_DEATH(registry.add(method("unit", "benchmark_twice")), "unit.Test.benchmark_twice is registered twice");
}

}  // namespace
}  // namespace perfzero::registry_test
