#pragma once
// How the processes (ranks) of one exploration speak to each other (explore_over_ranks.hpp):
// whole messages of bytes, from one rank to another. weft-mpi's is MPI's (app/mpi/); the tests
// have one over threads of a process. Rank 0 owns the tree.
//
// Contract: messages from one rank to another arrive whole and in the order sent; send() may
// return before the message is received (the bytes are copied or sent by then).

#include <optional>
#include <string>
#include <string_view>

namespace weft::sim {

class RankTransport {
 public:
  struct Message {
    int from = 0;
    std::string bytes;
  };

  virtual ~RankTransport() = default;
  virtual int rank() const = 0;   // this process's, 0 .. ranks() - 1
  virtual int ranks() const = 0;  // how many share the exploration
  virtual void send(int to, std::string_view bytes) = 0;
  // The next message to this rank, from any: waits for one, or with `wait` false returns
  // nothing when none has arrived.
  virtual std::optional<Message> receive(bool wait) = 0;
};

}  // namespace weft::sim
