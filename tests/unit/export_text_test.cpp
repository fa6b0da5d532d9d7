#include "export_formats/export_text.hpp"
#include "common/utf8.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::export_formats::export_text_test {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(ValidUtf8, KeepsWellFormedTextAndReplacesEachBadByte) {
  EXPECT_EQ(utf8::valid("plain ascii"), "plain ascii");
  EXPECT_EQ(utf8::valid("caf\xC3\xA9 \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(utf8::valid("a\xFF"
                        "b"),
            "a" + kFffd + "b");
  EXPECT_EQ(utf8::valid("\xE2\x82"), kFffd + kFffd) << "a truncated sequence";
  EXPECT_EQ(utf8::valid("\xC0\xAF"), kFffd + kFffd) << "an overlong '/'";
  EXPECT_EQ(utf8::valid("\xED\xA0\x80"), kFffd + kFffd + kFffd) << "a UTF-16 surrogate";
  EXPECT_EQ(utf8::valid("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd) << "above U+10FFFF";
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
  EXPECT_NO_THROW((void)nlohmann::json(utf8::valid(all_bytes)).dump()) << "a strict JSON writer accepts the result";
}

TEST(ControlsAsSpaces, ReplacesLineBreaksTabsNulAndDel) {
  EXPECT_EQ(controls_as_spaces(std::string("a\nb\rc\td\0e\x7f", 10)), "a b c d e ");
}

TEST(Iso8601Utc, MillisecondsInUtcAndNothingForTimesNoDateHolds) {
  EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(iso8601_utc(1795360321.25), "2026-11-22T15:12:01.250Z");
  EXPECT_EQ(iso8601_utc(1.9996), "1970-01-01T00:00:02.000Z") << "rounding carries into the second";
  EXPECT_EQ(iso8601_utc(std::nan("")), std::nullopt);
  EXPECT_EQ(iso8601_utc(-1), std::nullopt);
  EXPECT_EQ(iso8601_utc(1e300), std::nullopt);
}

TEST(Iso8601Utc, RecognisesOnlyRealCalendarDates) {
  EXPECT_TRUE(is_iso8601_utc("2026-11-22T15:12:01.250Z"));
  EXPECT_TRUE(is_iso8601_utc("2024-02-29T00:00:00.000Z"));
  EXPECT_FALSE(is_iso8601_utc("2026-02-29T00:00:00.000Z")) << "2026 is no leap year";
  EXPECT_FALSE(is_iso8601_utc("2026-13-45T99:99:99.000Z"));
  EXPECT_FALSE(is_iso8601_utc("2026-11-22T15:12:01Z"));
  EXPECT_FALSE(is_iso8601_utc("2026-11-22 15:12:01.250Z"));
  EXPECT_FALSE(is_iso8601_utc("20x6-11-22T15:12:01.250Z"));
}

TEST(EpochNanoseconds, ExactToTheMicrosecondAndNothingOutsideInt64) {
  EXPECT_EQ(epoch_nanoseconds(1.5), 1500000000);
  EXPECT_EQ(epoch_nanoseconds(1795360320.75), 1795360320750000000);
  EXPECT_EQ(epoch_nanoseconds(std::nan("")), std::nullopt);
  EXPECT_EQ(epoch_nanoseconds(-0.5), std::nullopt);
  EXPECT_EQ(epoch_nanoseconds(1e10), std::nullopt) << "past 2262";
}

TEST(Fnv1aHex, MatchesTheReferenceValues) {
  EXPECT_EQ(fnv1a_hex(""), "cbf29ce484222325");
  EXPECT_EQ(fnv1a_hex("a"), "af63dc4c8601ec8c");
}

}  // namespace
}  // namespace perfzero::export_formats::export_text_test
