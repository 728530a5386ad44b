#include "app/mpi_transport.hpp"

#include <chrono>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

namespace weft::app {
namespace {

constexpr int explore_tag = 32;

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw std::runtime_error(std::string("MPI: ") + what + ": " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace

MpiTransport::MpiTransport() {
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks_), "MPI_Comm_size");
}

MpiTransport::~MpiTransport() {
  for (Sending& sending : sending_) MPI_Wait(&sending.request, MPI_STATUS_IGNORE);
}

void MpiTransport::forget_sent() {
  for (auto each = sending_.begin(); each != sending_.end();) {
    int done = 0;
    check(MPI_Test(&each->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    each = done != 0 ? sending_.erase(each) : std::next(each);
  }
}

void MpiTransport::send(int to, std::string_view bytes) {
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("MPI: a message of " + std::to_string(bytes.size()) + " bytes, over MPI's count");
  forget_sent();
  Sending& sending = sending_.emplace_back();
  sending.bytes.assign(bytes);
  check(MPI_Isend(sending.bytes.data(), static_cast<int>(sending.bytes.size()), MPI_BYTE, to, explore_tag,
                  MPI_COMM_WORLD, &sending.request),
        "MPI_Isend");
}

std::optional<sim::RankTransport::Message> MpiTransport::receive(bool wait) {
  forget_sent();
  MPI_Status status;
  int arrived = 0;
  for (int probes = 0;; ++probes) {
    check(MPI_Iprobe(MPI_ANY_SOURCE, explore_tag, MPI_COMM_WORLD, &arrived, &status), "MPI_Iprobe");
    if (arrived != 0) break;
    if (!wait) return std::nullopt;
    if (probes >= 200) std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  int count = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
  Message message;
  message.from = status.MPI_SOURCE;
  message.bytes.resize(static_cast<std::size_t>(count));
  check(MPI_Recv(message.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, explore_tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return message;
}

}  // namespace weft::app
