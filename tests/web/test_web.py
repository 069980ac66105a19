#!/usr/bin/env python3
"""The web page (issue 43) in a real browser: Debian's chromium, headless, loads the page built by
scripts/build-web.sh from a static server on 127.0.0.1 and the test reads what a student would see.

usage: test_web.py PAGE_DIR PMUSIM   (PMUSIM: the native command, whose explain output the page must match)
Exit 0 when every check holds, 1 with the failed checks listed."""
import functools
import html.parser
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag=None, **attrs):
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and all(
                        (v in c.attrs.get(k.rstrip("_"), "").split()) if k == "class_" else c.attrs.get(k) == v
                        for k, v in attrs.items()):
                    yield c
                yield from c.all(tag, **attrs)

    def first(self, tag=None, **attrs):
        return next(self.all(tag, **attrs), None)


class Dom(html.parser.HTMLParser):
    """The dumped DOM as a tree of Nodes (the standard library has no HTML DOM)."""
    void = {"meta", "link", "input", "br", "img", "hr", "source", "col", "wbr", "area", "base", "embed"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.cur = self.root
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in self.void:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def dump(browser, url, profile):
    """The page's DOM after its scripts ran (virtual time lets the WebAssembly load and the page settle)."""
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
           "--virtual-time-budget=30000", "--dump-dom", url]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(r.stderr[-2000:], file=sys.stderr)
    return Dom(r.stdout)


def rows(table):
    """(cells, classes) of each body row."""
    return [([td.text() for td in tr.all("td")], tr.attrs.get("class", "").split())
            for tr in table.first("tbody").all("tr")]


def main():
    page, pmusim = sys.argv[1], os.path.abspath(sys.argv[2])
    browser = chromium()
    if not browser:
        print("test_web: chromium is not installed (bash scripts/setup.sh installs it)", file=sys.stderr)
        return 2
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=page))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/index.html" % server.server_address[1]
    profile = tempfile.mkdtemp(prefix="pmusim-chromium-")
    try:
        run_checks(browser, base, profile, pmusim)
    finally:
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        print("test_web: %d check(s) failed" % len(failures))
        return 1
    print("test_web: every check holds")
    return 0


def run_checks(browser, base, profile, pmusim):
    # 1. The link a teacher hands out: PMCR written with r2 = 0x17 on a Cortex-A7 (the issue's own URL).
    access = "mcr p15, 0, r2, c9, c12, 0"
    url = base + "?platform=cortex-a7&set=r2=0x17&explain=" + urllib.parse.quote(access)
    dom = dump(browser, url, profile)
    body = dom.root.first("body")
    check(body is not None and body.attrs.get("data-ready") == "1", "the page loaded its WebAssembly and ran")
    native = subprocess.run([pmusim, "explain", "--platform", "cortex-a7", "--set", "r2=0x17", access],
                            capture_output=True, text=True)
    check(native.returncode == 0, "pmusim explain runs natively")
    pre = dom.root.first("pre", id="explain-text")
    check(pre is not None and pre.text() == native.stdout, "the page's explanation is the command's text, word for word")
    table = dom.root.first("table", id="fields")
    check(table is not None, "the field table is shown")
    if table is None:
        return
    heads = [th.text() for th in table.all("th")]
    check(heads == ["BITS", "FIELD", "ACCESS", "WRITTEN", "BEFORE", "AFTER", "MEANING", "EFFECT"],
          "the table's columns are the command's: " + " ".join(heads))
    by_name = {cells[1]: (cells, cls) for cells, cls in rows(table)}
    # ARMv7 ARM C12.8.2 (PMCR): E is bit 0, P bit 1, C bit 2, D bit 3, X bit 4. 0x17 = 0b1_0111 writes E, P, C
    # and X as 1 and D as 0. P and C are actions that read as zero; E and X keep the 1 (the reset value is 0).
    expect = {"E": ("[0]", "0x1", "0x1", True), "P": ("[1]", "0x1", "0x0", False),
              "C": ("[2]", "0x1", "0x0", False), "X": ("[4]", "0x1", "0x1", True)}
    for name, (bits, written, after, changed) in expect.items():
        got = by_name.get(name)
        check(got is not None, "field %s is in the table" % name)
        if got is None:
            continue
        cells, cls = got
        check(cells[0] == bits and cells[3] == written and cells[5] == after,
              "field %s: bits %s, written %s, after %s (got %s)" % (name, bits, written, after, cells[:6]))
        check(("changed" in cls) == changed, "field %s is %smarked as changed" % (name, "" if changed else "not "))
        # The effect the command prints for the field, in its table row (the last column).
        line = next((l for l in native.stdout.splitlines() if l.split()[:2] == [bits, name]), "")
        check(cells[7] != "" and line.endswith(cells[7]), "field %s's effect is the command's: %r" % (name, cells[7]))
    # ARMv7 ARM C12.8.2: P = 1 sets every event counter to zero, C = 1 sets PMCCNTR to zero; the Cortex-A7 has
    # four event counters (Cortex-A7 MPCore TRM 11.8: PMCR.N = 4).
    effect = lambda name: by_name.get(name, ([""] * 8, []))[0][7]
    check(effect("P") == "action: event counters 0..3 := 0", "P's effect: the four event counters := 0")
    check(effect("C") == "action: PMCCNTR := 0", "C's effect: PMCCNTR := 0")

    # 2. A script run from a link: the cycle counter 1000 cycles short of its 32-bit overflow with its interrupt
    # enabled (ARMv7 ARM C12.8: PMCNTENSET/PMINTENSET bit 31 is the cycle counter) raises the interrupt after
    # 0x100000000 - 0xFFFFFC18 = 1000 cycles.
    script = "\n".join(["platform cortex-a7", "write PMCNTENSET 0x80000000", "write PMINTENSET 0x80000000",
                        "write PMCCNTR 0xFFFFFC18", "write PMCR 0x1", "tick 2000", "expect irq == 1", ""])
    dom = dump(browser, base + "?platform=cortex-a7&script=" + urllib.parse.quote(script), profile)
    status = dom.root.first(id="script-status")
    check(status is not None and "exit status 0" in status.text(), "the script ran: every expectation held")
    svg = dom.root.first("svg")
    check(svg is not None, "the plot is drawn")
    if svg is not None:
        labels = [t.text() for t in svg.all("text")]
        check(len(list(svg.all("polyline"))) >= 2, "the plot has a line for each panel")
        check(any("PMCCNTR" in l for l in labels), "the plot shows the cycle counter")
        check(any("irq" in l for l in labels), "the plot shows the interrupt line")
    diags = [li.text() for li in dom.root.all("li", class_="at-line")]
    check(any(d.startswith("script:6:") and "asserted at cycle 1000" in d for d in diags),
          "the interrupt is listed at line 6, cycle 1000: %s" % diags)

    # 3. A malformed script: its error is shown with its line, linked to it.
    bad = "platform cortex-a7\nread PMCR\nfrobnicate 3\n"
    dom = dump(browser, base + "?platform=cortex-a7&script=" + urllib.parse.quote(bad), profile)
    status = dom.root.first(id="script-status")
    check(status is not None and "exit status 2" in status.text(), "the malformed script's status is 2")
    errs = [(li.attrs.get("data-line"), li.text()) for li in dom.root.all("li", class_="at-line")]
    check(any(line == "3" and text.startswith("script:3: error:") for line, text in errs),
          "the error is listed at line 3: %s" % errs)
    check(dom.root.first("svg") is None, "a malformed script draws no plot")

    # 4. regs and events as tables, for the platform chosen.
    regs = dom.root.first(id="regs-out")
    names = [cells[0] for cells, _ in rows(regs.first("table"))] if regs is not None and regs.first("table") else []
    check("PMCR" in names and "PMCCNTR" in names, "the regs table lists PMCR and PMCCNTR")
    events = dom.root.first(id="events-out")
    evs = [cells[:4] for cells, _ in rows(events.first("table"))] if events is not None and events.first("table") else []
    # ARMv7 ARM C12.8.9 Table C12-2: event 0x11 is CPU_CYCLES; every core implements it, and the replay gives it
    # (the cycles): IMPLEMENTED and MODELLED yes, as `pmusim events` prints it.
    check(["0x11", "CPU_CYCLES", "yes", "yes"] in evs, "the events table lists 0x11 CPU_CYCLES, implemented, modelled: %s" % evs[:3])


if __name__ == "__main__":
    sys.exit(main())
