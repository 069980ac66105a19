// TLM-2.0 responses of an ARM PMU module's memory-mapped view, for every register and every error case, and
// the ISS system-register interface. Usage: sc_tlm_responses PLATFORM (cortex-a53 or cortex-a7).
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/pmu/arm_pmu.hpp"
#include "model/sc/pmu_module.hpp"
#include "tests/sc/sc_check.hpp"

using namespace sc_core;
using pmusim::sctest::tally;

namespace {

struct Initiator : sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
    pmusim::sc::ArmPmuModule* pmu = nullptr;
    sc_core::sc_signal<bool>* irq = nullptr;
    bool v7 = false;

    SC_HAS_PROCESS(Initiator);
    explicit Initiator(sc_module_name n) : sc_module(n) { SC_THREAD(run); }

    tlm::tlm_response_status go(tlm::tlm_command cmd, uint64_t addr, uint32_t& data, unsigned len = 4,
                                unsigned char* be = nullptr, unsigned be_len = 0, unsigned width = 4,
                                sc_time* delay_out = nullptr) {
        tlm::tlm_generic_payload t;
        unsigned char buf[8] = {};
        for (unsigned i = 0; i < 4; ++i) buf[i] = static_cast<unsigned char>(data >> (8 * i));
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(buf);
        t.set_data_length(len);
        t.set_streaming_width(width);
        t.set_byte_enable_ptr(be);
        t.set_byte_enable_length(be_len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        socket->b_transport(t, delay);
        if (delay_out) *delay_out = delay;
        data = 0;
        for (unsigned i = 0; i < 4; ++i) data |= static_cast<uint32_t>(buf[i]) << (8 * i);
        return t.get_response_status();
    }
    unsigned dbg(tlm::tlm_command cmd, uint64_t addr, uint32_t& data) {
        tlm::tlm_generic_payload t;
        unsigned char buf[4];
        for (unsigned i = 0; i < 4; ++i) buf[i] = static_cast<unsigned char>(data >> (8 * i));
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(buf);
        t.set_data_length(4);
        const unsigned n = socket->transport_dbg(t);
        data = 0;
        for (unsigned i = 0; i < 4; ++i) data |= static_cast<uint32_t>(buf[i]) << (8 * i);
        return n;
    }

    void run() {
        using tlm::TLM_READ_COMMAND;
        using tlm::TLM_WRITE_COMMAND;
        pmusim::Pmu& model = pmu->pmu();
        if (v7) {
            // Software on the bus is subject to the software lock: unlock first (PMLAR, 0xC5ACCE55).
            uint32_t key = 0xC5ACCE55;
            SC_CHECK_EQ(go(TLM_WRITE_COMMAND, 0xFB0, key), tlm::TLM_OK_RESPONSE, "unlock PMLAR");
        }
        // Every register slot: reads return the model's value; direction errors are command errors.
        unsigned slots = 0;
        for (const auto& r : model.bank().all()) {
            for (const auto& [off, shift] : r->offsets) {
                ++slots;
                uint32_t v = 0;
                const auto st = go(TLM_READ_COMMAND, off, v);
                SC_CHECK_EQ(st, r->readable ? tlm::TLM_OK_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE, "read " + r->name);
                pmusim::AccessContext dbgctx;
                dbgctx.origin = pmusim::AccessOrigin::external_debug;
                if (r->readable) SC_CHECK_EQ(v, static_cast<uint32_t>(model.read_offset(off, dbgctx).value_read),
                                             "value of " + r->name);
                if (r->role == pmusim::ArmPmu::r_lar) continue;  // writing PMLAR would lock again
                uint32_t w = 0;
                const auto ws = go(TLM_WRITE_COMMAND, off, w);
                SC_CHECK_EQ(ws, r->writable ? tlm::TLM_OK_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE,
                            "write " + r->name);
            }
        }
        SC_CHECK_EQ(slots > 20, true, "memory-mapped slots found");
        uint32_t v = 0;
        // Writes land: PMCNTENSET through the socket, read back through the model.
        v = 0x80000001;
        go(TLM_WRITE_COMMAND, 0xC00, v);
        SC_CHECK_EQ(model.bank().find(v7 ? "PMCNTENSET" : "PMCNTENSET_EL0")->read(), 0x80000001u, "PMCNTENSET written");
        // Error cases.
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0x480, v), tlm::TLM_ADDRESS_ERROR_RESPONSE, "unmapped offset");
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE06, v), tlm::TLM_ADDRESS_ERROR_RESPONSE, "unaligned offset");
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE04, v, 8, nullptr, 0, 8), tlm::TLM_BURST_ERROR_RESPONSE, "8-byte burst");
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE04, v, 4, nullptr, 0, 2), tlm::TLM_BURST_ERROR_RESPONSE, "streaming width 2");
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE04, v, 2, nullptr, 0, 2), tlm::TLM_BURST_ERROR_RESPONSE, "2-byte access");
        unsigned char be_part[4] = {0xFF, 0xFF, 0x00, 0x00}, be_all[4] = {0xFF, 0xFF, 0xFF, 0xFF};
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE04, v, 4, be_part, 4), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "partial byte enables");
        SC_CHECK_EQ(go(TLM_READ_COMMAND, 0xE04, v, 4, be_all, 4), tlm::TLM_OK_RESPONSE, "all bytes enabled");
        SC_CHECK_EQ(go(tlm::TLM_IGNORE_COMMAND, 0xE04, v), tlm::TLM_OK_RESPONSE, "ignore command");
        // b_transport delay: the module adds its access latency (2 ns here).
        sc_time d;
        go(TLM_READ_COMMAND, 0xE04, v, 4, nullptr, 0, 4, &d);
        SC_CHECK_EQ(d, sc_time(2, SC_NS), "access latency added to the delay");
        // transport_dbg: 4 bytes for a mapped register, 0 for an unmapped one.
        v = 0;
        SC_CHECK_EQ(dbg(TLM_READ_COMMAND, 0xE04, v), 4u, "transport_dbg mapped");
        SC_CHECK_EQ(v, static_cast<uint32_t>(model.bank().find_offset(0xE04).reg->read()), "transport_dbg value");
        SC_CHECK_EQ(dbg(TLM_READ_COMMAND, 0x480, v), 0u, "transport_dbg unmapped");
        if (v7) {
            // Relock: bus writes are ignored (OK response, no effect); the debugger's are not.
            v = 0;
            go(TLM_WRITE_COMMAND, 0xFB0, v);
            v = 0x1;
            SC_CHECK_EQ(go(TLM_WRITE_COMMAND, 0xE04, v), tlm::TLM_OK_RESPONSE, "locked write answered OK");
            SC_CHECK_EQ(model.bank().find("PMCR")->read() & 1u, 0u, "locked write ignored");
            v = 0x1;
            dbg(TLM_WRITE_COMMAND, 0xE04, v);
            SC_CHECK_EQ(model.bank().find("PMCR")->read() & 1u, 1u, "debugger write lands");
        }
        // The ISS interface: a User-mode/EL0 access without the enable traps and changes nothing.
        pmusim::sc::SysRegRequest req;
        req.space = v7 ? pmusim::EncodingSpace::cp15 : pmusim::EncodingSpace::a64_sysreg;
        req.key = v7 ? pmusim::cp15_key(0, 9, 12, 0) : pmusim::a64_key(3, 3, 9, 12, 0);
        req.is_write = true;
        req.value = 0x0;
        req.ctx.privilege = 0;
        const auto before = model.bank().find(v7 ? "PMCR" : "PMCR_EL0")->read();
        SC_CHECK_EQ(pmu->sysreg_access(req, SC_ZERO_TIME).trapped(), true, "EL0 PMCR write traps");
        SC_CHECK_EQ(model.bank().find(v7 ? "PMCR" : "PMCR_EL0")->read(), before, "nothing changed");
        req.ctx.privilege = 1;
        SC_CHECK_EQ(pmu->sysreg_access(req, SC_ZERO_TIME).trapped(), false, "EL1 PMCR write allowed");
        req.key = v7 ? pmusim::cp15_key(0, 9, 14, 7) : pmusim::a64_key(3, 3, 14, 11, 7);
        SC_CHECK_EQ(pmu->sysreg_access(req, SC_ZERO_TIME).trapped(), true, "unallocated encoding is UNDEFINED");
        // An access at sc_time_stamp() + delay places the request edge there: force an overflow flag with its
        // interrupt enabled and PMCR.E set, 5 ns ahead of the initiator's current time.
        wait(10, SC_NS);
        v = 0x1;
        dbg(TLM_WRITE_COMMAND, 0xC40, v);  // PMINTENSET (the ARMv7 software lock is set again by now)
        v = 0x1;
        dbg(TLM_WRITE_COMMAND, 0xE04, v);  // PMCR.E
        const sc_time ahead(5, SC_NS);
        if (v7) {
            // ARMv7 has no memory-mapped PMOVSSET: set the flag with an MCR from an ISS running 5 ns ahead.
            pmusim::sc::SysRegRequest set;
            set.space = pmusim::EncodingSpace::cp15;
            set.key = pmusim::cp15_key(0, 9, 14, 3);
            set.is_write = true;
            set.value = 0x1;
            set.ctx.privilege = 1;
            SC_CHECK_EQ(pmu->sysreg_access(set, ahead).trapped(), false, "MCR PMOVSSET");
        } else {
            tlm::tlm_generic_payload t;
            unsigned char buf[4] = {1, 0, 0, 0};
            t.set_command(TLM_WRITE_COMMAND);
            t.set_address(0xCC0);  // PMOVSSET_EL0
            t.set_data_ptr(buf);
            t.set_data_length(4);
            t.set_streaming_width(4);
            sc_time delay = ahead;
            socket->b_transport(t, delay);
            SC_CHECK_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE, "PMOVSSET through the socket");
        }
        wait(4, SC_NS);
        SC_CHECK_EQ(irq->read(), true, "nPMUIRQ still high 4 ns later");
        wait(2, SC_NS);
        SC_CHECK_EQ(irq->read(), false, "nPMUIRQ low after the access time");
        sc_stop();
    }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
    const std::string platform = argc > 1 ? argv[1] : "cortex-a53";
    pmusim::sc::ModuleConfig cfg;
    cfg.access_latency = sc_time(2, SC_NS);
    auto mod = pmusim::sc::make_module("pmu", *pmusim::find_platform(platform), {}, cfg);
    auto* arm = dynamic_cast<pmusim::sc::ArmPmuModule*>(mod.get());
    sc_signal<bool> irq("irq", true), dbg("dbg"), halt("halt"), sleep("sleep");
    arm->irq_out.bind(irq);
    arm->debug_in.bind(dbg);
    arm->halt_in.bind(halt);
    arm->sleep_in.bind(sleep);
    Initiator init("init");
    init.socket.bind(arm->socket);
    init.pmu = arm;
    init.irq = &irq;
    init.v7 = platform == "cortex-a7";
    sc_start();
    return tally().finish();
}
