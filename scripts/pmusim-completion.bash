# bash completion for pmusim (installed to share/bash-completion/completions/pmusim; docs/cli.md).
_pmusim() {
    local cur prev cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "platforms regs events script explain run convert vp --help --version --verbose --quiet" -- "$cur"))
        return
    fi
    case $prev in
        -p|--platform)
            COMPREPLY=($(compgen -W "$(pmusim platforms 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
            return ;;
        --timing) COMPREPLY=($(compgen -W "model trace cpi1" -- "$cur")); return ;;
        --output) COMPREPLY=($(compgen -W "table csv json" -- "$cur")); return ;;
        -f|--format) COMPREPLY=($(compgen -W "auto tarmac qemu-execlog qemu-log veer spike native native-text" -- "$cur")); return ;;
        -e|--events)
            local platform=
            for ((i = 1; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == -p || ${COMP_WORDS[i]} == --platform ]] && platform=${COMP_WORDS[i+1]}
            done
            local names="cycles instructions branches branch-misses cache-references cache-misses"
            [[ -n $platform ]] && names+=" $(pmusim events --platform "$platform" 2>/dev/null | awk 'NR > 1 {print tolower($2)}')"
            COMPREPLY=($(compgen -W "$names" -- "${cur##*,}"))
            [[ $cur == *,* ]] && COMPREPLY=("${COMPREPLY[@]/#/${cur%,*},}")
            return ;;
        -t|--trace|--elf|--manifest|--out|--vcd|--setup)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        case $cmd in
            run) opts="--platform --trace --format --timing --output --events --roi --elf --check --interval --skip-bad-lines --all --vcd --manifest --shard --out --option --help" ;;
            script) opts="--platform --option --quiet --vcd --help" ;;
            regs|events) opts="--platform --option --json --help" ;;
            explain) opts="--platform --el --option --set --help" ;;
            convert) opts="--format --text --binary --all --help" ;;
            vp) opts="--platform --option --setup --instructions --cpi --quantum --period --vcd --help" ;;
            platforms) opts="--json --help" ;;
        esac
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _pmusim pmusim
