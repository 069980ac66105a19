// libFuzzer target: what `pmusim explain` parses: an instruction in the assembly syntax of the instruction set
// picked by the first byte (MRS/MSR, MRC/MCR, RISC-V CSR instructions), and core register names. Parse errors are
// reported in ParseOutcome; a crash, a sanitizer report or an exception is a bug.
#include <cstdint>
#include <string_view>

#include "isa/number.hpp"
#include "testbench/script_isa.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const pmusim::IsaKind isas[] = {pmusim::IsaKind::a64, pmusim::IsaKind::a32, pmusim::IsaKind::rv32};
    const pmusim::IsaKind isa = isas[data[0] % 3];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    (void)pmusim::parse_instruction(isa, text);
    (void)pmusim::core_register(isa, text);
    (void)pmusim::isa::parse_number(text);
    return 0;
}
