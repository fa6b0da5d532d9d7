#include "redact/redact.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::redact::redact_test {
namespace {

TEST(Redact, SecretLookingNamesAreHidden) {
  for (const char* name : {"AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "db_password", "OCI_CLI_KEY_FILE",
                           "GOOGLE_APPLICATION_CREDENTIALS", "api_key"}) {
    EXPECT_TRUE(looks_secret(name)) << name;
  }
  for (const char* name : {"PATH", "HOME", "OMP_NUM_THREADS", "execution_label"})
    EXPECT_FALSE(looks_secret(name)) << name;
}

TEST(Redact, EnvironmentKeepsNamesAndHidesValues) {
  std::string a = "PATH=/usr/bin";
  std::string b = "MY_API_TOKEN=abc123";
  std::string c = "EQUALS=x=y";
  char* env[] = {a.data(), b.data(), c.data(), nullptr};
  const auto j = redacted_environment(env);
  EXPECT_EQ(j["PATH"].get<std::string>(), "/usr/bin");
  EXPECT_EQ(j["MY_API_TOKEN"].get<std::string>(), kRedacted);
  EXPECT_EQ(j["EQUALS"].get<std::string>(), "x=y");
  EXPECT_EQ(j.dump().find("abc123"), std::string::npos);
  const auto flags = redacted_flags({{"execution_label", "dev"}, {"upload_token", "s3cr3t"}});
  EXPECT_EQ(flags["execution_label"].get<std::string>(), "dev");
  EXPECT_EQ(flags["upload_token"].get<std::string>(), kRedacted);
}

TEST(Redact, UrlUserinfoIsHiddenWhereverTheUrlStands) {
  EXPECT_EQ(redact_urls("postgres://u:pw@db.example/app"), "postgres://<redacted>@db.example/app");
  EXPECT_EQ(redact_urls("https://ghp_tok@github.com/o/r.git"), "https://<redacted>@github.com/o/r.git");
  EXPECT_EQ(redact_urls("a=https://u:p@ss@h:5/x?y=1 and http://h/z@w"),
            "a=https://<redacted>@h:5/x?y=1 and http://h/z@w");
  EXPECT_EQ(redact_urls("x https://u:p@h y https://v:q@i"), "x https://<redacted>@h y https://<redacted>@i");
  for (const char* kept : {"git@github.com:o/r.git", "https://github.com/o/r", "a://", "://x@y", "plain"})
    EXPECT_EQ(redact_urls(kept), kept);
  EXPECT_EQ(redact_value("DATABASE_URL", "postgres://u:pw@h/db"), "postgres://<redacted>@h/db");
  EXPECT_EQ(redact_value("API_TOKEN", "abc"), kRedacted);
}

TEST(Redact, SecretOptionsInACommandLine) {
  const std::vector<std::string> argv{"tool",     "--password=pw1", "--token", "tok2",   "--api-key=k3", "-secret",
                                      "s4",       "--verbose",      "--auth",  "--next", "-p",           "5432",
                                      "TOKEN=t5", "http://u:p6@h/", "-psql"};
  const std::vector<std::string> want{"tool",
                                      "--password=<redacted>",
                                      "--token",
                                      "<redacted>",
                                      "--api-key=<redacted>",
                                      "-secret",
                                      "<redacted>",
                                      "--verbose",
                                      "--auth",
                                      "--next",
                                      "-p",
                                      "5432",
                                      "TOKEN=<redacted>",
                                      "http://<redacted>@h/",
                                      "-psql"};
  EXPECT_EQ(redact_argv(argv), want);
  EXPECT_EQ(redact_argv({"sh", "-c", "run --password=pw --token tok x"}),
            (std::vector<std::string>{"sh", "-c", "run --password=<redacted> --token <redacted> x"}));
}

TEST(Redact, ParamsByNameAndUrl) {
  const auto p = redacted_params({{"password", "pw"}, {"n", 3}, {"db", "mysql://u:pw@h/x"}, {"api_key", 7}});
  EXPECT_EQ(p["password"], kRedacted);
  EXPECT_EQ(p["n"], 3);
  EXPECT_EQ(p["db"], "mysql://<redacted>@h/x");
  EXPECT_EQ(p["api_key"], kRedacted);
}

// A secret in a query is the same secret: presigned S3 URLs, OAuth tokens, a libpq URL's password,
// with or without a scheme before them; names that do not look secret keep their values.
TEST(Redact, QueryParametersWithSecretNames) {
  EXPECT_EQ(redact_urls("https://b.s3.example/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc123&x-id=GetObject"),
            "https://b.s3.example/k?X-Amz-Credential=<redacted>&X-Amz-Signature=<redacted>&x-id=GetObject");
  EXPECT_EQ(redact_urls("postgresql://h/db?user=me&password=pw#frag"),
            "postgresql://h/db?user=me&password=<redacted>#frag");
  EXPECT_EQ(redact_urls("see /cb?access_token=t0k&state=1 and ?api_key=k"),
            "see /cb?access_token=<redacted>&state=1 and ?api_key=<redacted>");
  EXPECT_EQ(redact_urls("https://u:pw@h/x?token=t"), "https://<redacted>@h/x?token=<redacted>");
  EXPECT_EQ(redact_urls("a?b=c&d=e"), "a?b=c&d=e");
  EXPECT_EQ(redact_urls("'https://h/x?api_key=k'"), "'https://h/x?api_key=<redacted>'");
}

// Free text (a label, a fact's string) is redacted as a command line is, word by word.
TEST(Redact, TextAndJsonAtEveryDepth) {
  EXPECT_EQ(redact_text("host=db password=pw dbname=x"), "host=db password=<redacted> dbname=x");
  const auto j = redacted_json(nlohmann::json::parse(
      R"({"token": "t", "list": ["https://u:p@h/", {"secret_key": 1}], "nested": {"url": "h?api_key=k", "n": 2}})"));
  EXPECT_EQ(j["token"], kRedacted);
  EXPECT_EQ(j["list"][0], "https://<redacted>@h/");
  EXPECT_EQ(j["list"][1]["secret_key"], kRedacted);
  EXPECT_EQ(j["nested"]["url"], "h?api_key=<redacted>");
  EXPECT_EQ(j["nested"]["n"], 2);
}

}  // namespace
}  // namespace perfzero::redact::redact_test
