/* table.h — a table for a paper, written as a booktabs tabular and as a
 * Markdown table from one description: columns with their heads, rows of
 * cells (text from the database escaped for each format), rows that span
 * every column (a group's name), and notes whose marks sit beside a cell's
 * number, never inside it.
 *
 * The LaTeX is sized, not hoped to fit: each column's width is estimated at
 * \footnotesize (Computer Modern, 8 pt: the widest cell's characters at
 * their advances, plus 2 x 3 pt of \tabcolsep), and the file says in its
 * first lines whether it fits one column (3.3 in, 240 pt) or needs the page
 * width (table*, 7 in); columns that not even the page holds go into a
 * second tabular below the first (the key columns repeated), so no column
 * is ever dropped. Planner names as column heads are turned 90 degrees
 * (\rotatebox, graphicx) when that makes the table narrower.
 * tests/test_plot.c compiles what this writes with pdflatex and measures
 * where every word lands. */
#ifndef ARENA_BENCH_TABLE_H
#define ARENA_BENCH_TABLE_H

#include <stddef.h>

#include "bench/plot/plot.h"

/* The column widths the LaTeX is sized for, in points. */
#define ARENA_TABLE_ONE_COLUMN_PT 240.0
#define ARENA_TABLE_TWO_COLUMNS_PT 504.0

/* A note's mark as each format writes it: 0 dagger, 1 double dagger,
 * 2 section sign, 3 pilcrow. */
#define ARENA_TABLE_MARKS 4

struct arena_table {
    size_t ncols, key;  /* key: the first columns, repeated when split */
    char **tex_head, **md_head; /* heads as written (not escaped) */
    char *align;        /* 'l' or 'r' per column */
    int *turnable;      /* a head that may be turned (a name above numbers) */
    size_t nrows;
    char **cell;        /* nrows x ncols, UTF-8 text as shown (escaped when written) */
    int *mark;          /* nrows x ncols: -1 none, else the note's mark */
    int *span;          /* per row: 1 when its first cell spans the row, 2 a
                           rule above it (a mean under the rows it sums up) */
    char *note[ARENA_TABLE_MARKS]; /* the note of each mark (UTF-8 text), NULL */
    char **lines;       /* further notes below the table (UTF-8 text) */
    size_t nlines;
    int oom;
};

/* A table of ncols columns, the first key of which name the row. */
void arena_table_init(struct arena_table *t, size_t ncols, size_t key);
void arena_table_free(struct arena_table *t);
/* Column col: its head in LaTeX (as written) and Markdown (as written),
 * 'l' or 'r', and whether the head may be turned 90 degrees. */
void arena_table_head(struct arena_table *t, size_t col, const char *tex, const char *md, char align,
                      int turnable);
/* A new row, its cells empty; the row's index. */
size_t arena_table_row(struct arena_table *t);
/* A row whose text spans every column (a group's title). */
void arena_table_span(struct arena_table *t, const char *text);
/* A rule above the last row. */
void arena_table_rule(struct arena_table *t);
/* Cell col of the last row: text as shown, mark -1 or a mark whose note is
 * set with arena_table_note. */
void arena_table_set(struct arena_table *t, size_t col, const char *text, int mark);
/* The note of mark m (said once, the first call wins). */
void arena_table_note(struct arena_table *t, int m, const char *text);
/* A line below the table without a mark. */
void arena_table_line(struct arena_table *t, const char *text);

/* The LaTeX: comment lines (caption of the data, each line of comment
 * prefixed "% "), the width it needs and where it fits, then the
 * tabular(s) in a \footnotesize group, the notes under each. */
void arena_table_tex(const struct arena_table *t, const char *comment, struct arena_buf *b);
/* The Markdown: comment as a paragraph (NULL none), the table, the notes. */
void arena_table_md(const struct arena_table *t, const char *comment, struct arena_buf *b);
/* The estimated width in points of the tabular that holds columns
 * [0, key) and [from, to) (as arena_table_tex sets them). */
double arena_table_width(const struct arena_table *t, size_t from, size_t to);

#endif
