#include "sim/config/toml_document.hpp"

#include <algorithm>
#include <utility>

#include "sim/config/config_error.hpp"
#include "sim/config/text_limits.hpp"

namespace weft::sim::detail {
namespace {

// toml++'s messages are one line already; make sure of it, since what() must be one line.
std::string one_line(std::string_view text) {
  std::string line{text};
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\r', ' ');
  return line;
}

toml::table parse_or_throw(std::string_view text, const std::string& source_name, const ColumnMap& columns,
                           const std::string& syntax_error_key) {
  if (text.size() > max_text_bytes)
    throw ConfigError(
        source_name, 0, 0, syntax_error_key,
        "too large: " + std::to_string(text.size()) + " bytes (at most " + std::to_string(max_text_bytes) + ")");
  if (const auto deep = too_deep(text))
    throw ConfigError(source_name, deep->at.line, columns.to_user(deep->at.column), syntax_error_key,
                      deep->key
                          ? "keys nested more than " + std::to_string(max_key_depth) + " deep"
                          : "arrays and inline tables nested more than " + std::to_string(max_value_depth) + " deep");
  try {
    return toml::parse(text, std::string_view{source_name});
  } catch (const toml::parse_error& error) {
    const toml::source_position where = error.source().begin;
    throw ConfigError(source_name, static_cast<int>(where.line), columns.to_user(static_cast<int>(where.column)),
                      syntax_error_key, "TOML syntax error: " + one_line(error.description()));
  }
}

}  // namespace

int ColumnMap::to_user(int column) const {
  int inserted_before = 0;
  for (int inserted : inserted_columns)
    if (inserted < column) ++inserted_before;
  return column - inserted_before;
}

TomlDocument::TomlDocument(std::string_view text, std::string source_name, ColumnMap columns,
                           std::string syntax_error_key)
    : source_name_(std::move(source_name)),
      columns_(std::move(columns)),
      root_(parse_or_throw(text, source_name_, columns_, syntax_error_key)) {}

void TomlDocument::fail(const toml::source_position& where, std::string key, std::string message) const {
  throw ConfigError(source_name_, static_cast<int>(where.line), columns_.to_user(static_cast<int>(where.column)),
                    std::move(key), std::move(message));
}

bool comes_before(const toml::source_position& a, const toml::source_position& b) {
  return a.line != b.line ? a.line < b.line : a.column < b.column;
}

std::vector<Entry> entries_in_source_order(const toml::table& table) {
  std::vector<Entry> entries;
  entries.reserve(table.size());
  for (auto&& [key, node] : table) entries.push_back(Entry{&key, &node});
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return comes_before(a.key->source().begin, b.key->source().begin);
  });
  return entries;
}

std::string dotted(std::string_view section, std::string_view name) {
  std::string key{section};
  if (!key.empty()) key += '.';
  key += name;
  return key;
}

}  // namespace weft::sim::detail
