#pragma once
// HTTP requests through libcurl (Debian's libcurl4), the only place perfzero talks HTTP. Every request
// is bounded: a connection gets kConnectTimeout, and the whole exchange ends at the caller's deadline,
// so a server that is down, a firewall that drops packets or a server that never answers costs a
// bounded time. libcurl stays inside http_client.cpp.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::mlflow {

inline constexpr std::chrono::milliseconds kConnectTimeout{2000};

struct HttpResponse {
  long status = 0;  // 0 when no answer came (error says why)
  std::string body;
  std::string error;  // libcurl's message for a transfer that failed; empty when an answer came
  bool answered() const { return status != 0; }
};

struct HttpAuth {
  std::string bearer_token;  // Authorization: Bearer ...
  std::string username;      // HTTP basic authentication, when set
  std::string password;
};

class HttpClient {
 public:
  HttpClient(HttpAuth auth, std::chrono::steady_clock::time_point deadline);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // GET url; POST or PUT `body` with `content_type`. Never throws for what the network or the server
  // does: that is in the response.
  HttpResponse get(const std::string& url);
  HttpResponse send(const std::string& method, const std::string& url, const std::string& body,
                    const std::string& content_type);
  // Whether the deadline has passed: no request is started after it.
  bool expired() const;
  // "%2F"-style escaping of one query value or path segment.
  std::string escape(const std::string& text);

 private:
  HttpResponse perform(const std::string& method, const std::string& url, const std::string* body,
                       const std::string& content_type);

  HttpAuth auth_;
  std::chrono::steady_clock::time_point deadline_;
  void* curl_ = nullptr;  // CURL*, kept for its connection cache
};

}  // namespace perfzero::mlflow
