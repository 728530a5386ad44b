// weft-mpi: `weft explore` shared by the processes of an MPI job (sim/engine/explore_over_ranks.hpp),
//
//   mpirun -np 3 weft-mpi explore SCENARIO [explore's options]
//
// every rank given the same command line. Rank 0 prints the report; its reproduce lines name the
// plain weft executable beside this one (a replay is one process). Built only where CMake finds
// MPI (app/CMakeLists.txt). `--help` and `--version` answer (rank 0 prints) with status 0; other
// commands are the weft executable's: refused here (status 2).
// A usage, configuration or internal error on any rank ends every rank (MPI_Abort).

#include <mpi.h>

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/mpi_transport.hpp"
#include "scenarios/registry.hpp"
#include "sim/api/version.hpp"
#include "sim/cli/cli.hpp"
#include "sim/plugin/exit_guard.hpp"

namespace {

// The weft executable beside this one: what a reproduce line names.
std::string plain_executable(std::string_view self) {
  constexpr std::string_view suffix = "weft-mpi";
  if (self.ends_with(suffix)) self.remove_suffix(suffix.size());
  else return "weft";
  return std::string(self) + "weft";
}

constexpr std::string_view usage =
    "weft-mpi: one `weft explore` shared by the ranks of an MPI job (docs/exploring.md)\n"
    "Usage: mpirun -np N weft-mpi explore SCENARIO [explore's options]\n"
    "       (or srun under Slurm); `weft-mpi explore --help` lists explore's options. Rank 0 prints\n"
    "       the report; its reproduce lines name the plain weft beside weft-mpi.\n";

int run(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h" ||
                    std::string_view(argv[1]) == "--version")) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::cout << (std::string_view(argv[1]) == "--version" ? "weft-mpi " WEFT_VERSION "\n" : usage);
    return 0;
  }
  if (argc < 2 || std::string_view(argv[1]) != "explore") {
    std::cerr << "weft-mpi: only `weft-mpi explore SCENARIO ...` (under mpirun or srun); the other commands are "
                 "the weft executable's\n";
    return 2;
  }
  weft::app::MpiTransport transport;
  std::string program = plain_executable(argv[0]);
  std::vector<char*> arguments(argv, argv + argc);
  arguments[0] = program.data();
  const weft::sim::ExitGuard guard;
  return weft::sim::run_cli(argc, arguments.data(), weft::scenarios::builtin_scenarios(), {}, {}, &transport);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::cerr << "weft-mpi: MPI_Init_thread failed\n";
    return 3;
  }
  const int status = run(argc, argv);
  // A usage, configuration or internal error (2, 3) on one rank may leave the others waiting for
  // it: the whole job ends with it.
  if (status == 2 || status == 3) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return status;
}
