#include "sim/cli/interrupt.hpp"

#include <csignal>
#include <cstdlib>

namespace weft::sim {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int signal) {
  if (interrupted.exchange(true)) std::_Exit(128 + signal);
}

}  // namespace

const std::atomic<bool>& install_interrupt_handlers() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return interrupted;
}

}  // namespace weft::sim
