#include "testbench/plot.hpp"

#include "traces/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace pmusim::plot {

namespace {

constexpr double width = 960, left = 110, right = 24, top = 66, panel_h = 110, gap = 34, bottom = 56;
const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<') o += "&lt;";
        else if (c == '>') o += "&gt;";
        else if (c == '&') o += "&amp;";
        else if (c == '"') o += "&quot;";
        else o += c;
    }
    return o;
}

// Ticks at 1, 2 or 5 times a power of ten, about `n` of them over [lo, hi].
std::vector<double> ticks(double lo, double hi, int n) {
    if (!(hi > lo)) return {lo};
    const double raw = (hi - lo) / n;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(v);
    return t;
}

// Ticks at powers of two, for a narrow range of large values shown in hexadecimal (a counter near 2^32).
std::vector<double> hex_ticks(double lo, double hi) {
    const double step = std::exp2(std::floor(std::log2((hi - lo) / 3)));
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi; v += step) t.push_back(v);
    return t;
}

// 1234567 -> "1.23M": short labels for the axes.
std::string label(double v) {
    const double a = std::fabs(v);
    if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
    if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
    if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
    return fmt::format("{:.4g}", v);
}

}  // namespace

std::string svg(const Figure& f) {
    const double plot_w = width - left - right;
    const double height = top + static_cast<double>(f.panels.size()) * (panel_h + gap) + bottom - gap;
    double x0 = 0, x1 = f.x_end;
    for (const Panel& p : f.panels)
        if (!p.x.empty()) x0 = std::min(x0, p.x.front()), x1 = std::max(x1, p.x.back());
    if (!(x1 > x0)) x1 = x0 + 1;
    const auto xt = ticks(x0, x1, 8);
    auto px = [&](double x) { return left + (x1 > x0 ? (x - x0) / (x1 - x0) : 0.0) * plot_w; };
    std::string o = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{2}\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{3}</text>\n"
        "<text x=\"{2}\" y=\"38\" fill=\"#555\">{4}</text>\n",
        width, height, left, escape(f.title), escape(f.subtitle));
    for (size_t pi = 0; pi < f.panels.size(); ++pi) {
        const Panel& p = f.panels[pi];
        const char* colour = colours[pi % (sizeof colours / sizeof *colours)];
        const double ptop = top + static_cast<double>(pi) * (panel_h + gap);
        double lo = 0, hi = 1;
        if (!p.y.empty()) {
            // From 0, unless the values sit in a narrow band far from it (a counter preloaded near its overflow).
            const double mn = *std::min_element(p.y.begin(), p.y.end()), mx = *std::max_element(p.y.begin(), p.y.end());
            lo = std::min(0.0, mn);
            hi = std::max(lo + 1, mx);
            if (mn > 0 && mx - mn < mx / 100) lo = mn, hi = std::max(mn + 1, mx);
        }
        const bool hex = lo > 0 && hi >= 1e6 && hi - lo < hi / 100;
        if (p.style == Style::level) lo = 0, hi = 1;
        auto py = [&](double y) { return ptop + panel_h - (y - lo) / (hi - lo) * panel_h; };
        o += fmt::format("<g>\n<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#999\"/>\n", left,
                         ptop, plot_w, panel_h);
        o += fmt::format("<text x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"{}\">{}</text>\n", left + 6, ptop - 6, colour,
                         escape(p.name));
        const bool level = p.style == Style::level;
        const auto yt = level ? std::vector<double>{0, 1} : hex ? hex_ticks(lo, hi) : ticks(lo, hi, 3);
        for (double v : yt) {
            o += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n", left, left + plot_w, py(v));
            o += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, py(v) + 4,
                             level ? (v ? "high" : "low") : hex ? fmt::format("{:#x}", static_cast<uint64_t>(v)) : label(v));
        }
        for (double v : xt)
            o += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#eee\"/>\n", px(v), ptop,
                             ptop + panel_h);
        std::string pts;
        const size_t n = std::min(p.x.size(), p.y.size());
        for (size_t i = 0; i < n; ++i) {
            if (p.style != Style::line && i) pts += fmt::format("{:.1f},{:.1f} ", px(p.x[i]), py(p.y[i - 1]));
            pts += fmt::format("{:.1f},{:.1f} ", px(p.x[i]), py(p.y[i]));
        }
        if (p.style != Style::line && n) pts += fmt::format("{:.1f},{:.1f}", px(x1), py(p.y[n - 1]));  // holds to the end
        o += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\" points=\"{}\"/>\n</g>\n", colour, pts);
    }
    const double axis_y = top + static_cast<double>(f.panels.size()) * (panel_h + gap) - gap;
    for (double v : xt)
        o += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(v), axis_y + 16, label(v));
    o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n</svg>\n", left + plot_w / 2, axis_y + 40,
                     escape(f.x_label));
    return o;
}

void write_file(const std::string& path, const std::string& text) {
    OutputFile out(path);  // written whole or not at all (traces/output_file.hpp)
    out.write(text);
    out.commit();
}

}  // namespace pmusim::plot
