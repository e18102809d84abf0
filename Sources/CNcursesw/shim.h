#ifndef VTOURIST_CNCURSESW_SHIM_H
#define VTOURIST_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags: the wide-character API needs these.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <unistd.h>

// Macros Swift cannot import, as functions.
static inline attr_t vt_attr_bold(void) { return A_BOLD; }
static inline attr_t vt_attr_dim(void) { return A_DIM; }
static inline attr_t vt_attr_reverse(void) { return A_REVERSE; }
static inline attr_t vt_attr_underline(void) { return A_UNDERLINE; }

static inline mmask_t vt_mouse_all_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t vt_mouse_report_position(void) { return REPORT_MOUSE_POSITION; }
static inline mmask_t vt_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t vt_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t vt_button1_clicked(void) {
    return BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED;
}
static inline mmask_t vt_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t vt_button5_pressed(void) { return BUTTON5_PRESSED; }

// `stdout`/`stdin` are mutable C globals, which Swift 6 refuses to read.
static inline FILE *vt_stdout(void) { return stdout; }
static inline FILE *vt_stdin(void) { return stdin; }

// ioctl is variadic, so Swift cannot call it.
static inline int vt_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

// The window's size in pixels, where the terminal reports it (0 × 0 where it does not).
static inline int vt_window_pixels(int fd, int *width, int *height) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *width = ws.ws_xpixel;
    *height = ws.ws_ypixel;
    return 0;
}

// One spacing character with attributes and an extended colour pair
// (pairs above 255 only travel through setcchar's last argument).
static inline int vt_set_cell(cchar_t *cell, wchar_t ch, attr_t attrs, int pair) {
    wchar_t text[2] = { ch, 0 };
    return setcchar(cell, text, attrs, 0, &pair);
}

// A character and two combining marks (kitty's placeholder with its row and column diacritics).
static inline int vt_set_cell_marked(cchar_t *cell, wchar_t ch, wchar_t mark1, wchar_t mark2, attr_t attrs, int pair) {
    wchar_t text[4] = { ch, mark1, mark2, 0 };
    return setcchar(cell, text, attrs, 0, &pair);
}

// A character and the marks drawn over it, ended by 0 (at most CCHARW_MAX are kept).
static inline int vt_set_cell_text(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    return setcchar(cell, text, attrs, 0, &pair);
}

// glibc declares wcwidth only under _XOPEN_SOURCE, which SwiftPM drops.
extern int wcwidth(wchar_t);
static inline int vt_wcwidth(wchar_t ch) { return wcwidth(ch); }

// tigetstr returns (char *)-1 for a cancelled capability.
static inline const char *vt_terminfo_string(const char *name) {
    char *s = tigetstr(name);
    return (s == (char *)-1) ? NULL : s;
}

// The terminal's colour count from terminfo without taking the screen (for output outside curses):
// -1 when TERM names no known terminal.
static inline int vt_terminfo_colors_without_screen(void) {
    int error = 0;
    if (setupterm(NULL, STDOUT_FILENO, &error) != OK) return -1;
    int colors = tigetnum("colors");
    del_curterm(cur_term);
    return colors;
}

// sigaction's struct and function share a name; keep both on the C side.
// A signal the user's shell ignores (nohup, background jobs) stays ignored:
// returns 1 and leaves it alone when `keep_ignored` is set.
static inline int vt_install_signal_handler(int sig, void (*handler)(int), struct sigaction *previous,
                                            int keep_ignored) {
    if (sigaction(sig, NULL, previous) != 0) return -1;
    if (keep_ignored && previous->sa_handler == SIG_IGN) return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    // SA_ONSTACK so a stack overflow can still restore the terminal.
    sa.sa_flags = SA_ONSTACK | SA_RESTART;
    return sigaction(sig, &sa, previous);
}

static inline int vt_restore_signal_handler(int sig, const struct sigaction *previous) {
    return sigaction(sig, previous, NULL);
}

static inline size_t vt_sigaction_size(void) { return sizeof(struct sigaction); }

// An alternate signal stack, so SIGSEGV from a stack overflow reaches the handler.
static inline int vt_install_alternate_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return 0;
    stack_t ss;
    ss.ss_size = 64 * 1024;
    ss.ss_sp = malloc(ss.ss_size);
    ss.ss_flags = 0;
    if (ss.ss_sp == NULL) return -1;
    return sigaltstack(&ss, NULL);
}
#endif
