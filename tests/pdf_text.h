/* pdf_text.h — what a reader of a PDF figure sees, measured: the page size
 * and every word's box, as poppler's `pdftotext -bbox FILE -` reports them
 * (Debian's poppler-utils; scripts/bootstrap installs it), and the font size
 * of each word worked out from its box.
 *
 * Calibration (gnuplot 5.4 pdfcairo, poppler 22.12, DejaVu Sans). pdftotext
 * makes a word's box as tall as the font's ascent + descent: for DejaVu Sans
 * (FontDescriptor /Ascent 928 /Descent -235) that is 1.163 times the size at
 * which the PDF sets the text (its Tf x Tm scale, read from the content
 * stream of test PDFs: 4.667 pt gave boxes 5.4277 pt tall, 9.333 pt 10.854,
 * 14 pt 16.282, i.e. 1.1630 each). A word's width is the sum of its glyphs'
 * advances (0.275 em for ' to 1.0 em for an em dash in DejaVu Sans), which
 * tells a word set upright from one turned by 90 degrees (a ylabel): see
 * pt_word_turned. Beware that gnuplot's pdfcairo sets text at 4/3 x fontscale
 * x the size asked for, and fontscale defaults to 0.5: font ",7" comes out
 * at 4.67 pt, and ",10.5" (or ",7" with fontscale 0.75) at 7 pt.
 * test_plot checks the calibration on a gnuplot PDF of known size.
 *
 * Text turned by another angle is cut by poppler into pieces whose boxes
 * are too small: such text measures small (the test errs towards failing).
 * The calibration holds for DejaVu Sans only; pt_pdf_fonts lists the faces
 * a PDF embeds so a test can require that one.
 *
 * Plain C with no Criterion, so the runner process can use it too. */
#ifndef PDF_TEXT_H
#define PDF_TEXT_H

#include <stddef.h>

/* pdftotext's box height per point of font size for DejaVu Sans. */
#define PT_BOX_PER_POINT 1.163

struct pt_word {
    double x0, y0, x1, y1; /* points from the page's top left corner */
    char *text;            /* UTF-8, XML entities decoded */
};

/* Where a label starts: the origin of a text-showing operator (Tj, TJ, '
 * or ") whose text position was set anew (Tm, Td, TD, T*, ' or ") since the
 * last one showed text, in points from the page's top left. gnuplot draws
 * each label so (cairo's pdf operators); a label continued in another font
 * (a second Tf, no new position) is one run. turned: the text runs along
 * the page's height (a 90-degree turn). Not found: a label cairo shows in
 * the same TJ as the one before it, which it does when nothing else was
 * drawn between them and it starts on the same line within 10 em of where
 * that one ended (a position adjustment inside the TJ, like kerning). Tic
 * labels alternate with their tic marks, key entries with their samples. */
struct pt_run {
    double x, y, size;
    int turned;
};

struct pt_page {
    double width, height; /* points */
    size_t nwords;
    struct pt_word *words;
    size_t nruns;
    struct pt_run *runs; /* filled by pt_read_runs */
};

struct pt_doc {
    size_t npages;
    struct pt_page *pages;
};

/* Runs pdftotext -bbox on path and parses its answer into *doc. Returns 0,
 * or -1 with one line in err (pdftotext missing or failing, or an answer
 * that is not what poppler writes). */
int pt_read(const char *path, struct pt_doc *doc, char *err, size_t errn);

void pt_free(struct pt_doc *doc);

/* Reads the PDF itself for where each label starts (struct pt_run): the
 * content stream of every page (FlateDecode, as cairo writes it, or plain),
 * its graphics state (q, Q, cm) and text operators. doc is pt_read's of the
 * same file (same page count). 0, or -1 with one line in err. */
int pt_read_runs(const char *path, struct pt_doc *doc, char *err, size_t errn);

/* Two words whose boxes overlap by more than tol points both across and
 * along: text over text. Words of one label never overlap (pdftotext
 * splits a line at its spaces). */
int pt_words_overlap(const struct pt_word *a, const struct pt_word *b, double tol);

/* Whether a label starts inside word k of page p (past its first tol
 * points, on its line): pdftotext joins glyphs closer than 0.1 em into one
 * word, so labels drawn touching or overlapping by less than 0.2 em read as
 * one word ("100150200" for the ticks 100, 150, 200): such a word holds
 * the start of a second label. Needs pt_read_runs. The run found, else
 * NULL. */
const struct pt_run *pt_word_joins_labels(const struct pt_page *p, size_t k, double tol);

/* Whether word k of page p reads bottom to top or top to bottom (turned by
 * 90 degrees, as a ylabel): its box is then as wide as the font is tall.
 * Decided by which reading makes the average advance of its characters a
 * DejaVu Sans one (0.25 .. 1.05 em); when both do (short words: "of",
 * "abc"), turned if an unambiguously turned word stands in the same column
 * (same left and right edge: the other words of its label), else upright.
 * A lone short turned word is thus read upright, and measured too large. */
int pt_word_turned(const struct pt_page *p, size_t k);

/* Word k's font size in points: its box's extent across the line, divided
 * by PT_BOX_PER_POINT. */
double pt_word_points(const struct pt_page *p, size_t k);

/* Whether the word's box lies inside the page (to 0.01 pt). */
int pt_word_inside(const struct pt_word *w, const struct pt_page *p);

/* The /FontName of every font the PDF describes, subset tags (ABCDEF+)
 * dropped, space separated, into buf; the font descriptors cairo writes are
 * plain text in the file. Returns how many, or -1 if the file cannot be
 * read. */
int pt_pdf_fonts(const char *path, char *buf, size_t n);

/* The first occurrence of needle in len bytes that may hold NUL bytes
 * (a PDF's), or NULL. */
const char *pt_find(const char *buf, size_t len, const char *needle);

#endif
