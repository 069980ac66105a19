// The web page's entry point (issue 43): one function the page's script calls with a JSON request, answering
// with JSON. It runs the command's own code (testbench/command_bodies.hpp, explain.hpp, the sequence runner,
// plot.hpp), so the page shows the words, tables and plots `pmusim` prints; the page only lays them out.
//
// Requests ({"command": ..., ...}) and what the answer holds besides "status" (the command's exit status) and
// "err" (what it writes to standard error):
//   platforms                                   "platforms": [{name, family, pmu, counters, description}]
//   regs     platform, options                  "table": {columns, rows} (`pmusim regs`)
//   register platform, options, reg             "table": the register's fields (`pmusim regs P REG`)
//   events   platform, options                  "table" (`pmusim events`, without MODELLED: no trace replay here)
//   explain  platform, options, set, priv,      "text" (what `pmusim explain` prints), "summary", "records"
//            access, script (run first, as --after)   (explanation_text: heading, notes, columns, rows, ...)
//   script   platform, options, script, name,   "out", "err" (what `pmusim script` prints), "svg": the
//            sample_period                      counters and interrupt lines over cycles (`script --plot`)
#include <emscripten/emscripten.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "platforms/producible_events.hpp"
#include "testbench/command_bodies.hpp"
#include "testbench/explain.hpp"
#include "testbench/platform_args.hpp"
#include "testbench/script_runner.hpp"

namespace {

using nlohmann::json;
using namespace pmusim;

std::vector<std::string> strings(const json& req, const char* key) {
    std::vector<std::string> v;
    if (req.contains(key))
        for (const auto& s : req.at(key)) v.push_back(s.get<std::string>());
    return v;
}

std::string text(const json& req, const char* key) { return req.value(key, std::string()); }

json table_json(const cli::Table& t) { return {{"columns", t.columns}, {"rows", t.rows}}; }

// The platform and PMU of a regs/register/events request, or nullptr with the command's message on `err`.
std::unique_ptr<Pmu> request_pmu(const json& req, const Platform*& pl, std::ostream& err) {
    PlatformOptions opts;
    std::string name = text(req, "platform");
    pl = cli::platform_from_args(name, "", strings(req, "options"), opts, err);
    return pl ? cli::make_pmu(*pl, opts, err) : nullptr;
}

json platforms() {
    json list = json::array();
    for (const auto& p : all_platforms())
        list.push_back({{"name", p.name}, {"family", p.family}, {"pmu", p.pmu}, {"counters", p.counters},
                        {"description", p.description}});
    return {{"status", 0}, {"platforms", std::move(list)}};
}

json tables(const json& req, const std::string& command) {
    std::ostringstream err;
    const Platform* pl = nullptr;
    auto pmu = request_pmu(req, pl, err);
    json a = {{"status", cli::usage_error}};
    if (pmu) {
        if (command == "regs") a["table"] = table_json(cli::register_table(*pmu));
        else if (command == "events") a["table"] = table_json(cli::event_table(*pl, *pmu, producible_events(*pl, true)));
        else if (Register* r = pmu->bank().find(text(req, "reg")))
            a["table"] = table_json(cli::field_table(*r)), a["description"] = r->description;
        else err << "pmusim: unknown register '" << text(req, "reg") << "' on platform " << pl->name << "\n";
        if (a.contains("table")) a["status"] = 0;
    }
    a["err"] = err.str();
    return a;
}

json explain(const json& req) {
    cli::ExplainArgs args;
    args.platform = text(req, "platform");
    args.options = strings(req, "options");
    args.sets = strings(req, "set");
    args.access = text(req, "access");
    if (!text(req, "priv").empty()) args.priv = text(req, "priv");
    std::ostringstream err;
    cli::Explained x;
    const std::string script = text(req, "script");
    if (!script.empty()) {
        // --after takes a file: the script goes into the page's in-memory file system.
        args.after = "/after.pmus";
        std::ofstream f(args.after, std::ios::trunc);
        f << script;
        f.close();
        if (!f) return {{"status", cli::usage_error}, {"err", "pmusim: cannot write the script to " + args.after + "\n"}};
    }
    const int status = cli::explain(args, x, err);
    json a = {{"status", status}};
    if (status == 0) {
        std::ostringstream out;
        print_explanation(out, *x.platform, *x.runner->pmu(), x.explanation);
        a["text"] = out.str();
        a["summary"] = x.explanation.summary;
        json records = json::array();
        for (const auto& r : explanation_text(*x.platform, *x.runner->pmu(), x.explanation)) {
            json rows = json::array();
            for (const auto& row : r.rows) rows.push_back({{"cells", row.cells}, {"changed", row.changed}});
            records.push_back({{"heading", r.heading}, {"notes", r.notes}, {"columns", r.columns},
                               {"rows", std::move(rows)}, {"events", r.events}, {"diagnostics", r.diagnostics}});
        }
        a["records"] = std::move(records);
    }
    a["err"] = err.str();
    return a;
}

json script(const json& req) {
    ScriptConfig cfg;
    cfg.default_platform = text(req, "platform");
    std::ostringstream out, err;
    json a;
    if (!cli::parse_options(strings(req, "options"), cfg.options, err)) {
        a["status"] = cli::usage_error;
    } else {
        plot::Figure fig;
        const uint64_t period = req.value("sample_period", uint64_t{100});
        const int status = cli::run_script_recorded(cfg, text(req, "script"), req.value("name", std::string("script")),
                                                    period, out, err, fig);
        a["status"] = status;
        if (status != script_malformed) a["svg"] = plot::svg(fig);
    }
    a["out"] = out.str();
    a["err"] = err.str();
    return a;
}

json answer(const std::string& request) {
    const json req = json::parse(request);
    const std::string command = text(req, "command");
    if (command == "platforms") return platforms();
    if (command == "regs" || command == "register" || command == "events") return tables(req, command);
    if (command == "explain") return explain(req);
    if (command == "script") return script(req);
    return {{"status", cli::usage_error}, {"err", "pmusim: unknown command '" + command + "'\n"}};
}

}  // namespace

// The answer stays valid until the next call (the page copies it out at once).
extern "C" EMSCRIPTEN_KEEPALIVE const char* pmusim_web(const char* request) {
    static std::string reply;
    try {
        reply = cli::json_text(answer(request));
    } catch (const std::exception& e) {
        reply = json{{"status", cli::usage_error}, {"err", std::string("pmusim: error: ") + e.what() + "\n"}}.dump();
    }
    return reply.c_str();
}
