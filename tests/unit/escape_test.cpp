#include "common/escape.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::text::escape_test {
namespace {

TEST(Printable, EveryControlCharacterBecomesAQuestionMarkAndTextStays) {
  EXPECT_EQ(printable("plain ünïcode name"), "plain ünïcode name");
  EXPECT_EQ(printable("a\x1b[31mred\x07"), "a?[31mred?");
  EXPECT_EQ(printable(std::string("nul\0tab\tnl\ndel\x7f", 15)), "nul?tab?nl?del?");
  // C1 controls as UTF-8 (U+009B is CSI on terminals that obey C1); U+00A0 and above stay.
  EXPECT_EQ(printable("x\xc2\x9b"
                      "2J\xc2\x85y\xc2\xa0z"),
            "x?2J?y\xc2\xa0z");
  EXPECT_EQ(printable("trailing\xc2"), "trailing\xc2");
}

TEST(CsvCell, FormulaStartsAreNeutralisedAsOwaspSaysAndQuotingIsRfc4180) {
  EXPECT_EQ(csv_cell("benchmark_noop"), "benchmark_noop");
  EXPECT_EQ(csv_cell("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csv_cell("+1"), "'+1");
  EXPECT_EQ(csv_cell("-2+3"), "'-2+3");
  EXPECT_EQ(csv_cell("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_cell("\t=1"), "'?=1");
  EXPECT_EQ(csv_cell("\r=1"), "'?=1");
  EXPECT_EQ(csv_cell("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_cell("line\nbreak\x1b"), "line?break?");
  EXPECT_EQ(csv_cell("a=b"), "a=b");  // only the first character starts a formula
  EXPECT_EQ(csv_cell(""), "");
}

TEST(MdCell, HtmlIsEscapedPipesCannotEndTheRowAndControlsAreGone) {
  EXPECT_EQ(md_cell("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(md_cell("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(md_cell("a|b & c"), "a\\|b &amp; c");
  EXPECT_EQ(md_cell("two\nlines\r\tand\x1b[1m"), "two lines  and?[1m");
  EXPECT_EQ(md_cell("sanity.Sanity.benchmark_noop"), "sanity.Sanity.benchmark_noop");
}

// One escaper for HTML and XML (the report, the history site, JUnit): markup, quotes, malformed
// UTF-8, control characters and XML's forbidden non-characters.
TEST(Escape, MarkupIsValidInHtmlAndXmlWhateverTheBytes) {
  EXPECT_EQ(markup("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(markup("caf\xc3\xa9 \xe6\x97\xa5"), "caf\xc3\xa9 \xe6\x97\xa5");
  EXPECT_EQ(markup("caf\xe9"), "caf\xEF\xBF\xBD");
  EXPECT_EQ(markup("a\x01\x1b[31m\tb\nc\r"), "a\xEF\xBF\xBD\xEF\xBF\xBD[31m\tb\nc\r");
  EXPECT_EQ(markup("x\xEF\xBF\xBEy\xEF\xBF\xBF"), "x\xEF\xBF\xBDy\xEF\xBF\xBD");
}

}  // namespace
}  // namespace perfzero::text::escape_test
