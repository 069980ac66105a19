# bash completion for pmusim (installed to share/bash-completion/completions/pmusim; docs/cli.md).
# The commands and each command's options come from the command itself (`pmusim --help`, `pmusim CMD --help`,
# which print the option definitions the parser uses), so the completion never falls behind them; the man page
# is made from the same help texts (testbench/CMakeLists.txt). Event names complete as the docs spell them
# (INST_RETIRED), with perf's generic names (cycles, branch-misses, ...).
_pmusim_commands() {
    "$1" --help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' | sort -u
}

# Every long and short option of a command, as its --help lists them.
_pmusim_options() {
    "$1" "$2" --help 2>/dev/null | grep -oE '^  (-[a-zA-Z] \[ )?--[a-z0-9-]+|^  -[a-zA-Z] \[ --[a-z0-9-]+' |
        grep -oE -- '--?[a-zA-Z0-9-]+' | sort -u
}

# The words an option takes, as the command's --help lists them under "values:" (the list its check reads).
_pmusim_values() {
    "$1" "$2" --help 2>/dev/null | awk -v opt="$3:" '/^values:/ {on = 1; next} on && $1 == opt {for (i = 2; i <= NF; i++) print $i}'
}

_pmusim() {
    local cur prev cmd i prog
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    prog=${COMP_WORDS[0]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$(_pmusim_commands "$prog") --help --version --verbose --quiet" -- "$cur"))
        return
    fi
    case $prev in
        -p|--platform)
            COMPREPLY=($(compgen -W "$("$prog" platforms 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
            return ;;
        -f) COMPREPLY=($(compgen -W "$(_pmusim_values "$prog" "$cmd" --format)" -- "$cur")); return ;;
        -e|--events|--plot-events)
            local platform=
            for ((i = 1; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == -p || ${COMP_WORDS[i]} == --platform ]] && platform=${COMP_WORDS[i+1]}
            done
            local names=
            # pmusim events: the generic names (indented, under their heading) and every event's NAME column.
            [[ -n $platform ]] && names=$("$prog" events --platform "$platform" 2>/dev/null |
                awk '/^  [a-z]/ {print $1} $1 ~ /^0x/ {print $2}')
            COMPREPLY=($(compgen -W "$names" -- "${cur##*,}"))
            [[ $cur == *,* ]] && COMPREPLY=("${COMPREPLY[@]/#/${cur%,*},}")
            return ;;
        -t|--trace|--elf|--manifest|--out|-o|--vcd|--plot|--setup|--platform-file)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if [[ $prev == --* ]]; then
        local values
        values=$(_pmusim_values "$prog" "$cmd" "$prev")
        if [[ -n $values ]]; then
            COMPREPLY=($(compgen -W "$values" -- "$cur"))
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_pmusim_options "$prog" "$cmd")" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _pmusim pmusim
