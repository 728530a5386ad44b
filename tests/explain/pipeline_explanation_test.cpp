// Races and waits that involve the Pallas pipeline's DMAs, explained in the author's terms: each
// pipeline DMA named by operand, fetch or write-back, grid point, block and BlockSpec; fixes that
// change what the author writes (the index map, the dimension semantics, the body's own
// accesses and synchronisation), never "move" a DMA the pipeline starts.
#include "explain_test_support.hpp"
#include "sim/pallas/pallas_call.hpp"

using namespace weft;
using testing::short_line;

namespace {

// "file.cpp:N" for the first line of scenarios/kernels/pallas/FILE holding `code`, as reports
// name it (the file without its folder).
std::string kernel_line(const std::string& file, const std::string& code) {
  return testing::kernel_line("pallas/" + file, code).substr(std::string("pallas/").size());
}

// No fix moves a pipeline DMA's start or asks for a wait before the launch's line.
void check_no_pipeline_moves(const sim::Explanation& explanation, const std::string& launch) {
  for (const sim::FixCandidate& fix : explanation.fixes) {
    CHECK(fix.text.find("move ") == std::string::npos);
    CHECK(fix.text.find("start of DMA") == std::string::npos);
    CHECK(fix.text.find("wait, before " + short_line(launch)) == std::string::npos);
  }
}

}  // namespace

TEST_CASE("two cores writing back one output block: fix the index map or make the dimension arbitrary", "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/pallas_matmul_shared_output_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  const std::string text = testing::all_text(explanation);
  INFO(text);
  const std::string spec = kernel_line("matmul.cpp", "output<float>(\"z\", {s.bm, s.bn}, [shared]");
  const std::string launch = kernel_line("matmul.cpp", "sim::pallas::launch(core, matmul_spec(sizes)");
  // The accesses are named as the author knows them.
  CHECK(text.find("(write-back of out[0] 'z' for grid point (") != std::string::npos);
  CHECK(text.find("(BlockSpec at " + spec + "), started by device 0 core ") != std::string::npos);
  REQUIRE(explanation.fixes.size() == 2);
  CHECK(explanation.fixes[0].line == spec);
  CHECK(
      explanation.fixes[0].text.find("give the points of grid dimension 0, which is parallel, blocks of their own: the "
                                     "index map of out[0] 'z' (BlockSpec at " +
                                     short_line(spec) + ") gives block (0, ") != std::string::npos);
  CHECK(explanation.fixes[0].text.find("the megacore split runs those points on different cores") != std::string::npos);
  CHECK(explanation.fixes[1].line == launch);
  CHECK(explanation.fixes[1].text.find(
            "make grid dimension 0 \"arbitrary\" in the dimension semantics of the launch at " + short_line(launch)) !=
        std::string::npos);
  check_no_pipeline_moves(explanation, launch);
}

TEST_CASE("two cores' inner pipelines over overlapping refs: make the refs disjoint, or order the pipelines",
          "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/pallas_inner_pipeline_overlap_race.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  INFO(testing::all_text(explanation));
  const std::string spec = kernel_line("inner_pipeline.cpp", "{sim::pallas::block(y.at(");
  const std::string launch = kernel_line("inner_pipeline.cpp", "sim::pallas::emit_pipeline(");
  REQUIRE(explanation.fixes.size() == 2);
  CHECK(explanation.fixes[0].line == spec);
  CHECK(explanation.fixes[0].text.find(
            "give each core's pipeline elements of 'out' of its own: the inner pipeline write-back "
            "of out[0] 'out' for grid point (") != std::string::npos);
  CHECK(explanation.fixes[0].text.find("both touch [8:16, 0:128]") != std::string::npos);
  CHECK(explanation.fixes[1].line == launch);
  CHECK(explanation.fixes[1].text.find("or order the two pipelines with the kernel's own synchronisation") !=
        std::string::npos);
  check_no_pipeline_moves(explanation, launch);
}

TEST_CASE("a body that writes an array the pipeline is fetching from: the fix is the body's store", "[explain]") {
  // Grid (2): the pipeline fetches x's block 1 during step 0, while the body of step 0 stores
  // into those rows of x directly.
  sim::ScenarioDefinition scenario;
  scenario.name = "store_into_fetched_rows";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {16, 128});
    host.hbm<float>("y", {16, 128});
  };
  const auto rows = [](const sim::pallas::GridIndex& g) { return sim::pallas::Block{g[0], 0}; };
  sim::pallas::CallSpec spec;
  spec.grid = {2};
  const int spec_line = __LINE__ + 1;
  spec.in = {sim::pallas::input<float>("x", {8, 128}, rows)};
  spec.out = {sim::pallas::output<float>("y", {8, 128}, rows)};
  const int store_line = __LINE__ + 4;
  scenario.kernel = sim::pallas::pallas_call(spec, [](sim::pallas::Program& p) {
    sim::Core& core = p.core();
    core.store(p.out<float>(0), core.load(p.in<float>(0)));
    if (p.program_id(0) == 0) core.store(core.hbm<float>("x").at({sim::ds(8, 8)}), sim::Tile<float>::Zero(8, 128));
  });
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 1;
  sim::Simulation simulation(config, scenario, {});
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  INFO(testing::all_text(explanation));
  const std::string file = "pipeline_explanation_test.cpp:";
  REQUIRE(explanation.fixes.size() == 2);
  CHECK(explanation.fixes[0].line == file + std::to_string(store_line));
  CHECK(explanation.fixes[0].text.find(
            "do not touch [8:16, 0:128] of 'x' from the body while the pipeline copies it: the "
            "fetch of in[0] 'x' for grid point (1), block (1, 0) (BlockSpec at " +
            file + std::to_string(spec_line) + ") is in flight while the body runs") != std::string::npos);
  CHECK(explanation.fixes[1].line == file + std::to_string(spec_line));
  CHECK(explanation.fixes[1].text.find("or keep the blocks of in[0] 'x' off the elements the store at line " +
                                       std::to_string(store_line) + " touches") != std::string::npos);
  for (const sim::FixCandidate& fix : explanation.fixes) CHECK(fix.text.find("move ") == std::string::npos);
}

TEST_CASE("a body's copy into its output block not waited: wait for it before the body returns", "[explain]") {
  // Grid (1): the body copies x into its output block's slot by a DMA of its own and returns
  // without waiting for it; the pipeline then writes the block back, reading the slot.
  sim::ScenarioDefinition scenario;
  scenario.name = "unwaited_copy_into_block";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {8, 128});
    host.hbm<float>("y", {8, 128});
  };
  sim::pallas::CallSpec spec;
  spec.grid = {1};
  spec.in = {sim::pallas::any<float>("x")};
  const int spec_line = __LINE__ + 1;
  spec.out = {sim::pallas::output<float>("y", {8, 128}, [](const sim::pallas::GridIndex&) {
    return sim::pallas::Block{0, 0};
  })};
  spec.scratch = {sim::pallas::dma_semaphores(1)};
  const int copy_line = __LINE__ + 2;
  scenario.kernel = sim::pallas::pallas_call(
      spec, [](sim::pallas::Program& p) { p.core().dma_start(p.in<float>(0), p.out<float>(0), p.semaphore(0)); });
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 1;
  sim::Simulation simulation(config, scenario, {});
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  INFO(testing::all_text(explanation));
  const std::string file = "pipeline_explanation_test.cpp:";
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == file + std::to_string(copy_line));
  CHECK(explanation.fixes[0].text.find("wait for DMA 0 (started at line " + std::to_string(copy_line) +
                                       ") before the body "
                                       "returns: the pipeline starts the write-back of out[0] 'y' for grid point (0), "
                                       "block (0, 0) (BlockSpec at " +
                                       file + std::to_string(spec_line) +
                                       ") after the body of its grid point returns") != std::string::npos);
}

TEST_CASE("a core writing what another core's pipeline fetches: order them with the kernel's own synchronisation",
          "[explain]") {
  // Grid (2), parallel over 2 cores: core 0 fetches x's block 0 for grid point (0) while the body
  // of grid point (1), on core 1, stores into those rows of x.
  sim::ScenarioDefinition scenario;
  scenario.name = "store_into_other_cores_rows";
  scenario.setup = [](sim::Host& host) {
    host.hbm<float>("x", {16, 128});
    host.hbm<float>("y", {16, 128});
  };
  const auto rows = [](const sim::pallas::GridIndex& g) { return sim::pallas::Block{g[0], 0}; };
  sim::pallas::CallSpec spec;
  spec.grid = {2};
  spec.semantics = {sim::pallas::Semantics::parallel};
  const int spec_line = __LINE__ + 1;
  spec.in = {sim::pallas::input<float>("x", {8, 128}, rows)};
  spec.out = {sim::pallas::output<float>("y", {8, 128}, rows)};
  const int store_line = __LINE__ + 4;
  scenario.kernel = sim::pallas::pallas_call(spec, [](sim::pallas::Program& p) {
    sim::Core& core = p.core();
    core.store(p.out<float>(0), core.load(p.in<float>(0)));
    if (p.program_id(0) == 1) core.store(core.hbm<float>("x").at({sim::ds(0, 8)}), sim::Tile<float>::Zero(8, 128));
  });
  sim::Config config;
  config.machine.mesh = {1};
  config.machine.cores_per_device = 2;
  sim::Simulation simulation(config, scenario, {});
  const sim::ExecutionResult race = testing::first_with(simulation, model::Verdict::data_race);
  const sim::Explanation explanation = sim::explain(simulation, race);
  INFO(testing::all_text(explanation));
  const std::string file = "pipeline_explanation_test.cpp:";
  REQUIRE(explanation.fixes.size() == 2);
  CHECK(explanation.fixes[0].line == file + std::to_string(store_line));
  CHECK(explanation.fixes[0].text.find("order the store at line " + std::to_string(store_line) +
                                       " on device 0 core 1 and the "
                                       "pipeline's fetch of in[0] 'x' for grid point (0), block (0, 0) (BlockSpec at " +
                                       file + std::to_string(spec_line) +
                                       ") on device 0 core 0 with the kernel's own "
                                       "synchronisation") != std::string::npos);
  CHECK(explanation.fixes[1].line == file + std::to_string(spec_line));
  for (const sim::FixCandidate& fix : explanation.fixes) CHECK(fix.text.find("move ") == std::string::npos);
}

TEST_CASE("an over-wait in a Pallas body: what the wait needs, that nothing can still arrive, and no cycle",
          "[explain]") {
  const sim::Request request = testing::scenario_request("scenarios/pallas_paged_gather_over_wait_deadlock.toml");
  sim::Simulation simulation(request.config, *request.scenario, request.params);
  const sim::ExecutionResult deadlock = testing::first_with(simulation, model::Verdict::deadlock);
  const sim::Explanation explanation = sim::explain(simulation, deadlock);
  const std::string text = testing::all_text(explanation);
  INFO(text);
  const std::string wait = kernel_line("paged_gather.cpp", "core.describe_dma(pages, pages");
  CHECK(explanation.title == "wait-for graph");
  // Both cores wait for two pages' bytes (64) on the first page's semaphore, which one page (32) signalled.
  for (const char* core : {"device 0 core 0", "device 0 core 1"})
    CHECK(text.find(std::string(core) + " waits at " + short_line(wait) + " on semaphore ") != std::string::npos);
  CHECK(text.find(": needs 64 bytes, holds 32") != std::string::npos);
  CHECK(
      text.find("can still arrive: nothing, from no one (no DMA into that cell is in flight and every core that "
                "signalled it is this one or has returned): the wait needs 64 bytes, 32 bytes more than arrived; this "
                "is an over-wait, not a cycle") != std::string::npos);
  CHECK(text.find("a cycle:") == std::string::npos);
  REQUIRE(explanation.fixes.size() == 1);
  CHECK(explanation.fixes[0].line == wait);
  CHECK(explanation.fixes[0].text.find("needs 64 bytes but the copies into that cell carry 32 bytes before") !=
        std::string::npos);
  CHECK(explanation.fixes[0].text.find("wait for the bytes the copies move") != std::string::npos);
}
