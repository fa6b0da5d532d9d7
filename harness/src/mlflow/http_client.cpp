#include "mlflow/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace perfzero::mlflow {

namespace {

void global_init_once() {
  // curl_global_init is not thread-safe on its own: once per process.
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw std::runtime_error("libcurl: curl_global_init failed");
  });
}

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// What a PUT or POST sends: read from the caller's string.
struct Upload {
  const std::string* body;
  std::size_t sent = 0;
};

std::size_t read_body(char* buffer, std::size_t size, std::size_t count, void* in) {
  auto* up = static_cast<Upload*>(in);
  const std::size_t n = std::min(size * count, up->body->size() - up->sent);
  std::copy_n(up->body->data() + up->sent, n, buffer);
  up->sent += n;
  return n;
}

}  // namespace

HttpClient::HttpClient(HttpAuth auth, std::chrono::steady_clock::time_point deadline)
    : auth_(std::move(auth)), deadline_(deadline) {
  global_init_once();
  curl_ = curl_easy_init();
  if (curl_ == nullptr) throw std::runtime_error("libcurl: curl_easy_init failed");
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

bool HttpClient::expired() const { return std::chrono::steady_clock::now() >= deadline_; }

std::string HttpClient::escape(const std::string& text) {
  char* escaped = curl_easy_escape(static_cast<CURL*>(curl_), text.data(), static_cast<int>(text.size()));
  std::string out = escaped != nullptr ? escaped : "";
  curl_free(escaped);
  return out;
}

HttpResponse HttpClient::get(const std::string& url) { return perform("GET", url, nullptr, ""); }

HttpResponse HttpClient::send(const std::string& method, const std::string& url, const std::string& body,
                              const std::string& content_type) {
  return perform(method, url, &body, content_type);
}

HttpResponse HttpClient::perform(const std::string& method, const std::string& url, const std::string* body,
                                 const std::string& content_type) {
  HttpResponse response;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    response.error = "the export's deadline passed before this request";
    return response;
  }
  auto* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for timeouts: the harness owns its signals
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::min(kConnectTimeout, left).count()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  if (!auth_.username.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, auth_.username.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, auth_.password.c_str());
  }
  curl_slist* headers = nullptr;
  if (!auth_.bearer_token.empty())
    headers = curl_slist_append(headers, ("Authorization: Bearer " + auth_.bearer_token).c_str());
  Upload upload{body};
  if (body != nullptr) {
    headers = curl_slist_append(headers, ("Content-Type: " + content_type).c_str());
    // No "Expect: 100-continue" round trip for larger bodies.
    headers = curl_slist_append(headers, "Expect:");
    if (method == "PUT") {
      curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_body);
      curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(body->size()));
    } else {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    }
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  const CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  if (code != CURLE_OK) {
    response.error = error[0] != '\0' ? error : curl_easy_strerror(code);
    response.body.clear();
    return response;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace perfzero::mlflow
