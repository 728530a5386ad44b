#pragma once
// RankTransport (sim/engine/rank_transport.hpp) over MPI's world communicator: each message is
// one MPI message of bytes, with one tag. Made after MPI_Init, destroyed before MPI_Finalize;
// only the thread that made it calls it (MPI_THREAD_FUNNELED).
//
// Sends do not wait for the receiver: each is an MPI_Isend whose bytes are kept until MPI says it
// completed (checked at every later call, and waited for at destruction). A blocking send of a
// message above MPI's eager limit waits until the receiver takes it; the tree owner waited so a
// few milliseconds a claim whenever the helper was off its core (measured with 2 ranks on 2
// busy cores: docs/exploring.md).
//
// A rank waiting for a message probes for one, and between probes sleeps a little (tens of
// microseconds) once a few hundred found nothing: a rank waiting in MPI's own blocking receive
// spins on a core, which on a machine with fewer cores than ranks takes it from a rank that
// runs. The sleeps change when things happen, never what happens.

#include <mpi.h>

#include <list>
#include <string>

#include "sim/engine/rank_transport.hpp"

namespace weft::app {

class MpiTransport final : public sim::RankTransport {
 public:
  MpiTransport();
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  void send(int to, std::string_view bytes) override;
  std::optional<Message> receive(bool wait) override;

 private:
  struct Sending {
    MPI_Request request;
    std::string bytes;  // MPI reads them until the request completes
  };
  void forget_sent();  // drops the sends that completed

  int rank_ = 0, ranks_ = 1;
  std::list<Sending> sending_;  // in the order sent; a list: MPI holds their addresses
};

}  // namespace weft::app
