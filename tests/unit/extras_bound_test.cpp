// What reports keep of a result's extras (child_results/extras_bound.hpp).
#include "child_results/extras_bound.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::extras_bound_test {
namespace {

TEST(ExtrasBound, WhatFitsIsKeptAsItIs) {
  nlohmann::json extras = {{"threads", 4}, {"device", "cpu"}, {"shape", {{"m", 1024}, {"n", 1024}}}};
  const nlohmann::json before = extras;
  EXPECT_TRUE(bound_extras(extras).empty());
  EXPECT_EQ(extras, before);
}

TEST(ExtrasBound, AnEntryTooLargeOrTooDeepIsReplacedByWhatItWasAndTheRestKept) {
  nlohmann::json big = nlohmann::json::array();
  for (int i = 0; i < 1000; ++i) big.push_back(i);
  nlohmann::json deep = 1;
  for (int i = 0; i < 12; ++i) deep = nlohmann::json::array({deep});
  nlohmann::json extras = {{"a", "kept"}, {"big", big}, {"deep", deep}, {"z", 7}};
  const auto cut = bound_extras(extras, /*max_bytes=*/1024, /*max_depth=*/8);
  EXPECT_EQ(cut, (std::vector<std::string>{"big", "deep"}));
  EXPECT_EQ(extras["a"], "kept");
  EXPECT_EQ(extras["z"], 7);
  EXPECT_NE(extras["big"].get<std::string>().find("cut by perfzero: 3.8 KiB of JSON (reports keep 1.0 KiB"),
            std::string::npos)
      << extras["big"];
  EXPECT_NE(extras["deep"].get<std::string>().find("12 levels deep"), std::string::npos) << extras["deep"];
  EXPECT_LE(extras.dump().size(), 1024U + 400U);
}

}  // namespace
}  // namespace perfzero::child_results::extras_bound_test
