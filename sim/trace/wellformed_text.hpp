#pragma once
// Text from outside weft (a scenario's path, a kernel's messages, a config option) made
// well-formed in the formats weft writes. Such text is any bytes: a path need not be UTF-8, and
// may hold ESC or other control characters. XML (JUnit) and HTML (the timeline) can hold neither
// as they are: a byte that is not UTF-8 makes the file ill-formed, and XML 1.0 forbids control
// characters even as references. JSON escapes control characters itself (\u001b), but cannot
// hold bytes that are not UTF-8 (nlohmann::json throws on them: it was an exit 3).
//
//   xml_escape(text)  element text and attribute values, in XML and HTML alike: & < > " ' as
//                     references; a byte that does not belong to valid UTF-8 as U+FFFD (the
//                     replacement character); a control character other than tab, newline and
//                     carriage return as its symbol of the Control Pictures block (ESC as U+241B,
//                     DEL as U+2421), so it stays visible; C1 controls, U+FFFE and U+FFFF as U+FFFD.
//   json_text(value)  a JSON value as one line, a byte that is not UTF-8 as U+FFFD.

#include <string>
#include <string_view>

namespace weft::sim {

std::string xml_escape(std::string_view text);

template <class Json>  // nlohmann::json or nlohmann::ordered_json
std::string json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace weft::sim
