#include "model/core/register.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>

#include "model/core/bits.hpp"
#include <fmt/format.h>

namespace pmusim {

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string to_upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

uint64_t Register::read_fields() const {
    const uint64_t w = word();
    uint64_t v = 0;
    for (const auto& f : fields) v |= f.read(w);
    return v;
}

void Register::set_masks() {
    // Field::read: stored kinds read the word, RAO/WI and RES1 read ones, every other kind reads zero.
    read_mask = read_ones = 0;
    write_rw = write_w1c = write_w1s = quiet_zero = quiet_ones = 0;
    has_warl = false;
    for (const auto& f : fields) {
        if (f.read(~uint64_t{0}) != 0) {
            if (f.read(0) == f.mask()) read_ones |= f.mask();
            else read_mask |= f.mask();
        }
        // apply_write's rules, kind by kind.
        switch (f.kind) {
            case FieldKind::rw: write_rw |= f.mask(); break;
            case FieldKind::w1c: write_w1c |= f.mask(); break;
            case FieldKind::w1s: write_w1s |= f.mask(); break;
            case FieldKind::warl: has_warl = true; break;
            case FieldKind::res1: quiet_ones |= f.mask(); break;
            case FieldKind::ro:
            case FieldKind::raz_wi:
            case FieldKind::rao_wi:
            case FieldKind::res0:
            case FieldKind::sbz:
            case FieldKind::sbzp: quiet_zero |= f.mask(); break;
            case FieldKind::wo: break;
        }
    }
    masks_set = true;
}

uint64_t Register::reset_value() const {
    uint64_t v = 0;
    for (const auto& f : fields) {
        if (f.stored()) v |= (f.reset << f.lsb) & f.mask();
    }
    return v;
}

void Register::reset() {
    if (!state) return;
    uint64_t w = word();
    for (const auto& f : fields) {
        if (f.stored()) w = deposit(w, f.lsb, f.width, f.reset);
    }
    set_word(w);
}

const Field* Register::field(std::string_view field_name) const {
    const std::string want = to_lower(field_name);
    for (const auto& f : fields)
        if (to_lower(f.name) == want) return &f;
    return nullptr;
}

bool Register::implemented() const {
    return std::any_of(fields.begin(), fields.end(), [](const Field& f) { return f.kind != FieldKind::raz_wi; });
}

namespace {

std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }

std::string field_label(const Register& r, const Field& f) {
    return f.width == 1 ? fmt::format("{}.{}[{}]", r.name, f.name, f.lsb)
                        : fmt::format("{}.{}[{}:{}]", r.name, f.name, f.msb(), f.lsb);
}

}  // namespace

void apply_write(Register& r, uint64_t value, AccessRecord& rec) {
    assert(r.state && "a writable register needs a state word");
    const uint64_t old_word = r.word();
    uint64_t new_word = old_word;
    rec.old_value = r.read();
    rec.value_written = value;
    const uint64_t v = value & bit_mask(0, r.width);
    if (!rec.detail && r.masks_set && !r.has_warl && (v & r.quiet_zero) == 0 && (v & r.quiet_ones) == r.quiet_ones) {
        // Nothing to describe and nothing to report (see Register::write_rw): the field rules by masks.
        new_word = (old_word & ~r.write_rw) | (v & r.write_rw);
        new_word = (new_word & ~(v & r.write_w1c)) | (v & r.write_w1s);
        r.set_word(new_word);
        rec.new_value = r.read();
        rec.value_read = rec.new_value;
        return;
    }
    if (rec.detail) rec.fields.reserve(rec.fields.size() + r.fields.size());
    for (const auto& f : r.fields) {
        const uint64_t w = extract(value, f.lsb, f.width);
        const uint64_t before = extract(f.read(old_word), f.lsb, f.width);
        uint64_t after = before;
        // Without detail (AccessContext::detail) the effect is worked out but not described: no FieldEffect at all.
        FieldEffect* e = rec.detail ? &rec.fields.emplace_back(FieldEffect{f.name, f.lsb, f.width, f.kind, w, before,
                                                                           before, {}, f.description, f.event_selector})
                                    : nullptr;
        switch (f.kind) {
            case FieldKind::rw:
                after = w;
                if (e) e->effect = after == before ? "unchanged" : fmt::format("{} -> {}", hex(before), hex(after));
                break;
            case FieldKind::ro:
            case FieldKind::raz_wi:
            case FieldKind::rao_wi:
                if (e) e->effect = "write ignored";
                // Writing zero to an ignored field is the usual "don't care" write: not worth a diagnostic.
                if (w != before && w != 0)
                    rec.add(Severity::info, diag::no_effect,
                            fmt::format("{} is {}: the write of {} is ignored", field_label(r, f),
                                        to_string(f.kind), hex(w)));
                break;
            case FieldKind::wo:
                if (e) e->effect = w ? "action" : "no action";
                break;
            case FieldKind::res0:
                if (e) e->effect = "reserved";
                if (w != 0)
                    rec.add(Severity::warning, diag::res_violation,
                            fmt::format("{} is RES0 but was written {}", field_label(r, f), hex(w)));
                break;
            case FieldKind::res1:
                if (e) e->effect = "reserved";
                if (w != extract(f.mask(), f.lsb, f.width))
                    rec.add(Severity::warning, diag::res_violation,
                            fmt::format("{} is RES1 but was written {}", field_label(r, f), hex(w)));
                break;
            case FieldKind::sbz:
            case FieldKind::sbzp:
                if (e) e->effect = "should be zero";
                if (w != 0)
                    rec.add(Severity::warning, diag::sbz_violation,
                            fmt::format("{} is {} but was written {}", field_label(r, f), to_string(f.kind),
                                        hex(w)));
                break;
            case FieldKind::w1c:
                after = before & ~w;
                if (e) e->effect = after != before ? "cleared" : (w ? "already clear" : "no effect");
                break;
            case FieldKind::w1s:
                after = before | w;
                if (e) e->effect = after != before ? "set" : (w ? "already set" : "no effect");
                break;
            case FieldKind::warl: {
                assert(f.legalise && "WARL field without a legaliser");
                after = f.legalise(w, before) & extract(f.mask(), f.lsb, f.width);
                if (after != w) {
                    const std::string why = f.legalise_reason ? f.legalise_reason(w) : std::string();
                    if (e) e->effect = fmt::format("legalised {} -> {}{}", hex(w), hex(after), why.empty() ? "" : ": " + why);
                    rec.add(Severity::warning, diag::warl_legalized,
                            fmt::format("{} is WARL: {} written, {} stored{}", field_label(r, f), hex(w), hex(after),
                                        why.empty() ? "" : " (" + why + ")"));
                } else if (e) {
                    e->effect = after == before ? "unchanged" : fmt::format("{} -> {}", hex(before), hex(after));
                }
                break;
            }
        }
        if (f.stored()) new_word = deposit(new_word, f.lsb, f.width, after);
        if (e) e->new_value = after;
    }
    r.set_word(new_word);
    rec.new_value = r.read();
    rec.value_read = rec.new_value;
}

void describe_read(const Register& r, uint64_t value, AccessRecord& rec) {
    rec.old_value = value;
    rec.new_value = value;
    rec.value_read = value;
    if (!rec.detail) return;
    for (const auto& f : r.fields) {
        const uint64_t v = extract(value, f.lsb, f.width);
        rec.fields.push_back(FieldEffect{f.name, f.lsb, f.width, f.kind, 0, v, v, "read", f.description, f.event_selector});
    }
}

Register& RegisterBank::add(Register r) {
    assert(r.width >= 1 && r.width <= 64);
    std::sort(r.fields.begin(), r.fields.end(), [](const Field& a, const Field& b) { return a.lsb < b.lsb; });
    // Validate: no overlap; fill gaps with RES0 so that every bit has a declared behaviour.
    std::vector<Field> full;
    unsigned next = 0;
    for (auto& f : r.fields) {
        assert(f.lsb >= next && "overlapping fields");
        assert(f.msb() < r.width && "field beyond the register width");
        if (f.lsb > next) full.push_back(make_field("RES0", f.lsb - 1, next, FieldKind::res0));
        next = f.lsb + f.width;
        full.push_back(std::move(f));
    }
    if (next < r.width) full.push_back(make_field("RES0", r.width - 1, next, FieldKind::res0));
    r.fields = std::move(full);
    r.set_masks();

    auto owned = std::make_unique<Register>(std::move(r));
    Register* p = owned.get();
    regs_.push_back(std::move(owned));
    const bool fresh = by_name_.emplace(to_lower(p->name), p).second;
    assert(fresh && "duplicate register name");
    (void)fresh;
    for (const auto& a : p->aliases) by_name_.emplace(to_lower(a), p);
    for (const auto& e : p->encodings) {
        const bool unique = by_encoding_.emplace(e, p).second;
        assert(unique && "duplicate register encoding");
        (void)unique;
    }
    for (const auto& [off, shift] : p->offsets) {
        const bool unique = by_offset_.emplace(off, Slot{p, shift}).second;
        assert(unique && "duplicate register offset");
        (void)unique;
        if (off % 4 == 0 && off < slot_table_limit) {
            if (by_slot_.size() <= off / 4) by_slot_.resize(off / 4 + 1);
            by_slot_[off / 4] = Slot{p, shift};
        }
    }
    return *p;
}

Register* RegisterBank::find(std::string_view name) {
    auto it = by_name_.find(to_lower(name));
    return it == by_name_.end() ? nullptr : it->second;
}

Register* RegisterBank::find(EncodingSpace space, uint32_t key) {
    auto it = by_encoding_.find({space, key});
    return it == by_encoding_.end() ? nullptr : it->second;
}

RegisterBank::Slot RegisterBank::find_offset_far(uint64_t offset) {
    if (offset % 4 == 0 && offset < slot_table_limit) return Slot{};  // the table holds every such offset
    auto it = by_offset_.find(offset);
    return it == by_offset_.end() ? Slot{} : it->second;
}

void RegisterBank::reset_all() {
    for (auto& r : regs_) r->reset();
}

}  // namespace pmusim
