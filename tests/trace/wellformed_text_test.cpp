// xml_escape and json_text: whatever bytes come in, what goes out is well-formed UTF-8 that XML
// 1.0 can hold, with the markup characters as references and control characters visible.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "sim/trace/wellformed_text.hpp"

using weft::sim::json_text;
using weft::sim::xml_escape;

TEST_CASE("xml_escape writes the markup characters as references", "[trace][hardening]") {
  CHECK(xml_escape(R"(a<b>&"c"'d')") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  CHECK(xml_escape("tab\tline\nreturn\r") == "tab\tline\nreturn\r");
  CHECK(xml_escape("") == "");
}

TEST_CASE("xml_escape keeps valid UTF-8 as it is", "[trace][hardening]") {
  const std::string text =
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBD \xF4\x8F\xBF\xBF";  // é € 😀 U+FFFD U+10FFFF
  CHECK(xml_escape(text) == text);
}

TEST_CASE("xml_escape replaces each byte that is not UTF-8 by U+FFFD", "[trace][hardening]") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(xml_escape("a\xFF"
                   "b") == "a" + fffd + "b");
  CHECK(xml_escape("\xC3(") == fffd + "(");                            // a lead byte without its tail
  CHECK(xml_escape("\x80") == fffd);                                   // a lone continuation byte
  CHECK(xml_escape("\xC0\xAF") == fffd + fffd);                        // an overlong '/'
  CHECK(xml_escape("\xE0\x80\xAF") == fffd + fffd + fffd);             // an overlong '/', three bytes
  CHECK(xml_escape("\xED\xA0\x80") == fffd + fffd + fffd);             // a UTF-16 surrogate
  CHECK(xml_escape("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // past U+10FFFF
  CHECK(xml_escape("\xE2\x82") == fffd + fffd);                        // cut short at the end
}

TEST_CASE("xml_escape shows control characters as their Control Pictures symbols", "[trace][hardening]") {
  CHECK(xml_escape("\x1B[31mred") == "\xE2\x90\x9B[31mred");  // ESC as U+241B
  CHECK(xml_escape(std::string("\0", 1)) == "\xE2\x90\x80");  // NUL as U+2400
  CHECK(xml_escape("\x7F") == "\xE2\x90\xA1");                // DEL as U+2421
  CHECK(xml_escape("\xC2\x85") == "\xEF\xBF\xBD");            // a C1 control (NEL)
  CHECK(xml_escape("\xEF\xBF\xBE") == "\xEF\xBF\xBD");        // U+FFFE, not a character
}

TEST_CASE("json_text replaces bytes that are not UTF-8 and escapes control characters", "[trace][hardening]") {
  nlohmann::ordered_json value;
  value["path"] = "scenarios/\xFF\x1B.toml";
  const std::string text = json_text(value);
  CHECK(text == "{\"path\":\"scenarios/\xEF\xBF\xBD\\u001b.toml\"}");
  CHECK(nlohmann::json::parse(text)["path"] == "scenarios/\xEF\xBF\xBD\x1B.toml");
}
