#pragma once
// RankTransport (sim/engine/rank_transport.hpp) over MPI's world communicator: each message is
// one MPI message of bytes, with one tag. Made after MPI_Init, destroyed before MPI_Finalize;
// only the thread that made it calls it (MPI_THREAD_FUNNELED).
//
// A rank waiting for a message probes for one, and between probes sleeps a little (tens of
// microseconds) once a few hundred found nothing: a rank waiting in MPI's own blocking receive
// spins on a core, which on a machine with fewer cores than ranks takes it from a rank that
// runs. The sleeps change when things happen, never what happens.

#include "sim/engine/rank_transport.hpp"

namespace weft::app {

class MpiTransport final : public sim::RankTransport {
 public:
  MpiTransport();
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  void send(int to, std::string_view bytes) override;
  std::optional<Message> receive(bool wait) override;

 private:
  int rank_ = 0, ranks_ = 1;
};

}  // namespace weft::app
