#compdef vtourist

__vtourist_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__vtourist_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __vtourist_complete "${completions[@]:0:-1}"
    fi
}

__vtourist_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_vtourist() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'pins:List the pins.'
            'album:List one pin'\''s photos, or save them into a folder.'
            'drop:Add a pin and fetch its album without the full-screen app.'
            'rename:Give a pin a name of its own.'
            'move:Move a pin; its album is fetched again for the new place.'
            'delete:Delete a pin and its album.'
            'export:Write every pin to stdout as GeoJSON or GPX.'
            'import:Add pins from a GeoJSON or GPX file; their albums download as for a drop.'
            'render:Print a JPEG picture to the terminal with the renderer the album uses.'
            'config:List the settings with their values and origins; get, set or unset one.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        pins|album|drop|rename|move|delete|export|import|render|config|help)
            "_vtourist_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_vtourist_pins() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        '--json[Print a JSON array.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_album() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':pin:'
        '--json[Print a JSON object.]'
        '--save[Save the stored photos, credits.json and index.html into this folder.]:dir:_files -/'
        '--force[With --save\: write over files already in the folder.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_drop() {
    local -i ret=1
    local -ar ___sort=('interesting' 'recent' 'relevant')
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        '*:place:'
        '--wait[Wait until every photo is in (progress on stderr).]'
        '--timeout[With --wait\: give up waiting after this many seconds (exit 75, the album left to resume).]:seconds:'
        '--again[Drop the pin even where a pin already is.]'
        '--text[Filter\: only photos matching these words (quote several\: --text "street food").]:words:'
        '--tags[Filter\: only photos with every one of these tags, separated by commas.]:a,b:'
        '--taken[Filter\: when the photos were taken, FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD, either side open (2019..2023, 2019.., 2023).]:from..to:'
        '--sort[Filter\: the album'\''s order, interesting (the default), recent (date taken, newest first) or relevant (best match for --text, which it needs).]:order:{__vtourist_complete "${___sort[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':pin:'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':pin:'
        '*:place:'
        '--json[Print the moved pin as a JSON object.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':pin:'
        '--json[Print the deleted pin as a JSON object.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_export() {
    local -i ret=1
    local -ar ___format=('geojson' 'gpx')
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        '--format[geojson or gpx.]:format:{__vtourist_complete "${___format[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_import() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':file:'
        '--along[Also drop a pin every KM kilometres (0.1 to 20000) along tracks, routes and lines, and one at each end.]:km:'
        '--wait[Wait until every new album is in (progress on stderr).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_render() {
    local -i ret=1
    local -ar arg_specs=(
        ':image:'
        '--size[The box to fit the picture in, e.g. 80x40.]:COLSxROWS:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_config() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        '--json[Print JSON\: an array of {name, value, origin}, or one such object for get.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'get:Print one setting'\''s value.'
            'set:Validate and store one setting.'
            'unset:Return one setting to its default (the source to automatic; the key or contact removed).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        get|set|unset)
            "_vtourist_config_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_vtourist_config_get() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':name:'
        '--json[Print JSON\: an array of {name, value, origin}, or one such object for get.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_config_set() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':name:'
        '*:value:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_config_unset() {
    local -i ret=1
    local -ar arg_specs=(
        '--db[The SQLite database (default\: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).]:path:'
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_vtourist_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _vtourist ]]; then
    _vtourist "${@}"
else
    compdef _vtourist vtourist
fi
