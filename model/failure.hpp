#pragma once
// A finding about the simulated kernel: a verdict other than ok, with the message a kernel
// author reads. Findings are values, never exceptions (architecture.md, Conventions).

#include <string>

#include "model/verdict.hpp"

namespace weft::model {

struct Failure {
  Verdict verdict = Verdict::kernel_error;
  std::string message;
};

// Where in the kernel's source a visible operation was issued.
struct SourceLine {
  const char* file = "";
  int line = 0;
};

std::string to_string(SourceLine where);  // "ring_all_gather.cpp:42" (file name without folders)

}  // namespace weft::model
