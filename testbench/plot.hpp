// SVG plots drawn by pmusim itself (`pmusim run --plot FILE.svg`, docs/waveforms.md): one panel per series,
// stacked over a shared x axis, each with its own y scale so that a cycle counter and a rare event are both
// readable. No plotting library: plain SVG 1.1 that any browser or rsvg-convert renders.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace pmusim::plot {

struct Panel {
    std::string name;
    std::vector<double> y;  // one per x
    bool step = false;      // a level (an interrupt line): drawn as steps
};

struct Figure {
    std::string title;
    std::string subtitle;
    std::string x_label;
    std::vector<double> x;  // increasing
    std::vector<Panel> panels;
};

// The SVG document.
std::string svg(const Figure& f);

// The permissions a new file gets (0666 less the umask); for files written through a temporary file.
mode_t new_file_mode();

// Writes `text` to `path` through a temporary file in the same folder renamed over it: a failure leaves any
// existing file untouched. Throws std::runtime_error naming the file.
void write_file(const std::string& path, const std::string& text);

}  // namespace pmusim::plot
