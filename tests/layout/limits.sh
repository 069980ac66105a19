#!/usr/bin/env bash
# The size limits issue #38 sets on the replay engine and the timing model: no file in replay/ or model/timing/
# over 800 lines, no function over 150. Functions are found with universal-ctags (scripts/setup.sh installs it;
# without it only the file limit is checked and the script says so).
# Usage: limits.sh SOURCE_DIR
set -u
src=$1
max_file=800
max_function=150
dirs=(replay model/timing)
fail=0
cd "$src" || { echo "limits.sh: cannot enter '$src'" >&2; exit 2; }
shopt -s nullglob
files=()
for d in "${dirs[@]}"; do files+=("$d"/*.cpp "$d"/*.hpp); done
[ ${#files[@]} -gt 0 ] || { echo "limits.sh: no sources under ${dirs[*]} in '$src'" >&2; exit 2; }
for f in "${files[@]}"; do
    n=$(wc -l <"$f")
    if [ "$n" -gt "$max_file" ]; then
        echo "FAIL: $f has $n lines (at most $max_file)"
        fail=1
    fi
done
echo "files: ${#files[@]} checked, at most $max_file lines each"
if ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
    # One line a function definition: its end line, start line, name and file.
    listing=$(ctags -x --_xformat='%{end} %{line} %N %F' --kinds-c++=f --fields=+ne --language-force=c++ \
        "${files[@]}") || { echo "limits.sh: ctags failed" >&2; exit 2; }
    [ -n "$listing" ] || { echo "limits.sh: ctags found no function" >&2; exit 2; }
    while read -r end start name file; do
        len=$((end - start + 1))
        if [ "$len" -gt "$max_function" ]; then
            echo "FAIL: $file:$start: $name has $len lines (at most $max_function)"
            fail=1
        fi
    done <<<"$listing"
    echo "functions: $(wc -l <<<"$listing") checked, at most $max_function lines each"
else
    echo "skip: functions not checked (universal-ctags is not installed: bash scripts/setup.sh)"
fi
[ "$fail" = 0 ] && echo "PASS" || exit 1
