#include "session/run_facts.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::session::run_facts_test {
namespace {

bool nothing_taken(const std::string& /*name*/) { return false; }
bool cpu_vendor_taken(const std::string& name) { return name == "cpu_vendor"; }

using perfzero::testing::TempDir;

TEST(RunFacts, EachFactIsPickedUpOnceUnderItsName) {
  TempDir run;
  RunFacts facts;
  EXPECT_TRUE(facts.pick_up(run.path(), nothing_taken).empty()) << "no run_facts directory yet";
  run.write("run_facts/cpu_peak.json", R"({"measured": {"fp32": 1}})");
  run.write("run_facts/cpu_peak.lock", "");  // a writer's lock, not a fact
  run.write("run_facts/site_power.json", R"({"watts": 350})");
  const auto first = facts.pick_up(run.path(), nothing_taken);
  ASSERT_EQ(first.size(), 2U);
  EXPECT_EQ(first[0].name, "cpu_peak");
  EXPECT_EQ(first[0].value["measured"]["fp32"], 1);
  EXPECT_EQ(first[1].name, "site_power");
  EXPECT_TRUE(facts.pick_up(run.path(), nothing_taken).empty()) << "once per run";
  run.write("run_facts/numa.json", R"({"nodes": 2})");
  const auto later = facts.pick_up(run.path(), nothing_taken);
  ASSERT_EQ(later.size(), 1U) << "a fact written by a later trial";
  EXPECT_EQ(later[0].name, "numa");
  EXPECT_TRUE(facts.refused().empty());
}

TEST(RunFacts, WhatAMethodCouldAbuseIsRefusedAndSaidOnce) {
  TempDir run;
  run.write("run_facts/cpu_vendor.json", R"({"x": 1})");  // a key the system info has
  run.write("run_facts/Bad-Name.json", R"({"x": 1})");
  run.write("run_facts/list.json", "[1, 2]");
  run.write("run_facts/broken.json", "{\"x\": ");
  run.write("run_facts/huge.json", "{\"x\": \"" + std::string(2U << 20, 'a') + "\"}");
  ASSERT_EQ(::mkfifo((run.path() / "run_facts" / "fifo.json").c_str(), 0600), 0);
  std::filesystem::create_symlink("/etc/passwd", run.path() / "run_facts" / "link.json");
  RunFacts facts;
  EXPECT_TRUE(facts.pick_up(run.path(), cpu_vendor_taken).empty());
  EXPECT_EQ(facts.refused().size(), 7U);
  for (const auto& line : facts.refused()) EXPECT_NE(line.find("left out: "), std::string::npos) << line;
  facts.pick_up(run.path(), cpu_vendor_taken);
  EXPECT_EQ(facts.refused().size(), 7U) << "each said once";
}

TEST(RunFacts, ALinkInTheDirectorysPlaceIsNotFollowed) {
  TempDir run;
  TempDir elsewhere;
  elsewhere.write("fact.json", R"({"x": 1})");
  std::filesystem::create_directory_symlink(elsewhere.path(), run.path() / "run_facts");
  RunFacts facts;
  EXPECT_TRUE(facts.pick_up(run.path(), nothing_taken).empty());
}

}  // namespace
}  // namespace perfzero::session::run_facts_test
