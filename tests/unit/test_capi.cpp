// The C API's argument and message rules (capi/pmusim_c.h; issue 42): a NULL register name is an argument error,
// pmusim_last_message() is about the last call only, and a message echoes at most 400 characters of user input.
// Its own binary: it links the shared library as a C program would, not the static libraries.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "capi/pmusim_c.h"

namespace {

struct Pmu {
    pmusim_pmu* p = pmusim_create("cortex-a53", nullptr);
    ~Pmu() { pmusim_destroy(p); }
};

TEST(CApi, NullRegisterNameIsAnArgumentError) {
    Pmu h;
    ASSERT_NE(h.p, nullptr);
    uint64_t v = 7;
    EXPECT_EQ(pmusim_read(h.p, nullptr, 1, &v), PMUSIM_E_ARGUMENT);
    EXPECT_STREQ(pmusim_last_message(h.p), "the register name is NULL");
    EXPECT_EQ(v, 7u);
    EXPECT_EQ(pmusim_write(h.p, nullptr, 1, 0), PMUSIM_E_ARGUMENT);
    // A name that is no register is still NOT_FOUND.
    EXPECT_EQ(pmusim_read(h.p, "PMFOO", 1, &v), PMUSIM_E_NOT_FOUND);
}

TEST(CApi, LastMessageIsTheLastCalls) {
    Pmu h;
    uint64_t v = 0;
    EXPECT_EQ(pmusim_read(h.p, "PMFOO", 1, &v), PMUSIM_E_NOT_FOUND);
    EXPECT_STRNE(pmusim_last_message(h.p), "");
    // PMCR_EL0 at EL1 reads without a diagnostic (armv8-pmuv3.md: PMUSERENR does not apply at EL1).
    EXPECT_EQ(pmusim_read(h.p, "PMCR_EL0", 1, &v), PMUSIM_OK);
    EXPECT_STREQ(pmusim_last_message(h.p), "");
    EXPECT_EQ(pmusim_read_encoding(h.p, 9, 0, 1, &v), PMUSIM_E_ARGUMENT);
    EXPECT_STREQ(pmusim_last_message(h.p), "encoding space 9 is not 0, 1 or 2");
    EXPECT_EQ(pmusim_set_secure(h.p, 0), PMUSIM_OK);
    EXPECT_STREQ(pmusim_last_message(h.p), "");
}

TEST(CApi, MessagesCutHugeInputs) {
    Pmu h;
    const std::string huge(100000, 'R');
    uint64_t v = 0;
    EXPECT_EQ(pmusim_read(h.p, huge.c_str(), 1, &v), PMUSIM_E_NOT_FOUND);
    const std::string m = pmusim_last_message(h.p);
    EXPECT_LT(m.size(), 600u) << m.size();
    EXPECT_NE(m.find("... (99600 more bytes)"), std::string::npos) << m.substr(0, 600);
    EXPECT_EQ(pmusim_create(huge.c_str(), nullptr), nullptr);
    EXPECT_LT(std::strlen(pmusim_create_error()), 600u);
    EXPECT_EQ(pmusim_create("cortex-a53", (huge + "=1").c_str()), nullptr);
    EXPECT_LT(std::strlen(pmusim_create_error()), 1200u);
}

}  // namespace
