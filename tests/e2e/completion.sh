#!/usr/bin/env bash
# The bash completion (scripts/pmusim-completion.bash) against the built command: commands and options come from
# its --help texts, event names in the docs' spelling. Prints one [..] line a case.
# Usage: completion.sh PMUSIM SOURCE_DIR
pmusim=$1
source "$2/scripts/pmusim-completion.bash"
complete_words() {
    COMP_WORDS=("$pmusim" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _pmusim
    echo "[${COMPREPLY[*]}]"
}
complete_words ru
complete_words run --ma
complete_words run --timing c
complete_words run --interval-u
complete_words vp --vcd-p
complete_words run -p cortex-a53 -e INST_RET
complete_words run -p cortex-a53 -e cycles,branch-m
complete_words run -f qemu-e
complete_words run --engine r
complete_words run --format native
