/* table.c — one table description written as booktabs LaTeX and Markdown
 * (table.h). */
#include "bench/plot/table.h"

#include <stdlib.h>
#include <string.h>

#define TABCOLSEP_PT 3.0
#define TURNED_PT 9.5 /* a turned head: \footnotesize's line, 9.5 pt */

static const char *const tex_marks[ARENA_TABLE_MARKS] = {"$^{\\dagger}$", "$^{\\ddagger}$",
                                                         "$^{\\S}$", "$^{\\P}$"};
static const char *const md_marks[ARENA_TABLE_MARKS] = {"\xE2\x80\xA0", "\xE2\x80\xA1",
                                                        "\xC2\xA7", "\xC2\xB6"};

static char *dup(struct arena_table *t, const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) t->oom = 1;
    return d;
}

void arena_table_init(struct arena_table *t, size_t ncols, size_t key)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->key = key;
    t->tex_head = calloc(ncols, sizeof *t->tex_head);
    t->md_head = calloc(ncols, sizeof *t->md_head);
    t->align = calloc(ncols + 1, 1);
    t->turnable = calloc(ncols, sizeof *t->turnable);
    if (!t->tex_head || !t->md_head || !t->align || !t->turnable) t->oom = 1;
    for (size_t i = 0; i < ncols && t->align; i++) t->align[i] = 'l';
}

void arena_table_free(struct arena_table *t)
{
    for (size_t i = 0; i < t->ncols && t->tex_head && t->md_head; i++) {
        free(t->tex_head[i]);
        free(t->md_head[i]);
    }
    for (size_t i = 0; t->cell && i < t->nrows * t->ncols; i++) free(t->cell[i]);
    for (size_t i = 0; i < ARENA_TABLE_MARKS; i++) free(t->note[i]);
    for (size_t i = 0; i < t->nlines; i++) free(t->lines[i]);
    free(t->tex_head);
    free(t->md_head);
    free(t->align);
    free(t->turnable);
    free(t->cell);
    free(t->mark);
    free(t->span);
    free(t->lines);
    memset(t, 0, sizeof *t);
}

void arena_table_head(struct arena_table *t, size_t col, const char *tex, const char *md, char align,
                      int turnable)
{
    if (t->oom || col >= t->ncols) return;
    free(t->tex_head[col]);
    free(t->md_head[col]);
    t->tex_head[col] = dup(t, tex);
    t->md_head[col] = dup(t, md);
    t->align[col] = align;
    t->turnable[col] = turnable;
}

size_t arena_table_row(struct arena_table *t)
{
    if (t->oom) return 0;
    size_t n = t->nrows + 1, c = t->ncols;
    char **cell = realloc(t->cell, n * c * sizeof *cell);
    if (cell) t->cell = cell;
    int *mark = realloc(t->mark, n * c * sizeof *mark);
    if (mark) t->mark = mark;
    int *span = realloc(t->span, n * sizeof *span);
    if (span) t->span = span;
    if (!cell || !mark || !span) {
        t->oom = 1;
        return 0;
    }
    for (size_t i = 0; i < c; i++) {
        t->cell[t->nrows * c + i] = NULL;
        t->mark[t->nrows * c + i] = -1;
    }
    t->span[t->nrows] = 0;
    return t->nrows++;
}

void arena_table_span(struct arena_table *t, const char *text)
{
    size_t r = arena_table_row(t);
    if (t->oom) return;
    t->span[r] = 1;
    arena_table_set(t, 0, text, -1);
}

void arena_table_rule(struct arena_table *t)
{
    if (!t->oom && t->nrows) t->span[t->nrows - 1] = 2;
}

void arena_table_set(struct arena_table *t, size_t col, const char *text, int mark)
{
    if (t->oom || !t->nrows || col >= t->ncols) return;
    size_t at = (t->nrows - 1) * t->ncols + col;
    free(t->cell[at]);
    t->cell[at] = dup(t, text);
    t->mark[at] = mark >= 0 && mark < ARENA_TABLE_MARKS ? mark : -1;
}

void arena_table_note(struct arena_table *t, int m, const char *text)
{
    if (t->oom || m < 0 || m >= ARENA_TABLE_MARKS || t->note[m]) return;
    t->note[m] = dup(t, text);
}

void arena_table_line(struct arena_table *t, const char *text)
{
    if (t->oom) return;
    char **l = realloc(t->lines, (t->nlines + 1) * sizeof *l);
    if (!l) {
        t->oom = 1;
        return;
    }
    t->lines = l;
    t->lines[t->nlines] = dup(t, text);
    if (t->lines[t->nlines]) t->nlines++;
}

/* ---------------------------------------------------------------- widths */

/* Points of text at \footnotesize in Computer Modern (cmr8's advances,
 * rounded up: a little wide is safe, the test measures the real ones). */
static double text_pt(const char *s)
{
    double w = 0;
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        unsigned char ch = *p;
        if (ch >= 0x80 && ch < 0xC0) continue; /* continuation byte */
        if (ch >= '0' && ch <= '9') w += 4.25;
        else if (ch == '.' || ch == ',' || ch == ':' || ch == ';' || ch == '\'' || ch == '|') w += 2.4;
        else if (ch == ' ' || ch == '-' || ch == '(' || ch == ')' || ch == '[' || ch == ']') w += 3.3;
        else if (ch == 'i' || ch == 'l' || ch == 'j' || ch == 't' || ch == 'f' || ch == 'r') w += 3.4;
        else if (ch == 'm' || ch == 'w') w += 7.1;
        else if (ch >= 'a' && ch <= 'z') w += 4.6;
        else if (ch >= 'A' && ch <= 'Z') w += 6.4;
        else if (ch == '_') w += 5.0;
        else w += 6.5; /* other signs; ×, µ, …: at most about this */
    }
    return w;
}

static double mark_pt(int m)
{
    return m >= 0 ? 3.5 : 0;
}

/* Whether column c's head is set turned: it may be, and it is wider than
 * every cell below it. */
static int turned(const struct arena_table *t, size_t c)
{
    if (!t->turnable[c]) return 0;
    double cells = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->span[r] == 1) continue;
        double w = text_pt(t->cell[r * t->ncols + c]) + mark_pt(t->mark[r * t->ncols + c]);
        if (w > cells) cells = w;
    }
    return text_pt(t->md_head[c]) > cells && cells > 0;
}

static double col_pt(const struct arena_table *t, size_t c)
{
    double w = turned(t, c) ? TURNED_PT : text_pt(t->md_head[c]);
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->span[r] == 1) continue;
        double x = text_pt(t->cell[r * t->ncols + c]) + mark_pt(t->mark[r * t->ncols + c]);
        if (x > w) w = x;
    }
    return w + 2 * TABCOLSEP_PT;
}

double arena_table_width(const struct arena_table *t, size_t from, size_t to)
{
    double w = 0;
    for (size_t c = 0; c < t->key && c < t->ncols; c++) w += col_pt(t, c);
    for (size_t c = from; c < to && c < t->ncols; c++) w += col_pt(t, c);
    return w;
}

/* The end of the part that starts at column from: as many columns as the
 * page holds beside the key columns, at least one. */
static size_t part_end(const struct arena_table *t, size_t from)
{
    size_t to = from + 1;
    while (to < t->ncols && arena_table_width(t, from, to + 1) <= ARENA_TABLE_TWO_COLUMNS_PT) to++;
    return to;
}

/* ---------------------------------------------------------------- LaTeX */

static void tex_cell(const struct arena_table *t, struct arena_buf *b, size_t r, size_t c)
{
    const char *s = t->cell[r * t->ncols + c];
    if (s && *s) arena_plot_tex(b, s);
    int m = t->mark[r * t->ncols + c];
    if (m >= 0) arena_buf_add(b, tex_marks[m]);
}

static void tex_comment(struct arena_buf *b, const char *text)
{
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        struct arena_buf line = {0};
        arena_buf_addn(&line, p, n);
        arena_buf_add(b, "% ");
        arena_plot_caret(b, line.s ? line.s : "");
        arena_buf_add(b, "\n");
        arena_buf_free(&line);
        p += n + (p[n] == '\n');
    }
}

/* One tabular of columns [0, key) and [from, to). */
static void tex_part(const struct arena_table *t, struct arena_buf *b, size_t from, size_t to)
{
    size_t cols[512], n = 0;
    for (size_t c = 0; c < t->key && n < 512; c++) cols[n++] = c;
    for (size_t c = from; c < to && n < 512; c++) cols[n++] = c;
    arena_buf_add(b, "\\begin{tabular}{");
    for (size_t i = 0; i < n; i++) arena_buf_addn(b, &t->align[cols[i]], 1);
    arena_buf_add(b, "}\n\\toprule\n");
    for (size_t i = 0; i < n; i++) {
        if (i) arena_buf_add(b, " & ");
        if (turned(t, cols[i]))
            arena_buf_printf(b, "\\rotatebox{90}{%s}", t->tex_head[cols[i]]);
        else
            arena_buf_add(b, t->tex_head[cols[i]]);
    }
    arena_buf_add(b, " \\\\\n\\midrule\n");
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->span[r] == 2) arena_buf_add(b, "\\midrule\n");
        if (t->span[r] == 1) {
            if (r) arena_buf_add(b, "\\midrule\n");
            arena_buf_printf(b, "\\multicolumn{%zu}{l}{", n);
            tex_cell(t, b, r, 0);
            arena_buf_add(b, "} \\\\\n");
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (i) arena_buf_add(b, " & ");
            tex_cell(t, b, r, cols[i]);
        }
        arena_buf_add(b, " \\\\\n");
    }
    arena_buf_add(b, "\\bottomrule\n");
    arena_buf_add(b, "\\end{tabular}");
}

void arena_table_tex(const struct arena_table *t, const char *comment, struct arena_buf *b)
{
    if (t->oom) {
        b->oom = 1;
        return;
    }
    tex_comment(b, comment);
    size_t parts = 0;
    double widest = 0;
    for (size_t from = t->key; from < t->ncols || (from == t->key && parts == 0);) {
        size_t to = from < t->ncols ? part_end(t, from) : from;
        double w = arena_table_width(t, from, to);
        if (w > widest) widest = w;
        parts++;
        from = to;
        if (to >= t->ncols) break;
    }
    const char *where = widest <= ARENA_TABLE_ONE_COLUMN_PT
                            ? "fits one column (3.3 in): \\begin{table}"
                            : "wider than a column: set it across the page, \\begin{table*}";
    arena_buf_printf(b,
                          "%% needs \\usepackage{booktabs,graphicx}; about %.1f in wide at"
                          " \\footnotesize: %s\n",
                          widest / 72.0, where);
    if (parts > 1)
        arena_buf_printf(b, "%% %zu tabulars one below the other: the page holds no more"
                                 " columns beside each other\n", parts);
    arena_buf_printf(b, "{\\footnotesize\\setlength{\\tabcolsep}{%.0fpt}%%\n", TABCOLSEP_PT);
    size_t k = 0;
    for (size_t from = t->key; k < parts; k++) {
        size_t to = from < t->ncols ? part_end(t, from) : from;
        if (k) arena_buf_add(b, "\\par\\medskip\n");
        tex_part(t, b, from, to);
        arena_buf_add(b, "%\n");
        from = to;
    }
    /* the notes under the table, as wide as the float (a column, or the
     * page in a table*): they never widen the tabular */
    int any = 0;
    for (int m = 0; m < ARENA_TABLE_MARKS; m++) any |= t->note[m] != NULL;
    if (any || t->nlines) {
        arena_buf_add(b, "\\par\\smallskip\\parbox{\\linewidth}{\\raggedright ");
        const char *sep = "";
        for (int m = 0; m < ARENA_TABLE_MARKS; m++) {
            if (!t->note[m]) continue;
            arena_buf_printf(b, "%s%s", sep, tex_marks[m]);
            arena_plot_tex(b, t->note[m]);
            sep = " ";
        }
        for (size_t i = 0; i < t->nlines; i++) {
            arena_buf_add(b, sep);
            arena_plot_tex(b, t->lines[i]);
            sep = " ";
        }
        arena_buf_add(b, "}%\n");
    }
    arena_buf_add(b, "}\n");
}

/* ---------------------------------------------------------------- Markdown */

void arena_table_md(const struct arena_table *t, const char *comment, struct arena_buf *b)
{
    if (t->oom) {
        b->oom = 1;
        return;
    }
    if (comment) {
        arena_plot_md(b, comment);
        arena_buf_add(b, "\n\n");
    }
    arena_buf_add(b, "|");
    for (size_t c = 0; c < t->ncols; c++) arena_buf_printf(b, " %s |", t->md_head[c]);
    arena_buf_add(b, "\n|");
    for (size_t c = 0; c < t->ncols; c++) arena_buf_add(b, t->align[c] == 'r' ? "--:|" : ":--|");
    arena_buf_add(b, "\n");
    for (size_t r = 0; r < t->nrows; r++) {
        arena_buf_add(b, "|");
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cell[r * t->ncols + c];
            int m = t->mark[r * t->ncols + c];
            arena_buf_add(b, " ");
            if (t->span[r] == 1 && c == 0) arena_buf_add(b, "**");
            if (s && *s) arena_plot_md(b, s);
            if (t->span[r] == 1 && c == 0) arena_buf_add(b, "**");
            if (m >= 0) arena_buf_add(b, md_marks[m]);
            arena_buf_add(b, " |");
        }
        arena_buf_add(b, "\n");
    }
    for (int m = 0; m < ARENA_TABLE_MARKS; m++) {
        if (!t->note[m]) continue;
        arena_buf_add(b, "\n");
        arena_buf_add(b, md_marks[m]);
        arena_buf_add(b, " ");
        arena_plot_md(b, t->note[m]);
        arena_buf_add(b, "\n");
    }
    for (size_t i = 0; i < t->nlines; i++) {
        arena_buf_add(b, "\n");
        arena_plot_md(b, t->lines[i]);
        arena_buf_add(b, "\n");
    }
}
