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
        __vtourist_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'pins'
            __vtourist_parse_subcommand 0 'db=' 'json' 'version' 'h/help'
        case 'album'
            __vtourist_parse_subcommand 1 'db=' 'json' 'version' 'h/help'
        case 'drop'
            __vtourist_parse_subcommand -r 1 'db=' 'wait' 'version' 'h/help'
        case 'render'
            __vtourist_parse_subcommand 1 'size=' 'version' 'h/help'
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
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'pins' -d 'List the pins.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'album' -d 'List one pin\'s photos.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'drop' -d 'Add a pin and fetch its album without the full-screen app.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'render' -d 'Print a JPEG picture to the terminal with the renderer the album uses.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_positional "vtourist" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" json' -l 'json' -d 'Print a JSON array.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist pins" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" json' -l 'json' -d 'Print a JSON object.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist album" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" db' -l 'db' -d 'The SQLite database (default: $VTOURIST_DB, else $XDG_DATA_HOME/vtourist/vtourist.sqlite).' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" wait' -l 'wait' -d 'Wait until every photo is in (progress on stderr).'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist drop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" size' -l 'size' -d 'The box to fit the picture in, e.g. 80x40.' -rfka ''
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" version' -l 'version' -d 'Show the version.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist render" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vtourist' -n '__vtourist_should_offer_completions_for_flags_or_options "vtourist help" version' -l 'version' -d 'Show the version.'
