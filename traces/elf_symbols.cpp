// ELF symbol tables, as the System V gABI (Chapter 4, "ELF Header", "Sections", "Symbol Table") lays them out.
#include "traces/elf_symbols.hpp"

#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include "traces/input.hpp"

namespace pmusim::trace {

namespace {

class Image {
public:
    Image(const std::string& path) : path_(path) {
        // Read whole, so a regular file only: a folder, or a device that never ends (/dev/zero), is refused.
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw TraceError(path, 0, "is a folder, expected an ELF file");
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw TraceError(path, 0, "not a regular file: an ELF file is read whole");
        std::ifstream in(path, std::ios::binary);
        if (!in) throw TraceError(path, 0, "cannot open the ELF file");
        bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        // e_ident: magic, EI_CLASS (1 ELF32, 2 ELF64), EI_DATA (1 little-, 2 big-endian).
        if (bytes_.size() < 52 || bytes_.compare(0, 4, "\x7f" "ELF") != 0) fail(0, "not an ELF file (no \\x7fELF magic)");
        if (bytes_[4] != 1 && bytes_[4] != 2) fail(4, "unknown ELF class");
        if (bytes_[5] != 1 && bytes_[5] != 2) fail(5, "unknown ELF data encoding");
        is64_ = bytes_[4] == 2;
        big_ = bytes_[5] == 2;
    }
    bool is64() const { return is64_; }
    uint64_t u(uint64_t off, unsigned n) const {
        if (off + n > bytes_.size() || off + n < off) fail(off, "truncated");
        uint64_t v = 0;
        for (unsigned i = 0; i < n; ++i) {
            const uint64_t b = static_cast<uint8_t>(bytes_[off + i]);
            v |= big_ ? b << (8 * (n - 1 - i)) : b << (8 * i);
        }
        return v;
    }
    std::string str(uint64_t off) const {
        if (off >= bytes_.size()) fail(off, "a symbol name outside the file");
        const size_t end = bytes_.find('\0', off);
        if (end == std::string::npos) fail(off, "an unterminated symbol name");
        return bytes_.substr(off, end - off);
    }
    [[noreturn]] void fail(uint64_t off, const std::string& what) const {
        throw TraceError(path_, 0, what + " at byte " + std::to_string(off));
    }

private:
    std::string path_, bytes_;
    bool is64_ = false, big_ = false;
};

}  // namespace

std::vector<ElfSymbol> read_elf_symbols(const std::string& path) {
    const Image f(path);
    const bool w = f.is64();
    const uint64_t machine = f.u(18, 2);
    const uint64_t shoff = w ? f.u(0x28, 8) : f.u(0x20, 4);
    const uint64_t shentsize = f.u(w ? 0x3A : 0x2E, 2), shnum = f.u(w ? 0x3C : 0x30, 2);
    auto sh = [&](uint64_t i, unsigned field) {  // section header fields: 0 type, 1 offset, 2 size, 3 link, 4 entsize
        const uint64_t b = shoff + i * shentsize;
        switch (field) {
            case 0: return f.u(b + 4, 4);
            case 1: return w ? f.u(b + 0x18, 8) : f.u(b + 0x10, 4);
            case 2: return w ? f.u(b + 0x20, 8) : f.u(b + 0x14, 4);
            case 3: return f.u(b + (w ? 0x28 : 0x18), 4);
            default: return w ? f.u(b + 0x38, 8) : f.u(b + 0x24, 4);
        }
    };
    constexpr uint64_t sht_symtab = 2, sht_dynsym = 11;
    uint64_t table = shnum;
    for (uint64_t i = 0; i < shnum; ++i) {
        const uint64_t t = sh(i, 0);
        if (t == sht_symtab || (t == sht_dynsym && table == shnum)) table = i;
    }
    if (table == shnum) throw TraceError(path, 0, "the ELF file has no symbol table (was it stripped?)");
    const uint64_t off = sh(table, 1), size = sh(table, 2), ent = sh(table, 4), strtab = sh(table, 3);
    if (ent == 0 || strtab >= shnum) f.fail(shoff, "a malformed symbol table header");
    const uint64_t stroff = sh(strtab, 1);
    std::vector<ElfSymbol> out;
    for (uint64_t s = off; s + ent <= off + size; s += ent) {
        // Elf32_Sym: name, value, size, info, other, shndx; Elf64_Sym: name, info, other, shndx, value, size.
        const uint64_t name = f.u(s, 4), info = f.u(s + (w ? 4 : 12), 1);
        ElfSymbol sym;
        sym.value = w ? f.u(s + 8, 8) : f.u(s + 4, 4);
        sym.size = w ? f.u(s + 16, 8) : f.u(s + 8, 4);
        sym.function = (info & 0xF) == 2;  // STT_FUNC
        if (name == 0) continue;
        sym.name = f.str(stroff + name);
        // ELF for the Arm Architecture (AAELF32, 5.5.3): bit 0 of a Thumb function's value marks Thumb code.
        constexpr uint64_t em_arm = 40;
        if (machine == em_arm && sym.function) sym.value &= ~uint64_t{1};
        out.push_back(sym);
    }
    return out;
}

std::optional<ElfSymbol> find_symbol(const std::vector<ElfSymbol>& symbols, const std::string& name) {
    std::optional<ElfSymbol> found;
    for (const auto& s : symbols)
        if (s.name == name && (!found || (s.function && !found->function))) found = s;
    return found;
}

}  // namespace pmusim::trace
