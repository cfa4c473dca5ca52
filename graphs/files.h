/* files.h — problem and graph files.
 *
 * MiniMalloc CSV (Moffitt 2023): one buffer a line, `id,lower,upper,size`,
 * lifetime half-open [lower, upper) over arbitrary non-negative integer
 * times. An optional header line names the columns (any order; extra columns
 * such as `offset` are ignored; each name at most once); MiniMalloc's own
 * names are accepted too, as its converter reads them: `buffer` or
 * `buffer_id` for id, `start` or `begin` for lower, and `end` for an
 * inclusive upper (upper = end + 1), so its benchmark files
 * (`buffer,start,end,size`) read as they are. The first line is a header
 * when it names two of the columns or when none of its fields 2 to 4 starts
 * like a number; a header without the four columns is refused naming the
 * first one missing. Without a header the first four columns are id, lower,
 * upper, size. ids are any text without commas, unique. Blank lines and lines
 * starting with '#' are skipped; CRLF and a UTF-8 byte order mark are
 * accepted.
 * Every record ends with a newline, as MiniMalloc and `bench --export-csv`
 * write them: a last record without one is refused ("...: the file looks cut
 * off"), since a file cut inside its last number would otherwise read as a
 * smaller valid problem. The header alone is the empty problem; a file with
 * neither header nor record is refused (ARENA_EFORMAT, "PATH: no header and
 * no records ..."). Sizes whose (aligned) sum passes 2^64 - 1 are refused at
 * the record that passes it (ARENA_EOVERFLOW).
 * On reading, times are compressed to dense steps: step k is the k-th
 * smallest distinct `lower`, a record gets first = the step of its lower and
 * last = the step of the largest lower <= upper - 1. Two records conflict
 * after the compression exactly when their half-open intervals overlapped
 * before (a conflict is decided by comparing one record's lower with the
 * other's upper - 1, and the map keeps every such comparison). Written back,
 * a record is `id,first,last+1,size` with id = its index.
 *
 * Graph text format (.graph / .txt), one statement a line, '#' starts a
 * comment, tokens separated by blanks, CRLF accepted:
 *     tensor NAME DTYPE SHAPE [input] [output]
 *     op NAME KIND [INPUT...] -> [OUTPUT...]
 * DTYPE is int8, int16, fp16 or fp32; SHAPE is dims joined by 'x' (at most
 * 6), e.g. 1x112x112x32. A tensor is declared before an op names it; ops are
 * listed in execution order; an op names each output once. Control
 * characters (other than tab) are refused: names reach messages as they are. `input` marks a graph input (live from step 0),
 * `output` a graph output (live to the last step).
 *
 * Every reader: errors are one line "PATH:LINE: FIELD: what is wrong", the
 * result is zeroed on error (never a partial problem), lines longer than
 * ARENA_FILE_LINE_MAX bytes are refused, memory grows only with the records
 * read, a NUL byte is refused where it is met, and loading stops at the
 * next line once opt->stop is set. */
#ifndef ARENA_FILES_H
#define ARENA_FILES_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "graphs/graph.h"

#define ARENA_FILE_LINE_MAX 65536

/* name is used in messages only; alignment (a power of two) rounds sizes,
 * stop (may be NULL) stops the reading as in struct arena_load_options.
 * names, when not NULL, receives the records' ids in record order (tensor
 * i's name), one malloc'd block (free(*names) frees them all; NULL on
 * error). */
int arena_csv_read_stream(FILE *f, const char *name, uint64_t alignment,
                          const volatile sig_atomic_t *stop, struct arena_problem *out,
                          char ***names, char *err, size_t errlen);
int arena_csv_read(const char *path, uint64_t alignment, const volatile sig_atomic_t *stop,
                   struct arena_problem *out, char ***names, char *err, size_t errlen);
/* Writes header and records; ARENA_EIO when writing fails. */
int arena_csv_write_stream(FILE *f, const struct arena_problem *p);
int arena_csv_write(const char *path, const struct arena_problem *p, char *err, size_t errlen);

/* Reads a graph file into *g (freed and zeroed on error). The graph is not
 * checked: the loader (graphs/source.c) checks it and names the line of
 * the op or tensor at fault. stop as in struct arena_load_options (may be
 * NULL). */
int arena_graph_file_read_stream(FILE *f, const char *name, const volatile sig_atomic_t *stop,
                                 struct arena_graph *g, char *err, size_t errlen);
int arena_graph_file_read(const char *path, const volatile sig_atomic_t *stop,
                          struct arena_graph *g, char *err, size_t errlen);

#endif
