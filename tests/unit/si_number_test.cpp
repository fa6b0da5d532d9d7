// How every human-facing table writes a value (common/si_number.hpp): three significant digits with
// an SI prefix, never "1.174e+06 bytes", "0.00343676 s", "11 1" or "552 µ 1".
#include "common/si_number.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace perfzero::text::si_number_test {
namespace {

TEST(SiNumber, ThreeSignificantDigitsWithThePrefixAValueNeeds) {
  EXPECT_EQ(si(0.00343676, "s"), "3.44 ms");
  EXPECT_EQ(si(0.1033, "s"), "103 ms");
  EXPECT_EQ(si(12.345, "s"), "12.3 s");
  EXPECT_EQ(si(1.174e6, "bytes"), "1.17 MB") << "bytes read as the prefixed unit people know";
  EXPECT_EQ(si(512, "bytes"), "512 B");
  EXPECT_EQ(si(444e6, "points/s"), "444 M points/s");
  EXPECT_EQ(si(19300, "GB/s"), "19.3 TB/s") << "a unit with a prefix of its own takes the combined one";
  EXPECT_EQ(si(150, "faults"), "150 faults");
  EXPECT_EQ(si(593e6, ""), "593 M");
}

TEST(SiNumber, APureNumberHasNoUnitWritten) {
  EXPECT_EQ(si(11, "1"), "11");
  EXPECT_EQ(si(0.000552, "1"), "552 µ");
  EXPECT_EQ(si(0.5, "1"), "0.5");
}

TEST(SiNumber, ATimeWithAPrefixOfItsOwnTakesTheCombinedOne) {
  EXPECT_EQ(si(100.4, "ms"), "100 ms");
  EXPECT_EQ(si(0.005, "ms"), "5 µs");
  EXPECT_EQ(si(2500, "us"), "2500 µs") << "up to 9999 as it is, in the sign people write";
  EXPECT_EQ(si(25000, "us"), "25 ms");
  EXPECT_EQ(si(0.25, "ns"), "250 ps");
}

TEST(SiNumber, NothingForNoValueOrOneThatIsNotFinite) {
  EXPECT_EQ(si(std::nullopt, "s"), "");
  EXPECT_EQ(si(std::nan(""), "s"), "");
  EXPECT_EQ(si(INFINITY, "s"), "");
}

TEST(SiNumber, ARangeIsWrittenAtItsMediansPrefix) {
  EXPECT_EQ(si_range(444e6, 408e6, 480e6, "points/s"), "444 M points/s (408–480 M)");
  EXPECT_EQ(si_range(0.0039, 0.0026, 0.0102, "s"), "3.9 ms (2.6–10.2 ms)");
}

}  // namespace
}  // namespace perfzero::text::si_number_test
