// The text readers' scanners (traces/reader.hpp scan::, eight characters at a time), the record queue, and the
// line splitter's edges: long lines, CRLF, tabs, lines across the read buffer's end, a last line without newline.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "isa/rv32.hpp"
#include "trace_test_util.hpp"
#include "traces/reader.hpp"
#include "traces/record_queue.hpp"

using namespace pmusim;
using trace::scan::dec;
using trace::scan::hex;

namespace {

// The definitions the scanners must agree with: white space as the C locale's isspace() has it.
bool c_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view reference_trim(std::string_view s) {
    while (!s.empty() && c_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && c_space(s.back())) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> reference_words(std::string_view s) {
    std::vector<std::string_view> w;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && c_space(s[i])) ++i;
        const size_t b = i;
        while (i < s.size() && !c_space(s[i])) ++i;
        if (i > b) w.push_back(s.substr(b, i - b));
    }
    return w;
}

// Every case: the same text at each offset of a larger buffer, so that the eight-byte steps meet every alignment
// and every position of a run's end within a step.
void check_scanners(const std::string& text) {
    for (size_t off = 0; off < 8; ++off) {
        const std::string buf = std::string(off, 'x') + text + std::string(8, 'y');
        const std::string_view s(buf.data() + off, text.size());
        const std::string_view t = trace::scan::trim(s);
        const std::string_view rt = reference_trim(s);
        ASSERT_EQ(t.data(), rt.data()) << "trim of '" << text << "' at offset " << off;
        ASSERT_EQ(t.size(), rt.size()) << "trim of '" << text << "' at offset " << off;
        std::vector<std::string_view> got;
        std::string_view rest = s;
        for (std::string_view w = trace::scan::word(rest); !w.empty(); w = trace::scan::word(rest)) got.push_back(w);
        const auto want = reference_words(s);
        ASSERT_EQ(got.size(), want.size()) << "words of '" << text << "' at offset " << off;
        for (size_t k = 0; k < got.size(); ++k) {
            EXPECT_EQ(got[k].data(), want[k].data()) << "word " << k << " of '" << text << "'";
            EXPECT_EQ(got[k].size(), want[k].size()) << "word " << k << " of '" << text << "'";
        }
    }
}

}  // namespace

TEST(Scan, TrimAndWordsAsTheCLocaleHasWhiteSpace) {
    // Runs of each white-space character and of other control characters (0x01, 0x1F, 0x7F are not white
    // space: they belong to words), bytes above 0x7F, NUL, around and inside words, short and longer than 8.
    const std::vector<std::string> cases = {
        "", " ", "a", "        ", "                 x", "x                 ", "  ab  cd\tef\v\fgh\r\n",
        "\t\t\t\t\t\t\t\t\t\tword\t\t\t\t\t\t\t\t\t", "a\x01" "b c\x1f" "d \x7f" "e", "\x80\xff \xa0\x85",
        std::string("a\0b c", 5), "    10 :       #1 0 80000000 00150513  a0=00000000                ; addi",
        "abcdefghijklmnopqrstuvwxyz0123456789", " \v\f\r\t\n \v\f\r\t\n ", "x \t\v\f\r\ny", "\x21\x20\x21",
    };
    for (const auto& c : cases) check_scanners(c);
    // Every string of up to 5 characters over an alphabet with one of each kind, at every alignment.
    const std::string alphabet = std::string(" \t\r\x01" "a\x80", 6);
    std::string s;
    for (size_t len = 0; len <= 5; ++len) {
        size_t combos = 1;
        for (size_t i = 0; i < len; ++i) combos *= alphabet.size();
        for (size_t n = 0; n < combos; ++n) {
            s.clear();
            for (size_t i = 0, m = n; i < len; ++i, m /= alphabet.size()) s += alphabet[m % alphabet.size()];
            // Padded to cross eight-byte steps: the short pattern inside runs of 9 spaces and of 9 letters.
            check_scanners(s);
            check_scanners("         " + s + "         ");
            check_scanners("zzzzzzzzz" + s + "zzzzzzzzz");
        }
    }
}

TEST(Scan, WordLeavesWhatFollows) {
    std::string_view s = "  pc=0x10   enc=0x13  ";
    EXPECT_EQ(trace::scan::word(s), "pc=0x10");
    EXPECT_EQ(s, "   enc=0x13  ");
    EXPECT_EQ(trace::scan::word(s), "enc=0x13");
    EXPECT_EQ(trace::scan::word(s), "");
    EXPECT_TRUE(s.empty());
}

TEST(Scan, HexAcceptsOneToSixteenDigitsAfterAnOptionalPrefix) {
    uint64_t v = 7;
    EXPECT_TRUE(hex("0x1F", v));
    EXPECT_EQ(v, 31u);
    EXPECT_TRUE(hex("0XaB", v));
    EXPECT_EQ(v, 0xABu);
    EXPECT_TRUE(hex("80000000", v));
    EXPECT_EQ(v, 0x80000000u);
    EXPECT_TRUE(hex("ffffffffffffffff", v));
    EXPECT_EQ(v, UINT64_MAX);
    EXPECT_TRUE(hex("0x0123456789abcdef", v));
    EXPECT_EQ(v, 0x0123456789ABCDEFu);
    EXPECT_TRUE(hex("0", v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(hex("0x0", v));
    EXPECT_EQ(v, 0u);
    v = 7;
    // "0x" alone is not a number; 17 digits do not fit; signs, spaces and other letters are not digits.
    for (const char* bad : {"", "0x", "0X", "x1", "1ffffffffffffffff", "0x1ffffffffffffffff", "12g", "-1", "+1", " 1",
                            "1 ", "0x-1", "0xx1", "@", "`", "G", "/", ":"})
        EXPECT_FALSE(hex(bad, v)) << bad;
    EXPECT_EQ(v, 7u);  // untouched by a failure
}

// The digits are read eight at a time (scan::detail::hex8): every byte value at every position of every length,
// against a digit-by-digit reading, with the text at each alignment.
TEST(Scan, HexEightAtATimeAgreesWithDigitByDigit) {
    const auto reference = [](std::string_view s, uint64_t& v) {
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
        if (s.empty() || s.size() > 16) return false;
        uint64_t x = 0;
        for (const char c : s) {
            unsigned d;
            if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
            else return false;
            x = x * 16 + d;
        }
        v = x;
        return true;
    };
    const std::string digits = "0123456789abcdefABCDEF";
    unsigned checked = 0;
    for (size_t len = 1; len <= 16; ++len)
        for (size_t pos = 0; pos < len; ++pos)
            for (unsigned c = 0; c < 256; ++c) {
                std::string text;
                for (size_t i = 0; i < len; ++i) text += digits[(i * 7 + len) % digits.size()];
                text[pos] = static_cast<char>(c);
                const size_t off = (len + pos + c) % 8;
                const std::string buf = std::string(off, '7') + text + "9999";
                const std::string_view s(buf.data() + off, len);
                uint64_t got = 1, want = 1;
                const bool ok = hex(s, got), want_ok = reference(s, want);
                ASSERT_EQ(ok, want_ok) << "'" << text << "'";
                if (ok) {
                    ASSERT_EQ(got, want) << "'" << text << "'";
                }
                ++checked;
            }
    EXPECT_EQ(checked, 136u * 256u);
    uint64_t v = 0;
    EXPECT_TRUE(hex("DeadBeef", v));  // both cases in one group of eight
    EXPECT_EQ(v, 0xDEADBEEFu);
    EXPECT_TRUE(hex("0x123456789ABCDEF", v));  // seven digits, then eight
    EXPECT_EQ(v, 0x123456789ABCDEFu);
    EXPECT_FALSE(hex("8000000\x80", v));  // a byte above 0x7F in the last place of a group
}

// An eight-character "%8d" field read at once (scan::detail::right_dec8, the VeeR exec.log's columns): spaces then
// one to eight digits, every byte value at every position of every such field, against a character-by-character
// reading; and the byte tests beside it.
TEST(Scan, RightAlignedDecimalFieldsEightAtATime) {
    const auto reference = [](const std::string& f, uint64_t& v) {
        size_t i = 0;
        while (i < f.size() && f[i] == ' ') ++i;
        if (i == f.size()) return false;
        uint64_t x = 0;
        for (; i < f.size(); ++i) {
            if (f[i] < '0' || f[i] > '9') return false;
            x = x * 10 + static_cast<uint64_t>(f[i] - '0');
        }
        v = x;
        return true;
    };
    unsigned checked = 0;
    for (unsigned lead = 0; lead <= 8; ++lead)
        for (unsigned pos = 0; pos < 8; ++pos)
            for (unsigned c = 0; c < 256; ++c) {
                std::string f(lead, ' ');
                for (unsigned i = lead; i < 8; ++i) f += static_cast<char>('0' + (i * 7 + lead) % 10);
                f[pos] = static_cast<char>(c);
                uint64_t got = 1, want = 1;
                const bool ok = trace::scan::detail::right_dec8(trace::scan::detail::load8(f.data()), got);
                ASSERT_EQ(ok, reference(f, want)) << "'" << f << "'";
                if (ok) {
                    ASSERT_EQ(got, want) << "'" << f << "'";
                }
                const uint64_t x = trace::scan::detail::load8(f.data());
                uint64_t eq = 0;
                for (unsigned i = 0; i < 8; ++i)
                    if (f[i] == ';') eq |= uint64_t{0x80} << (8 * i);
                ASSERT_EQ(trace::scan::detail::bytes_equal(x, ';'), eq) << "'" << f << "'";
                ASSERT_EQ(trace::scan::detail::has_byte(x, ';'), eq != 0) << "'" << f << "'";
                ++checked;
            }
    EXPECT_EQ(checked, 9u * 8u * 256u);
    uint64_t v = 0;
    EXPECT_TRUE(trace::scan::detail::right_dec8(trace::scan::detail::load8("99999999"), v));
    EXPECT_EQ(v, 99999999u);
    EXPECT_TRUE(trace::scan::detail::right_dec8(trace::scan::detail::load8("       0"), v));
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(trace::scan::detail::right_dec8(trace::scan::detail::load8("  12 345"), v));  // a space inside
    EXPECT_FALSE(trace::scan::detail::right_dec8(trace::scan::detail::load8("\t    123"), v));  // not a space
}

TEST(Scan, DecAcceptsDigitsWithinSixtyFourBits) {
    uint64_t v = 7;
    EXPECT_TRUE(dec("0", v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(dec("00012", v));
    EXPECT_EQ(v, 12u);
    EXPECT_TRUE(dec("18446744073709551615", v));
    EXPECT_EQ(v, UINT64_MAX);
    EXPECT_TRUE(dec("1844674407370955161", v));
    EXPECT_EQ(v, 1844674407370955161u);
    v = 7;
    for (const char* bad : {"", "18446744073709551616", "18446744073709551620", "99999999999999999999", "-1", "+1",
                            "1 ", " 1", "0x10", "1a", "/", ":"})
        EXPECT_FALSE(dec(bad, v)) << bad;
    EXPECT_EQ(v, 7u);
}

TEST(RingQueue, FirstInFirstOutThroughGrowthAndWrapAround) {
    trace::RingQueue<int> q;
    EXPECT_TRUE(q.empty());
    int next_in = 0, next_out = 0;
    // Uneven pushes and pops: the ring wraps and grows (16, 32, 64) with elements across its end.
    for (int round = 0; round < 40; ++round) {
        for (int k = 0; k < round % 7 + 2; ++k) q.push_back(next_in++);
        for (int k = 0; k < round % 5 + 1 && !q.empty(); ++k) {
            ASSERT_EQ(q.front(), next_out++);
            q.pop_front();
        }
        ASSERT_EQ(q.size(), static_cast<size_t>(next_in - next_out));
        for (size_t i = 0; i < q.size(); ++i) ASSERT_EQ(q[i], next_out + static_cast<int>(i));
        if (!q.empty()) {
            ASSERT_EQ(q.back(), next_in - 1);
        }
    }
    q.emplace_back() = -1;
    EXPECT_EQ(q.back(), -1);
    q.pop_back();
    EXPECT_EQ(q.back(), next_in - 1);
    q.clear();
    EXPECT_TRUE(q.empty());
}

TEST(Rv32, GprByName) {
    // RISC-V psABI register names, and x0-x31 (RISC-V unprivileged spec 2.1).
    EXPECT_EQ(isa::rv32::gpr_by_name("zero"), 0u);
    EXPECT_EQ(isa::rv32::gpr_by_name("ra"), 1u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s0"), 8u);
    EXPECT_EQ(isa::rv32::gpr_by_name("fp"), 8u);
    EXPECT_EQ(isa::rv32::gpr_by_name("a0"), 10u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s2"), 18u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s11"), 27u);
    EXPECT_EQ(isa::rv32::gpr_by_name("t6"), 31u);
    EXPECT_EQ(isa::rv32::gpr_by_name("x0"), 0u);
    EXPECT_EQ(isa::rv32::gpr_by_name("x31"), 31u);
    EXPECT_EQ(isa::rv32::gpr_by_name("x9"), 9u);
    EXPECT_EQ(isa::rv32::gpr_by_name("x10"), 10u);
    EXPECT_EQ(isa::rv32::gpr_by_name("sp"), 2u);
    EXPECT_EQ(isa::rv32::gpr_by_name("gp"), 3u);
    EXPECT_EQ(isa::rv32::gpr_by_name("tp"), 4u);
    EXPECT_EQ(isa::rv32::gpr_by_name("t0"), 5u);
    EXPECT_EQ(isa::rv32::gpr_by_name("t2"), 7u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s1"), 9u);
    EXPECT_EQ(isa::rv32::gpr_by_name("a7"), 17u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s9"), 25u);
    EXPECT_EQ(isa::rv32::gpr_by_name("s10"), 26u);
    EXPECT_EQ(isa::rv32::gpr_by_name("t3"), 28u);
    for (const char* bad : {"", "z", "zer", "zeros", "s12", "a8", "t7", "x32", "x05", "x00", "x", "X1", "sp ", "t", "xa", "x1a", "s1 "})
        EXPECT_FALSE(isa::rv32::gpr_by_name(bad).has_value()) << bad;
}

// The line splitter under the readers, through the native text form: a record is the same whatever ends its
// line and wherever the line falls in the read buffer (LineReader::buffer_size).
// scan::find, detail::find_char and detail::skip_word_until read eight characters at a time: every position of the
// character looked for and of a white-space or control character, at every alignment, against a loop.
TEST(Scan, FindAndWordEndsEightAtATime) {
    const std::string specials = std::string(" \t\n\v\f\r,:=\x01\x1f\x7f\x80\xff", 15);
    unsigned checked = 0;
    for (size_t len = 0; len <= 20; ++len)
        for (size_t pos = 0; pos <= len; ++pos)
            for (const char c : specials)
                for (size_t off = 0; off < 8; ++off) {
                    std::string text(len, 'a');
                    for (size_t i = 0; i < len; ++i) text[i] = static_cast<char>('a' + (i * 5 + len) % 26);
                    if (pos < len) text[pos] = c;
                    const std::string buf = std::string(off, ',') + text + ", :";
                    const char* b = buf.data() + off;
                    const char* e = b + len;
                    const char* want_find = b;
                    while (want_find < e && *want_find != ',') ++want_find;
                    const char* want_word = b;
                    while (want_word < e && *want_word != ':' && !c_space(*want_word)) ++want_word;
                    ASSERT_EQ(trace::scan::detail::find_char(b, e, ','), want_find) << len << " " << pos << " " << int(c);
                    ASSERT_EQ(trace::scan::detail::skip_word_until(b, e, ':'), want_word) << len << " " << pos << " " << int(c);
                    const size_t want_i = want_find == e ? std::string_view::npos : static_cast<size_t>(want_find - b);
                    ASSERT_EQ(trace::scan::find(std::string_view(b, len), ','), want_i);
                    ++checked;
                }
    EXPECT_EQ(checked, 231u * 15u * 8u);  // 1 + 2 + ... + 21 lengths and positions, 15 characters, 8 alignments
}

// scan::hex_run reads the digits in place, where the word's end is not known first: its value is scan::hex's on the
// digits, and it stops at the first character that is not one.
TEST(Scan, HexRunReadsTheDigitsInPlace) {
    struct Case {
        const char* text;
        bool ok;
        uint64_t value;
        size_t used;  // characters passed
    };
    const Case cases[] = {
        {"80000000,", true, 0x80000000u, 8},   // eight digits at once
        {"97 size=4", true, 0x97u, 2},          // fewer than eight before a space
        {"123456789abcdefA:", true, 0x123456789ABCDEFAu, 16},
        {"DeadBeef", true, 0xDEADBEEFu, 8},     // the end of the text after eight
        {"0", true, 0, 1},
        {"x1", false, 0, 0},                    // no digit
        {"", false, 0, 0},
        {"1ffffffffffffffff", false, 0, 17},    // seventeen digits do not fit
    };
    for (const Case& c : cases) {
        const std::string buf = std::string(c.text) + "zzzzzzzz";
        const char* p = buf.data();
        const char* e = p + std::strlen(c.text);
        uint64_t v = 0;
        EXPECT_EQ(trace::scan::hex_run(p, e, v), c.ok) << c.text;
        EXPECT_EQ(static_cast<size_t>(p - buf.data()), c.used) << c.text;
        if (c.ok) {
            EXPECT_EQ(v, c.value) << c.text;
        }
    }
}

TEST(TextLines, CrlfTabsLongLinesAndTheBufferEnd) {
    constexpr size_t buffer = trace::LineReader::buffer_size;
    const std::string rec1 = "pc=0x80000000 enc=0x00150513 size=4 isa=rv32 priv=3 gpr=10:0x1";
    const std::string rec2 = "\tpc=0x80000004\tenc=0x00a00593 size=4 isa=rv32 priv=3\tgpr=11:0xa\t";
    std::string text = "# pmusim trace 1\r\n" + rec1 + "\r\n";
    // A comment line longer than the buffer, which grows for it.
    text += "#" + std::string(buffer + 1000, 'c') + "\n";
    // Filler records up to a record that straddles the end of the grown buffer (twice the size).
    unsigned fillers = 0;
    while (text.size() < 2 * buffer + 20) {
        text += rec1 + "\n";
        ++fillers;
    }
    text += rec2 + "\r\n";
    text += "   \t\r\n";  // blank
    const auto recs = testutil::read_all(testutil::temp_file("scan_lines.txt", text), "native-text");
    ASSERT_EQ(recs.size(), 2u + fillers);
    EXPECT_EQ(recs[0].pc, 0x80000000u);
    EXPECT_EQ(recs[0].line, 2u);
    EXPECT_EQ(recs[0].regs[0].value, 1u);
    const auto& last = recs.back();
    EXPECT_EQ(last.pc, 0x80000004u);
    EXPECT_EQ(last.encoding, 0x00a00593u);
    EXPECT_EQ(last.line, 4u + fillers);  // header, rec1, the comment, the fillers, then it
    ASSERT_EQ(last.n_regs, 1u);
    EXPECT_EQ(last.regs[0].index, 11u);
    EXPECT_EQ(last.regs[0].value, 0xAu);
    // Every record between, wherever its line fell.
    for (unsigned k = 1; k <= fillers; ++k) {
        ASSERT_EQ(recs[k].pc, 0x80000000u) << k;
        ASSERT_EQ(recs[k].line, 3u + k) << k;
    }
}

TEST(TextLines, LastLineWithoutNewline) {
    const std::string good = "# pmusim trace 1\npc=0x10 enc=0x13 size=4 isa=rv32 priv=3\n";
    // Blank remains after the last newline are no record.
    EXPECT_EQ(testutil::read_all(testutil::temp_file("scan_tail1.txt", good + "  \t"), "native-text").size(), 1u);
    // A record cut before its newline is an error naming the line.
    try {
        testutil::read_all(testutil::temp_file("scan_tail2.txt", good + "pc=0x14 enc=0x13 size=4 isa=rv32 priv=3"),
                           "native-text");
        FAIL() << "a cut last line was read";
    } catch (const trace::TraceError& e) {
        EXPECT_EQ(e.line(), 3u);
        EXPECT_NE(std::string(e.what()).find("the file ends in the middle of this line"), std::string::npos) << e.what();
    }
}

TEST(TextLines, SpikeLineWithTabsAndCrlf) {
    // Spike --log-commits: "core   0: 3 0x<pc> (0x<insn>) x<n> 0x<v> mem 0x<addr> 0x<data>" (FORMATS.md §2).
    const std::string text = "core   0: 3 0x80000000 (0x00150513) x10 0x00000001\r\n"
                             "core\t0:\t3\t0x80000004\t(0x00a52023)\tmem\t0x80001000\t0x00000001\t\r\n";
    const auto recs = testutil::read_all(testutil::temp_file("scan_spike.log", text), "spike");
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(recs[0].regs[0].index, 10u);
    EXPECT_EQ(recs[0].regs[0].value, 1u);
    EXPECT_EQ(recs[1].pc, 0x80000004u);
    EXPECT_EQ(recs[1].encoding, 0x00a52023u);
    ASSERT_EQ(recs[1].n_mem, 1u);
    EXPECT_EQ(recs[1].mem[0].addr, 0x80001000u);
    EXPECT_TRUE(recs[1].mem[0].is_write);
    EXPECT_EQ(recs[1].mem[0].data, 1u);
    EXPECT_EQ(recs[1].mem[0].size, 4u);  // 8 hex digits of data
}

TEST(TextLines, QemuExeclogAccessesWithAndWithoutDevice) {
    // "<vcpu>, 0x<pc>, 0x<opcode>, "<disassembly>"{, load|store, 0x<addr>[, <device>]}" (FORMATS.md §3a).
    const std::string text = "0, 0x40080000, 0xa9bf7bfd, \"stp x29, x30, [sp, #-0x10]!\", store, 0x4009fff0, RAM, store, 0x4009fff8\n"
                             "0, 0x40080004, 0xf9400020, \"ldr x0, [x1]\", load, 0x09000000, pl011\r\n";
    trace::ReaderOptions o;
    o.isa = trace::IsaState::a64;
    const auto recs = testutil::read_all(testutil::temp_file("scan_execlog.log", text), "qemu-execlog", o);
    ASSERT_EQ(recs.size(), 2u);
    ASSERT_EQ(recs[0].n_mem, 2u);
    EXPECT_EQ(recs[0].mem[0].addr, 0x4009FFF0u);
    EXPECT_TRUE(recs[0].mem[0].is_write);
    EXPECT_EQ(recs[0].mem[1].addr, 0x4009FFF8u);
    ASSERT_EQ(recs[1].n_mem, 1u);
    EXPECT_EQ(recs[1].mem[0].addr, 0x09000000u);
    EXPECT_FALSE(recs[1].mem[0].is_write);
    // An access without its address is an error naming the line.
    try {
        testutil::read_all(testutil::temp_file("scan_execlog_bad.log", "0, 0x40080000, 0xf9400020, \"ldr x0, [x1]\", load\n"),
                           "qemu-execlog", o);
        FAIL() << "an access without an address was read";
    } catch (const trace::TraceError& e) {
        EXPECT_EQ(e.line(), 1u);
    }
}

// The native text reader takes the writer's spelling in one pass and any other spelling word by word
// (docs/trace-formats.md "The native format"): both give the same record, and a bad word the same error.
TEST(TextLines, NativeTextAnySpellingGivesTheSameRecord) {
    const std::string writer = "pc=0x80000004 enc=0x182a283 size=4 isa=rv32 priv=3 time=17 irq=7 "
                               "mem=r:4:0x1018 mem=w:1:0xd0580000:0xff wb=0xb:0x5 gpr=0x5:0x80000094 csr=0xb02:0x0\n";
    const std::string by_hand = "  pc=80000004\tenc=0X0182A283 size=4 isa=rv32 priv=3 time=17 irq=7 "
                                "mem=r:4:1018 mem=w:1:0XD0580000:ff wb=11:0x5 gpr=5:80000094 csr=0xB02:0   \n";
    for (const std::string& line : {writer, by_hand}) {
        const auto recs = testutil::read_all(testutil::temp_file("scan_nt.txt", "# pmusim trace 1\n" + line), "native-text");
        ASSERT_EQ(recs.size(), 1u) << line;
        const auto& r = recs[0];
        EXPECT_EQ(r.pc, 0x80000004u);
        EXPECT_EQ(r.encoding, 0x0182A283u);  // lw t0, 24(t0)
        EXPECT_EQ(r.size, 4u);
        EXPECT_EQ(r.isa, trace::IsaState::rv32);
        EXPECT_EQ(r.privilege, 3u);
        EXPECT_TRUE(r.has_time);
        EXPECT_EQ(r.time, 17u);
        EXPECT_TRUE(r.interrupt);
        EXPECT_EQ(r.cause, 7u);  // machine timer
        ASSERT_EQ(r.n_mem, 2u);
        EXPECT_EQ(r.mem[0].addr, 0x1018u);
        EXPECT_FALSE(r.mem[0].is_write);
        EXPECT_FALSE(r.mem[0].data_known);
        EXPECT_EQ(r.mem[0].size, 4u);
        EXPECT_EQ(r.mem[1].addr, 0xD0580000u);  // the testbench's mailbox
        EXPECT_TRUE(r.mem[1].is_write);
        EXPECT_TRUE(r.mem[1].data_known);
        EXPECT_EQ(r.mem[1].data, 0xFFu);
        ASSERT_EQ(r.n_regs, 3u);
        EXPECT_EQ(r.regs[0].index, 11u);
        EXPECT_TRUE(r.regs[0].before);
        EXPECT_EQ(r.regs[1].kind, trace::RegKind::gpr);
        EXPECT_EQ(r.regs[1].index, 5u);
        EXPECT_EQ(r.regs[1].value, 0x80000094u);
        EXPECT_EQ(r.regs[2].kind, trace::RegKind::csr);
        EXPECT_EQ(r.regs[2].index, 0xB02u);  // minstret
    }
    // A word out of form is an error naming it, wherever the line was read from.
    for (const char* bad : {"pc=0x10 enc=0x13 size=4 isa=rv32 priv=3 gpr=0x5:0x1:0x2\n",
                            "pc=0x10 enc=0x13 size=4 isa=rv32 priv=3 gpr=5:0x1:0x2\n"}) {
        try {
            testutil::read_all(testutil::temp_file("scan_nt_bad.txt", std::string("# pmusim trace 1\n") + bad), "native-text");
            FAIL() << bad;
        } catch (const trace::TraceError& e) {
            EXPECT_EQ(e.line(), 2u);
            EXPECT_NE(std::string(e.what()).find("bad word 'gpr="), std::string::npos) << e.what();
        }
    }
}

// The QEMU execlog reader reads the head's three fields in place: spaces and tabs around them, more fields before
// the disassembly (ignored), quotes and commas inside the disassembly.
TEST(TextLines, QemuExeclogFieldsWithAnySpacing) {
    const std::string text = "0, 0x40080000, 0x58000340, \"ldr x0, #0x40080068\", load, 0x40080068, RAM\n"
                             " 0 ,\t0x40080000 ,0x58000340,\"ldr x0, #0x40080068\" ,load,0x40080068 , RAM \n"
                             "0, 40080000, 58000340, extra, \"say \"hi\", x0\", load, 40080068\n";
    trace::ReaderOptions o;
    o.isa = trace::IsaState::a64;
    const auto recs = testutil::read_all(testutil::temp_file("scan_execlog2.log", text), "qemu-execlog", o);
    ASSERT_EQ(recs.size(), 3u);
    for (const auto& r : recs) {
        EXPECT_EQ(r.pc, 0x40080000u);
        EXPECT_EQ(r.encoding, 0x58000340u);  // ldr x0, literal
        ASSERT_EQ(r.n_mem, 1u);
        EXPECT_EQ(r.mem[0].addr, 0x40080068u);
        EXPECT_FALSE(r.mem[0].is_write);
    }
    // Two words in a field, or an opcode wider than 32 bits, is an error naming the line.
    for (const char* bad : {"0, 0x4008 0000, 0x58000340, \"ldr\"\n", "0, 0x40080000, 0x158000340, \"ldr\"\n"}) {
        try {
            testutil::read_all(testutil::temp_file("scan_execlog3.log", bad), "qemu-execlog", o);
            FAIL() << bad;
        } catch (const trace::TraceError& e) {
            EXPECT_EQ(e.line(), 1u);
            EXPECT_NE(std::string(e.what()).find("expected '<vcpu>, 0x<pc>"), std::string::npos) << e.what();
        }
    }
}
