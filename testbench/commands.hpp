// The `pmusim` subcommands. Each returns the process exit status.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace pmusim::cli {

int cmd_platforms(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmd_regs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmd_script(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err);
int cmd_vp(const std::vector<std::string>& args, bool quiet, std::ostream& out, std::ostream& err);
int cmd_run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmd_convert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmd_events(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmd_explain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace pmusim::cli
