// Symbols of an ELF executable (pmusim run --elf): names, addresses and sizes from its symbol table, for
// --roi SYMBOL. A small reader of our own (ELF32/ELF64, little- or big-endian); no libelf.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmusim::trace {

struct ElfSymbol {
    std::string name;
    uint64_t value = 0;  // the address (Thumb bit cleared)
    uint64_t size = 0;
    bool function = false;
};

// Reads the symbol table (.symtab, else .dynsym). Throws TraceError naming the file and what is wrong.
std::vector<ElfSymbol> read_elf_symbols(const std::string& path);
// The symbol by exact name, a function or object preferred to other kinds.
std::optional<ElfSymbol> find_symbol(const std::vector<ElfSymbol>& symbols, const std::string& name);

}  // namespace pmusim::trace
