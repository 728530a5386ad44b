#pragma once
// A kernel's named parameters (rows, cols, pairs, ...), filled from the kernel's defaults, then
// a scenario's [params], then --set params.NAME=VALUE. A value is an integer, a boolean, a
// string or a list of values (a TOML array; lists nest, so a list of pairs is [[0, 1], [2, 3]]).
// The default fixes a parameter's kind: a scenario may give a boolean where the default is an
// integer (taken as 0 and 1), and a list whose elements all have the kind of the default's first
// element (any list when the default is empty); anything else is refused naming file, line,
// column and key (docs/configuration.md).

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace weft::sim {

class ParamValue {
 public:
  enum class Kind { integer, boolean, string, list };

  ParamValue() = default;                                                    // the integer 0
  ParamValue(int value) : kind_(Kind::integer), integer_(value) {}           // NOLINT: `{"rows", 8}`
  ParamValue(std::int64_t value) : kind_(Kind::integer), integer_(value) {}  // NOLINT
  static ParamValue boolean(bool value);
  static ParamValue string(std::string value);
  static ParamValue list(std::vector<ParamValue> items);

  Kind kind() const { return kind_; }
  // The value as that kind; std::invalid_argument naming the kind it has otherwise. An integer
  // parameter given as a boolean reads as 0 or 1.
  std::int64_t as_integer() const;
  bool as_boolean() const;
  const std::string& as_string() const;
  const std::vector<ParamValue>& as_list() const;
  // A list of integers, or of lists of integers (pairs, rows): the common shapes, flattened.
  std::vector<std::int64_t> as_integers() const;
  std::vector<std::vector<std::int64_t>> as_integer_lists() const;

  friend bool operator==(const ParamValue&, const ParamValue&) = default;

 private:
  Kind kind_ = Kind::integer;
  std::int64_t integer_ = 0;  // integer, or boolean as 0 / 1
  std::string string_;
  std::vector<ParamValue> list_;
};

std::string_view to_string(ParamValue::Kind kind);
// The value as TOML text: 3, true, "name", [[0, 1], [2, 3]].
std::string to_toml(const ParamValue& value);
// Whether `given` may replace `default_value` (the kinds rule above); empty if so, else what
// was expected ("an integer", "a list of strings").
std::string kind_mismatch(const ParamValue& default_value, const ParamValue& given);

using Params = std::map<std::string, ParamValue, std::less<>>;

}  // namespace weft::sim
