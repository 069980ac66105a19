// Registers (lists of fields over a shared state word) and the bank that finds them by name,
// encoding or memory-mapped offset.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/core/access.hpp"
#include "model/core/bits.hpp"
#include "model/core/field.hpp"

namespace pmusim {

// Encoding spaces in which a register can be addressed by an instruction.
enum class EncodingSpace {
    a64_sysreg,  // key = op0<<14 | op1<<11 | CRn<<7 | CRm<<3 | op2
    cp15,        // key = opc1<<11 | CRn<<7 | CRm<<3 | opc2 (MRC/MCR p15)
    csr,         // key = RISC-V CSR number
};

constexpr uint32_t a64_key(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
    return (op0 << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2;
}
constexpr uint32_t cp15_key(unsigned opc1, unsigned crn, unsigned crm, unsigned opc2) {
    return (opc1 << 11) | (crn << 7) | (crm << 3) | opc2;
}

struct Register {
    std::string name;
    unsigned width = 32;
    std::vector<Field> fields;  // sorted by lsb, covering [width-1:0] once finalised
    uint64_t* state = nullptr;  // shared state word: set/clear pairs point at the same word
    unsigned state_shift = 0;   // the register views the word from this bit up (RV32 high halves: 32)
    bool readable = true;       // register-level: a read of a write-only register is UNDEFINED
    bool writable = true;       // register-level: a write of a read-only register is UNDEFINED
    bool undefined = false;     // every instruction access is UNDEFINED (a counter n >= N, by the platform's choice)
    std::string description;
    std::string source;          // document and section the register's rules come from
    std::vector<std::string> aliases;
    std::vector<std::pair<EncodingSpace, uint32_t>> encodings;
    // Memory-mapped (external) view: 32-bit slots as (byte offset, bit shift into the register); a 64-bit
    // register has two slots, its low half at shift 0 and its high half at shift 32.
    std::vector<std::pair<uint64_t, unsigned>> offsets;
    int index = -1;                  // family member index (counter n), -1 for none
    unsigned role = 0;               // model-specific role id, for dispatch in the model
    // The fields as masks, set when the bank adds the register (fields must not change after that), so that
    // read() and a write without per-field detail need no walk over the fields; a register outside a bank walks
    // them (read_fields, apply_write). Read view: the bits a read takes from the state word, and the bits that
    // read as one (RAO/WI, RES1).
    uint64_t read_mask = 0;
    uint64_t read_ones = 0;
    // Write view: the bits a write stores (RW), clears where written 1 (W1C), sets where written 1 (W1S); the bits
    // that are silent only when written 0 (RES0, SBZ, SBZP; RO, RAZ/WI and RAO/WI, which report a non-zero write
    // that differs from what they read) and those silent only when written 1 (RES1); and whether any field is WARL
    // (its legaliser decides). A write that sets no quiet_zero bit and every quiet_ones bit, to a register without
    // WARL fields, stores by the masks and reports nothing, exactly as the walk would.
    uint64_t write_rw = 0;
    uint64_t write_w1c = 0;
    uint64_t write_w1s = 0;
    uint64_t quiet_zero = 0;
    uint64_t quiet_ones = 0;
    bool has_warl = false;
    bool masks_set = false;

    uint64_t word() const {  // the part of the state word this register views
        return state ? (*state >> state_shift) & bit_mask(0, width) : 0;
    }
    void set_word(uint64_t v) {  // store into that part, leaving the rest of the state word alone
        const uint64_t m = bit_mask(0, width) << state_shift;
        *state = (*state & ~m) | ((v << state_shift) & m);
    }
    uint64_t read() const {  // value a read returns (fields applied to the state word)
        return masks_set ? (word() & read_mask) | read_ones : read_fields();
    }
    uint64_t read_fields() const;  // the same, field by field (Field::read), whatever the masks say
    void set_masks();              // works out the masks from the fields
    uint64_t reset_value() const;  // the value the stored fields hold after reset
    void reset();                  // store the reset value of every stored field
    const Field* field(std::string_view field_name) const;
    bool implemented() const;  // false when every field is RAZ/WI (a counter n >= N, a hardwired-zero CSR)
};

// Applies the field semantics of a write of `value` to `r`, filling the record's field effects and
// diagnostics. Model-specific actions (write-only bits, indirection) are the caller's.
void apply_write(Register& r, uint64_t value, AccessRecord& rec);
// Fills the record's field effects for a read (no state changes: reads have no side effects).
void describe_read(const Register& r, uint64_t value, AccessRecord& rec);

// Owns registers and finds them. Validates field layouts when a register is added (overlaps are model
// bugs and assert); gaps are filled with RES0 fields.
class RegisterBank {
public:
    Register& add(Register r);
    Register* find(std::string_view name);  // case-insensitive, names and aliases
    Register* find(EncodingSpace space, uint32_t key);
    struct Slot {
        Register* reg = nullptr;
        unsigned shift = 0;
    };
    Slot find_offset(uint64_t offset) {
        // The memory-mapped views are aligned 32-bit slots within a few KiB: a table indexed by offset / 4.
        if (offset % 4 == 0 && offset / 4 < by_slot_.size()) return by_slot_[offset / 4];
        return find_offset_far(offset);
    }
    const std::vector<std::unique_ptr<Register>>& all() const { return regs_; }
    void reset_all();

private:
    std::vector<std::unique_ptr<Register>> regs_;
    std::map<std::string, Register*, std::less<>> by_name_;
    std::map<std::pair<EncodingSpace, uint32_t>, Register*> by_encoding_;
    std::map<uint64_t, Slot> by_offset_;  // every offset (the table's and any other)
    std::vector<Slot> by_slot_;          // aligned offsets below slot_table_limit, by offset / 4
    static constexpr uint64_t slot_table_limit = 0x10000;
    Slot find_offset_far(uint64_t offset);
};

std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);

}  // namespace pmusim
