// Hostile inputs: config and scenario files that are empty, binary, huge, deeply nested, with
// duplicate keys, wrong types, out-of-range numbers or unknown words; malformed --set values,
// schedule strings and seed ranges. Each exits 2 and names the file, line and column, or the
// offending token; none crashes.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_runner.hpp"

using weft::testing::run_weft;
using weft::testing::temp_file;

namespace {

struct HostileFile {
  const char* name;
  std::string text;
  std::string expected;  // in stderr; "FILE" stands for the file's path
};

std::string binary_bytes() {
  std::string bytes;
  for (int i = 0; i < 512; ++i) bytes += static_cast<char>((i * 73 + 11) % 256);
  return bytes;
}

std::string replace_file(std::string text, const std::string& path) {
  const auto at = text.find("FILE");
  return at == std::string::npos ? text : text.replace(at, 4, path);
}

void check_exit_2(const std::vector<std::string>& args, const std::string& expected) {
  const auto result = run_weft(args);
  INFO(result.err);
  CHECK(result.status == 2);
  CHECK(result.err.find(expected) != std::string::npos);
  CHECK(result.out.find("verdict") == std::string::npos);
}

}  // namespace

TEST_CASE("Hostile config files exit 2 naming file, line and column", "[cli][hardening]") {
  const std::vector<HostileFile> files{
      {"empty", "", "FILE:1:1: the file holds no settings"},
      {"comments_only", "# nothing\n\n# at all\n", "FILE:1:1: the file holds no settings"},
      {"binary", binary_bytes(), "FILE:1:"},
      {"nul_bytes", std::string("[dma]\nexecution = \"as\0nc\"\n", 27), "FILE:2:"},
      {"huge", "# " + std::string(2 * 1024 * 1024, 'x') + "\n", "FILE: cannot read the file: it is too large"},
      {"deep_arrays", "a = " + std::string(5000, '[') + std::string(5000, ']') + "\n", "FILE:1:"},
      {"deep_inline_tables",
       "a = " +
           [] {
             std::string text;
             for (int i = 0; i < 3000; ++i) text += "{b = ";
             return text + "1" + std::string(3000, '}');
           }() +
           "\n",
       "FILE:1:"},
      {"deep_table_header",
       "[a" +
           [] {
             std::string text;
             for (int i = 0; i < 60000; ++i) text += ".a";
             return text;
           }() +
           "]\n",
       "FILE:1:131: keys nested more than 64 deep"},
      {"deep_dotted_key",
       [] {
         std::string text = "a";
         for (int i = 0; i < 60000; ++i) text += ".a";
         return text + " = 1\n";
       }(),
       "FILE:1:130: keys nested more than 64 deep"},
      {"duplicate_key", "[topology]\ndevices = 2\ndevices = 3\n", "FILE:3:"},
      {"duplicate_section", "[dma]\nexecution = \"eager\"\n[dma]\nexecution = \"async\"\n", "FILE:3:"},
      {"wrong_type", "[scheduler]\nmax_steps = \"many\"\n",
       "FILE:2:13: key 'scheduler.max_steps': expected an integer"},
      {"wrong_type_table", "topology = 4\n", "FILE:1:12: key 'topology': expected a table"},
      {"zero_devices", "[topology]\ndevices = 0\n", "FILE:2:11: key 'topology.devices': value 0 is out of range"},
      {"billion_cores", "[topology]\ncores_per_device = 1_000_000_000\n", "FILE:2:20: key 'topology.cores_per_device'"},
      {"too_many_cores", "[topology]\ndevices = 4096\ncores_per_device = 64\n",
       "FILE:3:20: key 'topology.cores_per_device'"},
      {"huge_mesh", "[topology]\nmesh = [4096, 4096]\n", "FILE:2:8: key 'topology.mesh'"},
      {"negative_capacity", "[memory]\nvmem_bytes = -5\n",
       "FILE:2:14: key 'memory.vmem_bytes': value -5 is out of range"},
      {"integer_overflow", "[scheduler]\nseed = 99999999999999999999\n", "FILE:2:"},
      {"unknown_enum", "[dma]\nexecution = \"lazy\"\n", "FILE:2:13: key 'dma.execution': unknown value 'lazy'"},
      {"unknown_strategy", "[scheduler]\nstrategy = \"fifo\"\n",
       "FILE:2:12: key 'scheduler.strategy': unknown value 'fifo'"},
      {"unknown_key", "[dma]\nspeed = 3\n", "FILE:2:1: key 'dma.speed': unknown key"},
      {"unknown_section", "[turbo]\non = true\n", "FILE:1:2: key 'turbo': unknown section"},
      {"nan_watchdog", "[scheduler]\nwatchdog_seconds = nan\n", "FILE:2:20: key 'scheduler.watchdog_seconds'"},
      {"negative_watchdog", "[scheduler]\nwatchdog_seconds = -1.5\n", "FILE:2:20: key 'scheduler.watchdog_seconds'"},
      {"tiny_stack", "[scheduler]\nstack_bytes = 1\n", "FILE:2:15: key 'scheduler.stack_bytes'"},
      {"unterminated_string", "[dma]\nexecution = \"async\n", "FILE:2:"},
      {"scenario_key_in_config", "kernel = \"ring_all_gather\"\n", "FILE:1:1: key 'kernel': not allowed here"},
  };
  for (const auto& file : files) {
    CAPTURE(file.name);
    const auto path = temp_file(std::string("hostile_config_") + file.name + ".toml", file.text);
    check_exit_2({"run", "ring_all_gather", "--config", path}, replace_file(file.expected, path));
  }
  SECTION("a folder, and a file that does not exist") {
    check_exit_2({"run", "ring_all_gather", "--config", "scenarios"},
                 "scenarios: cannot read the file: it is not a regular file");
    check_exit_2({"run", "ring_all_gather", "--config", "no/such.toml"},
                 "no/such.toml: cannot read the file: it does not exist");
  }
}

TEST_CASE("Hostile scenario files exit 2 naming file, line and column", "[cli][hardening]") {
  const std::string kernel = "kernel = \"right_permute\"\n";
  const std::vector<HostileFile> files{
      {"empty", "", "FILE:1:1: key 'kernel': missing"},
      {"binary", binary_bytes(), "FILE:1:"},
      {"huge", kernel + "# " + std::string(2 * 1024 * 1024, 'x') + "\n", "FILE: cannot read the file: it is too large"},
      {"duplicate_kernel", kernel + kernel, "FILE:2:"},
      {"kernel_not_a_string", "kernel = 3\n", "FILE:1:10: key 'kernel'"},
      {"unknown_kernel", "kernel = \"no_such_kernel\"\n", "FILE:1:1: key 'kernel': no scenario named 'no_such_kernel'"},
      {"unknown_verdict", kernel + "expect = \"fine\"\n", "FILE:2:10: key 'expect'"},
      {"param_wrong_type", kernel + "[params]\nrows = \"eight\"\n", "FILE:3:8: key 'params.rows'"},
      {"unknown_param", kernel + "[params]\nspeed = 3\n", "FILE:3:1: key 'params.speed'"},
      {"negative_param_shape", kernel + "[params]\nrows = -8\n",
       "host buffer 'x' of shape [-8, 128]: extent -8 of dimension 0 is negative"},
      {"zero_devices", kernel + "[topology]\ndevices = 0\n", "FILE:3:11: key 'topology.devices'"},
      {"deep_section", kernel + "[params" + std::string(200, '.') + "]\n", "FILE:2:"},
      {"missing_config", kernel + "config = \"no_such.toml\"\n",
       "no_such.toml: cannot read the file: it does not exist"},
  };
  for (const auto& file : files) {
    CAPTURE(file.name);
    const auto path = temp_file(std::string("hostile_scenario_") + file.name + ".toml", file.text);
    check_exit_2({"run", path}, replace_file(file.expected, path));
  }
}

TEST_CASE("Hostile --set values, schedule strings and seed ranges exit 2 naming the token", "[cli][hardening]") {
  const std::vector<std::pair<std::string, std::string>> sets{
      {"topology.devices=-1", "--set:1:18: key 'topology.devices'"},
      {"=3", "--set:1:1"},
      {"dma.execution=lazy", "key 'dma.execution': unknown value 'lazy'"},
      {"topology.devices=1e400", "--set:1:"},
      {"no_equals_sign", "--set:1:"},
      {"memory.hbm_bytes=\"x\"\n[dma]", "--set:1:"},
  };
  for (const auto& [assignment, expected] : sets) {
    CAPTURE(assignment);
    check_exit_2({"run", "right_permute", "--set", assignment}, expected);
  }
  const std::vector<std::pair<std::string, std::string>> schedules{
      {"c", "bad actor index '' at character 2"},
      {"x1", "step 'x1' at character 1 does not start with c, r or w"},
      {"c1,,c2", "empty step at character 4"},
      {"c1,", "trailing comma at character 3"},
      {"c-1", "bad actor index '-1' at character 2"},
      {"c1:0", "repeat count out of range at character 4"},
      {"c1:99999999999", "bad repeat count '99999999999' at character 4"},
      {"c99999999999", "bad actor index '99999999999' at character 2"},
      {"c0:4194304,c0:1", "more than 4194304 steps at character 12"},
      {"c1:2:3", "bad repeat count '2:3' at character 4"},
      {"c9", "schedule"},  // no such core: the replay diverges
  };
  for (const auto& [schedule, expected] : schedules) {
    CAPTURE(schedule);
    check_exit_2({"replay", "right_permute", "--schedule", schedule}, expected);
  }
  for (const std::string seeds : {"", "5..3", "a..b", "0..18446744073709551616", "..", "-1..3", "1...3", "0x10..20"}) {
    CAPTURE(seeds);
    check_exit_2({"sweep", "right_permute", "--seeds", seeds}, "'" + seeds + "' is not a seed range");
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run", "right_permute", "--watchdog", "-1"},
           {"run", "right_permute", "--watchdog", "many"},
           {"run", "right_permute", "--seed", "-3"},
           {"replay", "right_permute", "--seed", "-3"},
           {"sweep", "right_permute", "--seeds", "0..3", "--shard-count", "-2"},
           {"sweep", "right_permute", "--seeds", "0..3", "--jobs", "0"},
           {"sweep", "right_permute", "--seeds", "0..3", "--shard", "3/3"},
           {"run", "right_permute", "--expect", "fine"},
           {"run", "right_permute", "--set", "params.rows=1000000000000"},
           {"sweep", "right_permute", "--seeds", "0..3", "--jsonl", "/no/such/folder/out.jsonl"},
           {"sweep", "right_permute", "--seeds", "0..3", "--junit", "/no/such/folder/out.xml"},
           {"run", "right_permute", "--trace", "/no/such/folder/trace.json"}}) {
    CAPTURE(args);
    CHECK(run_weft(args).status == 2);
  }
}

TEST_CASE("A zero or non-dividing block size of a Pallas port is a configuration error naming its key",
          "[cli][hardening]") {
  // Not a division by zero in the kernel (SIGFPE, exit 136): the setup checks the parameters.
  const std::string source = WEFT_SOURCE_DIR;
  check_exit_2({"run", source + "/scenarios/pallas_matmul.toml", "--set", "params.bm=0"}, "params.bm");
  check_exit_2({"run", source + "/scenarios/pallas_matmul.toml", "--set", "params.bk=0"}, "must be positive, not 0");
  check_exit_2({"explore", source + "/scenarios/pallas_matmul.toml", "--set", "params.bn=0"}, "params.bn");
  check_exit_2({"run", source + "/scenarios/pallas_matmul.toml", "--set", "params.bm=5"},
               "5 does not divide params.m = 16");
  check_exit_2({"run", source + "/scenarios/pallas_paged_gather.toml", "--set", "params.pages=0"}, "params.pages");
  check_exit_2({"run", source + "/scenarios/pallas_inner_pipeline.toml", "--set", "params.block_rows=0"},
               "params.block_rows");
}
