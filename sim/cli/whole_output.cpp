#include "sim/cli/whole_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

#if defined(__GLIBCXX__)
#include <ext/stdio_sync_filebuf.h>
#endif

#include "sim/cli/aside_name.hpp"
#include "sim/cli/interrupt.hpp"
#include "sim/cli/output_target.hpp"
#include "sim/config/config_error.hpp"

namespace weft::sim {
namespace {

// A path that cannot be written is a usage error (exit 2), like a file that cannot be read.
[[noreturn]] void cannot_write(const std::string& path, const std::string& why) {
  throw ConfigError(path, 0, 0, "", "cannot write the file: " + why);
}
[[noreturn]] void cannot_write(const std::string& path) { cannot_write(path, std::strerror(errno)); }

OutputTarget writable_target(const std::string& path) {
  OutputTarget target = output_target(path);
  if (!target.problem.empty()) cannot_write(path, target.problem);
  return target;
}

// A device or a FIFO, opened to be written in place: what it receives is its own affair. Opened
// without blocking: a FIFO that has no reader yet (ENXIO) is tried again every 20 ms until one
// comes or a stop is requested (SIGINT, SIGTERM: interrupt.hpp), so a signal still stops weft,
// which a blocking open(2) restarted after each handler never would. Writes then block as usual.
int open_in_place(const OutputTarget& target, const std::string& path) {
  bool told = false;
  for (;;) {
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd >= 0) {
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) cannot_write(path);
      return fd;
    }
    if (errno != ENXIO) cannot_write(path);
    if (stop_was_requested()) cannot_write(path, "a FIFO that no reader opened before weft was asked to stop");
    if (!told) std::cerr << "weft: waiting for a reader of the FIFO " << path << "\n";
    told = true;
    const timespec pause{0, 20'000'000};
    ::nanosleep(&pause, nullptr);
  }
}

// True when `out` writes straight to the process's stdout (not redirected to a string).
bool is_process_stdout(const std::ostream& out) {
#if defined(__GLIBCXX__)
  return &out == &std::cout && dynamic_cast<__gnu_cxx::stdio_sync_filebuf<char>*>(out.rdbuf()) != nullptr;
#else
  return false;
#endif
}

}  // namespace

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

void write_file_whole(const std::string& path, std::string_view contents) {
  WholeFile file(path);
  file.write(contents);
  file.commit();
}

WholeFile::WholeFile(const std::string& path) : path_(path) {
  const OutputTarget target = writable_target(path);
  if (target.in_place) {
    fd_ = open_in_place(target, path);
    return;
  }
  target_ = target.path;
  temporary_ = aside_name(target_, ".tmp" + std::to_string(::getpid()));
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) cannot_write(path_);
}

WholeFile::~WholeFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

void WholeFile::write(std::string_view data) {
  if (!write_all(fd_, data)) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (!temporary_.empty()) std::remove(temporary_.c_str());
    errno = error;
    cannot_write(path_);
  }
}

void WholeFile::commit() {
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (temporary_.empty()) {
    if (!closed) cannot_write(path_);
    return;
  }
  if (!closed || std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary_.c_str());
    errno = error;
    cannot_write(path_);
  }
}

void write_record(std::ostream& out, std::string_view record) {
  if (is_process_stdout(out)) {
    out.flush();
    std::fflush(stdout);
    if (!write_all(STDOUT_FILENO, record)) out.setstate(std::ios::badbit);
    return;
  }
  out.write(record.data(), static_cast<std::streamsize>(record.size()));
  out.flush();
}

JsonLinesFile::JsonLinesFile(const std::string& path) : path_(path) {
  const OutputTarget target = writable_target(path);
  if (target.in_place) {
    fd_ = open_in_place(target, path);
    return;
  }
  target_ = target.path;
  const std::string partial = partial_path(target_);
  // Locked before it is emptied, so a second sweep cannot truncate the first one's lines; and
  // the lock must be on the file the name still holds (not one a finishing sweep just renamed).
  for (int attempt = 0; fd_ < 0; ++attempt) {
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0) cannot_write(partial);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      throw ConfigError(partial, 0, 0, "",
                        "another weft sweep is writing this file (it holds its lock): wait for it to end, or give "
                        "another --jsonl");
    }
    struct stat opened {
    }, named{};
    if (::fstat(fd, &opened) == 0 && ::stat(partial.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
        opened.st_dev == named.st_dev) {
      fd_ = fd;
    } else {
      ::close(fd);
      if (attempt == 8) cannot_write(partial);
    }
  }
  if (::ftruncate(fd_, 0) != 0) cannot_write(partial);
}

std::string JsonLinesFile::partial_path(const std::string& path) { return aside_name(path, ".partial"); }

JsonLinesFile::~JsonLinesFile() {
  if (fd_ >= 0) ::close(fd_);
}

void JsonLinesFile::write(const std::string& line) {
  if (write_all(fd_, line + "\n")) {
    whole_bytes_ += line.size() + 1;
    ++lines_;
    return;
  }
  if (target_.empty()) cannot_write(path_);  // a device or a FIFO: what it took is gone
  // A full disk (or a file size limit) took part of the line: cut it off, so the file keeps
  // whole lines only.
  const int error = errno;
  (void)!::ftruncate(fd_, static_cast<off_t>(whole_bytes_));
  errno = error;
  cannot_write(partial_path(target_));
}

void JsonLinesFile::commit() {
  if (fd_ < 0) return;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!closed) cannot_write(path_);
  if (!target_.empty() && std::rename(partial_path(target_).c_str(), target_.c_str()) != 0) cannot_write(path_);
}

void JsonLinesFile::discard_if_bare() {
  if (fd_ < 0 || lines_ > 1) return;
  ::close(fd_);
  fd_ = -1;
  if (!target_.empty()) std::remove(partial_path(target_).c_str());
}

}  // namespace weft::sim
