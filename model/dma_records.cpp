#include "model/dma_records.hpp"

#include <algorithm>
#include <cassert>

#include "model/words.hpp"

namespace weft::model {

std::array<std::int64_t, 4> grid_point(const DmaOrigin& origin) {
  std::array<std::int64_t, 4> index{};
  std::int64_t step = origin.step;
  for (int axis = origin.grid_rank - 1; axis >= 0; --axis) {
    const std::int64_t size = std::max<std::int64_t>(origin.grid[static_cast<std::size_t>(axis)], 1);
    index[static_cast<std::size_t>(axis)] = step % size;
    step /= size;
  }
  return index;
}

std::string describe(const DmaOrigin& origin, std::string_view array) {
  std::string text = std::string(origin.what) + (origin.operand >= 0 ? "[" + std::to_string(origin.operand) + "]" : "");
  if (!array.empty()) text += " '" + std::string(array) + "'";
  text += " for grid point (";
  const std::array<std::int64_t, 4> index = grid_point(origin);
  for (int axis = 0; axis < origin.grid_rank; ++axis)
    text += (axis > 0 ? ", " : "") + std::to_string(index[static_cast<std::size_t>(axis)]);
  text += ")";
  if (origin.block_rank > 0) {
    text += ", block (";
    for (int d = 0; d < origin.block_rank; ++d)
      text += (d > 0 ? ", " : "") + std::to_string(origin.block[static_cast<std::size_t>(d)]);
    text += ")";
  }
  if (origin.spec.line > 0) text += " (BlockSpec at " + to_string(origin.spec) + ")";
  return text;
}

std::string describe_origin(const DmaOrigin* origin, const Buffer* array) {
  if (origin == nullptr) return "";
  return describe(*origin, array != nullptr ? array->info().name : std::string());
}

int DmaRecords::start(Dma dma, const Slice& source, const Slice& target, const DmaOrigin* origin) {
  dma.id = size();
  if (origin != nullptr) {
    dma.origin = static_cast<int>(origins_.size());
    origins_.push_back({*origin, origin->output ? target.buffer : source.buffer});
  }
  if (free_flights_.empty()) {
    dma.flight = static_cast<int>(flights_.size());
    flights_.emplace_back();
  } else {
    dma.flight = free_flights_.back();
    free_flights_.pop_back();
  }
  DmaFlight& flight = flights_[static_cast<std::size_t>(dma.flight)];
  flight.dma = dma.id;
  flight.source = source;
  flight.target = target;
  flight.landed = 0;
  dmas_.push_back(dma);
  return dma.id;
}

void DmaRecords::finish(int id) {
  Dma& dma = (*this)[id];
  dma.next = DmaPhase::done;
  free_flights_.push_back(dma.flight);
}

const DmaFlight& DmaRecords::flight(int id) const {
  const DmaFlight& flight = flights_[static_cast<std::size_t>((*this)[id].flight)];
  assert(flight.dma == id);
  return flight;
}

DmaFlight& DmaRecords::flight(int id) {
  return const_cast<DmaFlight&>(static_cast<const DmaRecords&>(*this).flight(id));
}

const DmaOrigin* DmaRecords::origin(int id) const {
  const int entry = (*this)[id].origin;
  return entry < 0 ? nullptr : &origins_[static_cast<std::size_t>(entry)].origin;
}

std::string DmaRecords::describe_origin(int id) const {
  const int entry = (*this)[id].origin;
  if (entry < 0) return "";
  const KeptOrigin& kept = origins_[static_cast<std::size_t>(entry)];
  return model::describe_origin(&kept.origin, kept.array);
}

std::string DmaRecords::describe(int id) const {
  const Dma& dma = (*this)[id];
  const DmaFlight& flight = this->flight(id);
  const auto slice = [](const Slice& s) { return model::describe(s.buffer->info()) + " " + to_string(s.rect); };
  const std::string phase = dma.next == DmaPhase::read   ? "read phase pending"
                            : dma.next == DmaPhase::done ? "done"
                            : flight.landed == 0         ? "write phase pending"
                                                 : "write phase pending, " + std::to_string(flight.landed) + " of " +
                                                       std::to_string(dma.bytes) + " bytes landed";
  const std::string origin = dma.origin >= 0 ? " (" + describe_origin(id) + ")" : std::string();
  return words::dma(dma.id) + origin + " started by " + to_string(dma.starter) + " at " + to_string(dma.line) + ": " +
         slice(flight.source) + " -> " + slice(flight.target) + " (" + phase + ")";
}

void DmaRecords::clear() {
  dmas_.clear();
  origins_.clear();
  free_flights_.clear();
  for (int slot = static_cast<int>(flights_.size()) - 1; slot >= 0; --slot) {
    flights_[static_cast<std::size_t>(slot)].dma = -1;
    free_flights_.push_back(slot);
  }
}

}  // namespace weft::model
