// An output file that is written whole or not at all (docs/cli.md, "Output files"): the data goes to a temporary
// file in the target's folder, renamed over the target by commit(). Without commit() (an error, an exception, an
// interrupt) the temporary file is removed and the target is left as it was. Every command that writes a file uses
// this one class, so none of them can delete a path it did not create or leave half of a file behind.
#pragma once
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmusim {

// A failed create, write, close or rename; the message names the file and the system's reason.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class OutputFile {
public:
    // `path` "-" is standard output (written directly, checked at commit). A path that names an existing device,
    // FIFO or socket is written directly too (it cannot be replaced, and is never removed). A symbolic link is
    // followed: its target is replaced, the link stays. Throws OutputError when the file cannot be created.
    enum class Kind {
        text,
        binary,
        by_name,  // another library writes the file by its name (SystemC's VCD writer): temp_path() to give it
    };
    explicit OutputFile(std::string path, Kind kind = Kind::text, const std::string& temp_suffix = "");
    OutputFile(std::string path, bool binary) : OutputFile(std::move(path), binary ? Kind::binary : Kind::text) {}
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::FILE* file() { return f_; }
    const std::string& path() const { return path_; }
    // Writes all of `s`; throws OutputError on a short write.
    void write(const std::string& s);
    // Flushes, checks every write, closes and renames into place. Throws OutputError (the target is untouched).
    void commit();
    // Kind::by_name: the name to write (the temporary file, ending in `temp_suffix`, or the target itself when it is a
    // device or FIFO).
    const std::string& write_path() const { return temp_.empty() ? path_ : temp_; }

private:
    void fail(const std::string& what);
    std::string path_;    // as the user wrote it, for messages
    std::string target_;  // what rename() replaces (a symbolic link resolved)
    std::string temp_;    // empty: writing directly
    std::FILE* f_ = nullptr;
    bool done_ = false;
    size_t slot_ = SIZE_MAX;  // the temporary file's slot for the signal handler (none: SIZE_MAX)
};

// True when both paths name the same existing file (device and inode, after links): `convert X X` must not
// truncate its input.
bool same_file(const std::string& a, const std::string& b);
// Throws OutputError when output `out` ("--vcd FILE") would replace one of `inputs` (the same path, or the same
// file by device and inode): every command checks its outputs against its inputs before it writes. "-" is never
// the same file.
void refuse_same_file(const std::string& out, const std::string& option, const std::vector<std::string>& inputs);

// Signals that end the process (SIGINT, SIGTERM, SIGHUP): while an OutputFile has a temporary file, a handler
// removes every such temporary file (only those, by the names this process created) and ends the process by the
// same signal. It is installed only over a signal's default action, and taken away when the last temporary file
// is committed or removed. A command that catches SIGINT itself (pmusim run's Ctrl-C) hands the next one to
// end_by_signal.
extern "C" void pmusim_end_by_signal(int sig);

// A whole string written to standard output as one commit (for reports built in memory).
void write_stdout(const std::string& s);

}  // namespace pmusim
