#include "traces/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace pmusim {

namespace {

std::string reason() { return std::strerror(errno); }

std::string folder_of(const std::string& p) {
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : p.substr(0, slash);
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
    const int fd = ::mkstemps(tmpl.data(), static_cast<int>(temp_suffix.size()));
    if (fd < 0) throw OutputError(fmt::format("{}: cannot create a file in {}: {}", path_, folder_of(target_), reason()));
    temp_ = tmpl;
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
        throw OutputError(fmt::format("{}: cannot open for writing: {}", path_, reason()));
    }
}

OutputFile::~OutputFile() {
    if (done_) return;
    if (f_ && f_ != stdout) std::fclose(f_);
    if (!temp_.empty()) ::unlink(temp_.c_str());  // only the temporary file this object created
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
}

bool same_file(const std::string& a, const std::string& b) {
    if (a == "-" || b == "-") return false;
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void write_stdout(const std::string& s) {
    OutputFile out("-");
    out.write(s);
    out.commit();
}

}  // namespace pmusim
