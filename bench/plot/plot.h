/* plot.h — `bench plot`: figures and tables from a results database
 * (results/figdata.h reads it), drawn by gnuplot from scripts made of the
 * .gp templates in bench/plot/templates. Shared by plot.c (its option rows,
 * selection, driver), the figures' files and plot_figure.c (see
 * plot_internal.h), and plot_gp.c (escaping, templates, running
 * gnuplot; the text buffer is bench/base/buf.h). */
#ifndef ARENA_BENCH_PLOT_H
#define ARENA_BENCH_PLOT_H

#include <stdarg.h>
#include <stddef.h>

#include "bench/base/buf.h"
#include "bench/core/options.h"

/* `bench plot` from its command word on: an exit status, or
 * ARENA_BENCH_HELP_ASKED (options.h) after --help. */
int arena_bench_plot_main(int argc, char **argv);
/* Its own rows (ARENA_IN_PLOT; the selection's are filters.h's). */
extern const struct arena_opt arena_bench_plot_options[];
extern const size_t arena_bench_plot_option_count;

/* Text from the database as figures show it: every control byte in caret
 * notation (a line break is ^J, DEL is ^?), each byte that is not part of
 * a valid UTF-8 character as U+FFFD, "" as "(empty)": valid UTF-8 always. */
void arena_plot_caret(struct arena_buf *b, const char *text);
/* A gnuplot single-quoted string of arena_plot_caret(text) ('' for '); with
 * format set, % doubled too (tic labels are formats to gnuplot). */
void arena_plot_gq(struct arena_buf *b, const char *text, int format);
/* arena_plot_caret(text) escaped for LaTeX text, and for Markdown text. */
void arena_plot_tex(struct arena_buf *b, const char *text);
void arena_plot_md(struct arena_buf *b, const char *text);
/* A Markdown code span holding arena_plot_caret(text) as it is. */
void arena_plot_md_code(struct arena_buf *b, const char *text);
/* One CSV field per RFC 4180: quoted when it holds , " CR or LF. */
void arena_plot_csv(struct arena_buf *b, const char *text);

/* Fills the template file NAME.gp of dir: every @KEY@ becomes the value of
 * KEY in keys/values (n pairs); an unknown key is an error. 0 or -1 with
 * one line in err. */
int arena_plot_template_fill(const char *dir, const char *name, const char *const *keys,
                             const char *const *values, size_t n, struct arena_buf *out, char *err,
                             size_t errlen);
/* Where the templates are: the source tree's when it is there, else the
 * installed copy; NULL when neither exists. */
const char *arena_plot_template_dir(void);

/* Writes len bytes to path; 0 or -1 with one line in err. */
int arena_plot_write_file(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* Runs `gnuplot SCRIPT` in dir, its output into dir/LOG. 0 success, 1 when
 * gnuplot failed or is missing (one line in err). */
int arena_plot_run_gnuplot(const char *dir, const char *script, const char *log, char *err,
                           size_t errlen);

#endif
