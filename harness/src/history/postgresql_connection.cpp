// The PostgreSQL backend (libpqxx): a team shares one server, named by a postgresql:// URL.
#include <pqxx/pqxx>

#include <fmt/format.h>

#include "history/sql_connection.hpp"

namespace perfzero::history {

namespace {

// postgresql://user:secret@host/db -> postgresql://user:***@host/db: messages never show a password.
std::string without_password(const std::string& url) {
  const auto scheme = url.find("://");
  const auto at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos || at < scheme) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

constexpr pqxx::oid kByteaOid = 17;  // pg_type's bytea

std::string as_text(const SqlValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return fmt::format("{:.17g}", *d);
  if (const auto* b = std::get_if<SqlBlob>(&v)) {
    // bytea's hex input form, which a text parameter into a bytea column is parsed from.
    std::string hex = "\\x";
    hex.reserve(2 + 2 * b->bytes.size());
    static constexpr char kDigits[] = "0123456789abcdef";
    for (const unsigned char c : b->bytes) {
      hex += kDigits[c >> 4];
      hex += kDigits[c & 15];
    }
    return hex;
  }
  return std::get<std::string>(v);
}

class PostgresConnection : public SqlConnection {
 public:
  explicit PostgresConnection(const std::string& url) : name_(without_password(url)) {
    try {
      connection_ = std::make_unique<pqxx::connection>(url);
      connection_->set_client_encoding("UTF8");
    } catch (const std::exception& e) {
      throw HistoryError(fmt::format("{}: cannot connect: {}", name_, first_line(e.what())));
    }
  }

  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params) override {
    std::vector<std::string> text;
    text.reserve(params.size());
    for (const auto& p : params) text.push_back(as_text(p));
    try {
      // Outside begin()/commit() each statement is its own transaction.
      std::unique_ptr<pqxx::nontransaction> single;
      pqxx::transaction_base* tx = work_.get();
      if (tx == nullptr) {
        single = std::make_unique<pqxx::nontransaction>(*connection_);
        tx = single.get();
      }
      const pqxx::result result = tx->exec_params(sql, pqxx::prepare::make_dynamic_params(text));
      std::vector<SqlRow> rows;
      rows.reserve(result.size());
      for (const auto& r : result) {
        SqlRow row;
        for (const auto& field : r) {
          if (field.is_null()) {
            row.emplace_back(std::nullopt);
          } else if (field.type() == kByteaOid) {
            const pqxx::binarystring bytes(field);  // unescapes the hex output form
            row.emplace_back(bytes.str());
          } else {
            row.emplace_back(std::string(field.c_str(), field.size()));
          }
        }
        rows.push_back(std::move(row));
      }
      return rows;
    } catch (const std::exception& e) {
      throw HistoryError(fmt::format("{}: {} (in: {})", name_, first_line(e.what()), first_line(sql).substr(0, 80)));
    }
  }
  void begin() override { work_ = std::make_unique<pqxx::work>(*connection_); }
  void begin_read() override {
    begin();
    try {
      query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", {});  // before any query in it
    } catch (...) {
      work_.reset();
      throw;
    }
  }
  void commit() override {
    try {
      work_->commit();
    } catch (const std::exception& e) {
      work_.reset();
      throw HistoryError(fmt::format("{}: commit failed: {}", name_, first_line(e.what())));
    }
    work_.reset();
  }
  void rollback() override { work_.reset(); }  // a pqxx::work not committed rolls back when destroyed
  std::string dialect() const override { return "postgresql"; }
  std::string describe() const override { return name_; }

 private:
  static std::string first_line(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
  }

  std::string name_;
  std::unique_ptr<pqxx::connection> connection_;
  std::unique_ptr<pqxx::work> work_;
};

}  // namespace

std::unique_ptr<SqlConnection> open_postgresql(const std::string& url) {
  return std::make_unique<PostgresConnection>(url);
}

}  // namespace perfzero::history
