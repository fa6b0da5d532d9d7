#include "redact/redact.hpp"

#include <gtest/gtest.h>

namespace perfzero::redact {
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

}  // namespace
}  // namespace perfzero::redact
