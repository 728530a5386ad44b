#include "sim/engine/fault_text.hpp"

#include <cxxabi.h>
#include <dlfcn.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace weft::sim {
namespace {

std::string hex(std::uintptr_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string cause(const scheduler::Fault& fault) {
  switch (fault.signal) {
    case SIGFPE:
      switch (fault.code) {
        case FPE_INTDIV:
          return "integer divide by zero";
        case FPE_INTOVF:
          return "integer overflow";
        case FPE_FLTDIV:
          return "floating-point divide by zero";
        default:
          return "an arithmetic exception";
      }
    case SIGILL:
      return "an illegal instruction";
    case SIGBUS:
      switch (fault.code) {
        case BUS_ADRALN:
          return "misaligned address " + hex(fault.address);
        case BUS_ADRERR:
          return "address " + hex(fault.address) + " has no backing (past the end of a mapped file?)";
        default:
          return "bus error at address " + hex(fault.address);
      }
    default:
      switch (fault.code) {
        case SEGV_MAPERR:
          return "address " + hex(fault.address) + " is not mapped";
        case SEGV_ACCERR:
          return "address " + hex(fault.address) + " may not be accessed so";
        default:
          return "invalid access to address " + hex(fault.address);
      }
  }
}

const char* name(int signal) {
  switch (signal) {
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGBUS:
      return "SIGBUS";
    default:
      return "SIGSEGV";
  }
}

std::string demangled(const char* symbol) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> readable(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                                             &std::free);
  return status == 0 && readable ? std::string(readable.get()) : std::string(symbol);
}

std::string place(std::uintptr_t pc) {
  Dl_info info{};
  if (pc == 0 || dladdr(reinterpret_cast<void*>(pc), &info) == 0 || info.dli_fname == nullptr) return hex(pc);
  std::string text = std::string(info.dli_fname) + "+" + hex(pc - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
  if (info.dli_sname != nullptr) text += " (in " + demangled(info.dli_sname) + ")";
  return text;
}

}  // namespace

std::string fault_text(const scheduler::Fault& fault) {
  return std::string(name(fault.signal)) + " (" + cause(fault) + ") at " + place(fault.pc);
}

}  // namespace weft::sim
