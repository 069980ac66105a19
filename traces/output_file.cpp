#include "traces/output_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

namespace pmusim {

namespace {

std::string reason() { return std::strerror(errno); }

std::string folder_of(const std::string& p) {
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : p.substr(0, slash);
}

// The temporary files of unfinished OutputFiles, for the signal handler: fixed storage (a handler may not allocate),
// a slot in use once its name is written. A process has few outputs at once (a trace, a VCD, a plot).
constexpr size_t max_temps = 16;
char temp_names[max_temps][PATH_MAX];
volatile std::sig_atomic_t temp_used[max_temps];
std::mutex temps_mutex;  // registration only (the handler reads the slots)
size_t temps_open = 0;
constexpr int ending_signals[] = {SIGINT, SIGTERM, SIGHUP};
bool handler_installed[3] = {};

void install_handlers() {
    for (size_t i = 0; i < 3; ++i) {
        struct sigaction now {};
        if (::sigaction(ending_signals[i], nullptr, &now) != 0 || now.sa_handler != SIG_DFL) continue;  // keep theirs
        struct sigaction sa {};
        sa.sa_handler = pmusim_end_by_signal;
        sigemptyset(&sa.sa_mask);
        for (int s : ending_signals) sigaddset(&sa.sa_mask, s);  // one handler at a time
        handler_installed[i] = ::sigaction(ending_signals[i], &sa, nullptr) == 0;
    }
}

void remove_handlers() {
    for (size_t i = 0; i < 3; ++i) {
        struct sigaction now {};
        if (!handler_installed[i] || ::sigaction(ending_signals[i], nullptr, &now) != 0) continue;
        if (now.sa_handler == pmusim_end_by_signal) std::signal(ending_signals[i], SIG_DFL);
        handler_installed[i] = false;
    }
}

// Returns the slot, or max_temps when all are taken (the file then is not removed on a signal).
size_t register_temp(const std::string& path) {
    std::lock_guard<std::mutex> lock(temps_mutex);
    if (path.size() >= PATH_MAX) return max_temps;
    for (size_t i = 0; i < max_temps; ++i)
        if (!temp_used[i]) {
            std::memcpy(temp_names[i], path.c_str(), path.size() + 1);
            temp_used[i] = 1;
            if (temps_open++ == 0) install_handlers();
            return i;
        }
    return max_temps;
}

void unregister_temp(size_t slot) {
    if (slot >= max_temps) return;
    std::lock_guard<std::mutex> lock(temps_mutex);
    temp_used[slot] = 0;
    if (--temps_open == 0) remove_handlers();
}

}  // namespace

OutputFile::OutputFile(std::string path, Kind kind, const std::string& temp_suffix) : path_(std::move(path)) {
    const bool binary = kind == Kind::binary;
    if (path_.empty()) throw OutputError("an output file name is empty");
    if (path_ == "-" && kind == Kind::by_name) throw OutputError("this output cannot go to standard output: name a file");
    if (path_ == "-") {
        f_ = stdout;
        return;
    }
    target_ = path_;
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw OutputError(fmt::format("{}: is a folder, expected a file name", path_));
        if (!S_ISREG(st.st_mode)) {  // a device, FIFO or socket: write to it as it is
            if (kind == Kind::by_name) return;
            f_ = std::fopen(path_.c_str(), binary ? "wb" : "w");
            if (!f_) throw OutputError(fmt::format("{}: cannot open for writing: {}", path_, reason()));
            return;
        }
        char resolved[PATH_MAX];  // a link is followed: its target is replaced, the link stays
        if (::realpath(path_.c_str(), resolved)) target_ = resolved;
    }
    const std::string name = target_.substr(target_.rfind('/') == std::string::npos ? 0 : target_.rfind('/') + 1);
    std::string tmpl = folder_of(target_) + "/." + name + ".pmusim-XXXXXX" + temp_suffix;
    // The ending signals wait while the file is created and registered: one that comes in between removes it too.
    sigset_t ending, before;
    sigemptyset(&ending);
    for (int sig : ending_signals) sigaddset(&ending, sig);
    ::pthread_sigmask(SIG_BLOCK, &ending, &before);
    const int fd = ::mkstemps(tmpl.data(), static_cast<int>(temp_suffix.size()));
    const int created_errno = errno;
    if (fd >= 0) {
        temp_ = tmpl;
        slot_ = register_temp(temp_);
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    errno = created_errno;
    if (fd < 0) throw OutputError(fmt::format("{}: cannot create a file in {}: {}", path_, folder_of(target_), reason()));
    // The permissions a new file would get (mkstemp makes 0600), or those of the file it replaces.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const mode_t mode = ::stat(target_.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
    if (::fchmod(fd, mode) != 0) { /* keep 0600: still correct, only stricter */ }
    if (kind == Kind::by_name) {  // the name is reserved; the other writer opens it
        ::close(fd);
        return;
    }
    f_ = ::fdopen(fd, binary ? "wb" : "w");
    if (!f_) {
        ::close(fd);
        ::unlink(temp_.c_str());
        unregister_temp(slot_);
        throw OutputError(fmt::format("{}: cannot open for writing: {}", path_, reason()));
    }
}

OutputFile::~OutputFile() {
    if (done_) return;
    if (f_ && f_ != stdout) std::fclose(f_);
    if (!temp_.empty()) ::unlink(temp_.c_str());  // only the temporary file this object created
    unregister_temp(slot_);
}

void OutputFile::write(const std::string& s) {
    if (done_) throw OutputError(fmt::format("{}: write after commit", path_));
    if (!s.empty() && std::fwrite(s.data(), 1, s.size(), f_) != s.size()) fail("write error");
}

void OutputFile::fail(const std::string& what) {
    const std::string why = errno ? reason() : "unknown error";
    throw OutputError(fmt::format("{}: {}: {}", path_ == "-" ? "standard output" : path_, what, why));
}

void OutputFile::commit() {
    if (done_) return;
    errno = 0;
    if (!f_) {  // Kind::by_name: the other writer has closed the file
        if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot replace");
        done_ = true;
        unregister_temp(slot_);  // after the rename: a signal before it still removes the temporary file
        return;
    }
    if (std::fflush(f_) != 0 || std::ferror(f_)) fail("write error");
    if (f_ == stdout) {
        done_ = true;
        return;
    }
    std::FILE* f = f_;
    f_ = nullptr;
    if (std::fclose(f) != 0) fail("write error");
    if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot replace");
    done_ = true;
    unregister_temp(slot_);
}

bool same_file(const std::string& a, const std::string& b) {
    if (a == "-" || b == "-") return false;
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void refuse_same_file(const std::string& out, const std::string& option, const std::vector<std::string>& inputs) {
    if (out.empty() || out == "-") return;
    for (const auto& in : inputs)
        if (in != "-" && !in.empty() && (in == out || same_file(in, out)))
            throw OutputError(fmt::format("{} {}: the same file as the input {}; writing it would destroy the input",
                                          option, out, in));
}

void write_stdout(const std::string& s) {
    OutputFile out("-");
    out.write(s);
    out.commit();
}

extern "C" void pmusim_end_by_signal(int sig) {
    // Async-signal-safe: unlink(), signal() and raise() only (POSIX.1-2017 §2.4.3).
    for (size_t i = 0; i < max_temps; ++i)
        if (temp_used[i]) ::unlink(temp_names[i]);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

}  // namespace pmusim
