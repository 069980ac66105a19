// SVG plots drawn by pmusim itself (`pmusim run --plot FILE.svg`, docs/waveforms.md): one panel per series,
// stacked over a shared x axis, each with its own y scale so that a cycle counter and a rare event are both
// readable. No plotting library: plain SVG 1.1 that any browser or rsvg-convert renders.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace pmusim::plot {

// line: points joined; hold: each value holds until the next (a sampled register); level: a 0/1 line.
enum class Style { line, hold, level };

struct Panel {
    std::string name;
    std::vector<double> x, y;  // x increasing
    Style style = Style::line;
};

struct Figure {
    std::string title;
    std::string subtitle;
    std::string x_label;
    double x_end = 0;  // the axis runs from 0 (or the first x below it) to the last x or x_end
    std::vector<Panel> panels;
};

// The SVG document.
std::string svg(const Figure& f);

// Writes `text` to `path` whole or not at all (traces/output_file.hpp): a failure leaves any existing file
// untouched. Throws OutputError naming the file.
void write_file(const std::string& path, const std::string& text);

}  // namespace pmusim::plot
