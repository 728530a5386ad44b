#pragma once
// Internal to weft_config (it includes toml++, which is a private dependency): include it only
// from this library's .cpp files, never from a public header.
//
// A parsed TOML text together with what is needed to report a mistake in it: the source name
// and a map from the parsed text's columns back to what the user typed (--set wraps a bare
// word in quotes before parsing).

#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace weft::sim::detail {

// Characters weft inserted into the text before parsing, by their 1-based column.
struct ColumnMap {
  std::vector<int> inserted_columns;  // ascending

  // The column of the user's text that `column` of the parsed text stands for.
  int to_user(int column) const;
};

class TomlDocument {
 public:
  // Parses `text`; a TOML syntax error throws ConfigError at toml++'s position, naming
  // `syntax_error_key` (empty for files, the key typed for --set).
  TomlDocument(std::string_view text, std::string source_name, ColumnMap columns = {},
               std::string syntax_error_key = {});

  const toml::table& root() const { return root_; }
  const std::string& source_name() const { return source_name_; }

  [[noreturn]] void fail(const toml::source_position& where, std::string key, std::string message) const;

 private:
  std::string source_name_;
  ColumnMap columns_;
  toml::table root_;
};

// One key/value pair of a table.
struct Entry {
  const toml::key* key;
  const toml::node* node;
};

// A table's entries in the order they appear in the text (toml++ keeps them sorted by name),
// so the first mistake reported is the first one in the file.
std::vector<Entry> entries_in_source_order(const toml::table& table);

bool comes_before(const toml::source_position& a, const toml::source_position& b);

// "a.b" from a section name and a key name; just the key name when the section is empty.
std::string dotted(std::string_view section, std::string_view name);

}  // namespace weft::sim::detail
