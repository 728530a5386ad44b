#include "sim/config/set_assignment.hpp"

#include <array>
#include <string>
#include <utility>

#include "sim/config/config_schema.hpp"
#include "sim/config/param_values.hpp"
#include "sim/config/toml_document.hpp"

namespace weft::sim {
namespace {

constexpr std::array<std::string_view, 1> set_sections{"params"};
constexpr detail::OtherTopLevel set_top_level{{}, set_sections};

// The 1-based column of byte `index` of `text`, counting code points as toml++ does.
int column_of(std::string_view text, std::size_t index) {
  int column = 1;
  for (std::size_t i = 0; i < index && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  return column;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

// A bare word (eager, nan, on_wait) is taken as a string; true and false stay booleans.
bool is_bare_word(std::string_view value) {
  const char first = value.front();
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) return false;
  for (char c : value)
    if (!is_word_char(c)) return false;
  return value != "true" && value != "false";
}

[[noreturn]] void fail(std::string_view assignment, std::size_t index, std::string_view key, std::string message) {
  throw ConfigError(std::string{set_source}, 1, column_of(assignment, index), std::string{key}, std::move(message));
}

// The assignment as a TOML document, its bare-word value quoted.
detail::TomlDocument parse_assignment(std::string_view assignment) {
  const std::size_t line_break = assignment.find_first_of("\r\n");
  if (line_break != std::string_view::npos)
    fail(assignment, line_break, "", "expected KEY=VALUE on one line, found a line break");
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos)
    fail(assignment, assignment.size(), trim(assignment), "expected KEY=VALUE, found no '='");
  const std::string_view key = trim(assignment.substr(0, equals));
  if (key.empty()) fail(assignment, 0, "", "expected KEY=VALUE, found no key before '='");
  const std::string_view value = trim(assignment.substr(equals + 1));
  if (value.empty()) fail(assignment, equals + 1, key, "expected KEY=VALUE, found no value after '='");
  if (!is_bare_word(value)) return detail::TomlDocument{assignment, std::string{set_source}, {}, std::string{key}};

  const std::size_t begin = static_cast<std::size_t>(value.data() - assignment.data());
  const std::size_t end = begin + value.size();
  std::string text{assignment.substr(0, begin)};
  text += '"';
  text += value;
  text += '"';
  text += assignment.substr(end);
  const int quote_column = column_of(assignment, begin);
  detail::ColumnMap columns{{quote_column, quote_column + static_cast<int>(value.size()) + 1}};
  return detail::TomlDocument{text, std::string{set_source}, std::move(columns), std::string{key}};
}

}  // namespace

void apply_set(Config& config, Params& params, std::string_view assignment) {
  const detail::TomlDocument document = parse_assignment(assignment);
  Config layered_config = config;
  Params layered_params = params;
  detail::apply_config_document(layered_config, document, set_top_level);
  const auto section = document.root().find("params");
  if (section != document.root().end())
    detail::apply_params_section(layered_params, document, detail::Entry{&section->first, &section->second});
  config = std::move(layered_config);
  params = std::move(layered_params);
}

}  // namespace weft::sim
