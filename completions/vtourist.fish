function __vtourist_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __vtourist_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __vtourist_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __vtourist_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __vtourist_parse_tokens -S
    set -l unparsed_tokens (__vtourist_tokens -pc)
    switch $unparsed_tokens[1]
    case 'vtourist'
        __vtourist_parse_subcommand 0 'db=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'pins'
            __vtourist_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
        case 'album'
            __vtourist_parse_subcommand 1 'db=' 'json' 'save=' 'force' 'version' 'h/help'
        case 'drop'
            __vtourist_parse_subcommand -r 1 'db=' 'wait' 'timeout=' 'again' 'text=+' 'tags=+' 'taken=+' 'sort=+' 'version' 'h/help'
        case 'rename'
            __vtourist_parse_subcommand 2 'db=' 'version' 'h/help'
        case 'move'
            __vtourist_parse_subcommand -r 2 'db=' 'json' 'version' 'h/help'
        case 'delete'
            __vtourist_parse_subcommand 1 'db=' 'json' 'version' 'h/help'
        case 'export'
            __vtourist_parse_subcommand 0 'db=' 'format=' 'version' 'h/help'
        case 'import'
            __vtourist_parse_subcommand 1 'db=' 'along=' 'wait' 'version' 'h/help'
        case 'render'
            __vtourist_parse_subcommand 1 'size=' 'version' 'h/help'
        case 'config'
            __vtourist_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __vtourist_parse_subcommand 1 'db=' 'json' 'version' 'h/help'
            case 'set'
                __vtourist_parse_subcommand -r 2 'db=' 'version' 'h/help'
            case 'unset'
                __vtourist_parse_subcommand 1 'db=' 'version' 'h/help'
            end
        case 'help'
            __vtourist_parse_subcommand -r 1 'version'
        end
    end
end

function __vtourist_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __vtourist_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __vtourist_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __vtourist_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__vtourist_tokens -p)
    if test -z "$(__vtourist_tokens -t)"
        set -l index (count (__vtourist_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'vtourist' -f
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'pins' -d 'List the pins.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'album' -d 'List one pin\'s photos, or save them into a folder.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'drop' -d 'Add a pin and fetch its album without the full-screen app.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'rename' -d 'Give a pin a name of its own.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'move' -d 'Move a pin; its album is fetched again for the new place.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'delete' -d 'Delete a pin and its album.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'export' -d 'Write every pin to stdout as GeoJSON or GPX.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'import' -d 'Add pins from a GeoJSON or GPX file; their albums download as for a drop.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'render' -d 'Print a JPEG picture to the terminal with the renderer the album uses.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'config' -d 'List the settings with their values and origins; get, set or unset one.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" json' -l 'json' -d 'Print a JSON array.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" json' -l 'json' -d 'Print a JSON object.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" save' -l 'save' -d 'Save the stored photos, credits.json and index.html into this folder.' -rfa '(__vtourist_complete_directories)'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" force' -l 'force' -d 'With --save: write over files already in the folder.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" wait' -l 'wait' -d 'Wait until every photo is in (progress on stderr).'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" timeout' -l 'timeout' -d 'With --wait: give up waiting after this many seconds (exit 75, the album left to resume).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" again' -l 'again' -d 'Drop the pin even where a pin already is.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop"' -l 'text' -d 'Filter: only photos matching these words (quote several: --text "street food").' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop"' -l 'tags' -d 'Filter: only photos with every one of these tags, separated by commas.' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop"' -l 'taken' -d 'Filter: when the photos were taken, FROM..TO, each YYYY, YYYY-MM or YYYY-MM-DD, either side open (2019..2023, 2019.., 2023).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop"' -l 'sort' -d 'Filter: the album\'s order, interesting (the default), recent (date taken, newest first) or relevant (best match for --text, which it needs).' -rfka 'interesting recent relevant'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist rename" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist rename" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist move" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist move" json' -l 'json' -d 'Print the moved pin as a JSON object.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist move" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist move" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist delete" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist delete" json' -l 'json' -d 'Print the deleted pin as a JSON object.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist delete" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist export" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist export" format' -l 'format' -d 'geojson or gpx.' -rfka 'geojson gpx'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist export" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist import" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist import" along' -l 'along' -d 'Also drop a pin every KM kilometres (0.1 to 20000) along tracks, routes and lines, and one at each end.' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist import" wait' -l 'wait' -d 'Wait until every new album is in (progress on stderr).'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist import" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" size' -l 'size' -d 'The box to fit the picture in, e.g. 80x40.' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config" json' -l 'json' -d 'Print JSON: an array of {name, value, origin}, or one such object for get.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist config" -eq 1' -fa 'get' -d 'Print one setting\'s value.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist config" -eq 1' -fa 'set' -d 'Validate and store one setting.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist config" -eq 1' -fa 'unset' -d 'Return one setting to its default (the source to automatic; the key or contact removed).'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config get" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config get" json' -l 'json' -d 'Print JSON: an array of {name, value, origin}, or one such object for get.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config get" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config set" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config set" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config unset" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config unset" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist config unset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist help" version' -l 'version' -d 'Show the version.'
