/* options.h — every option of every bench command is one row of a table, as
 * in Redis's config.c: its name, the kind of value it takes, the bounds, the
 * default and the help, written once. One engine (options.c) reads a command
 * line against the rows (`--name value`, `--name=value`, a flag bare),
 * checks each value against its kind and bounds with one line naming the
 * option when it is wrong, takes the defaults of the rows not given as if
 * given, and prints the rows: as --help, and as the Markdown table docs/
 * carries (`bench help --markdown`, which tests/test_options.c checks
 * against docs/). A row writes its value into the command's own struct at
 * its offset, so the tables hold no state. Adding an option is one row. */
#ifndef ARENA_BENCH_OPTIONS_H
#define ARENA_BENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every integer bench stores is an SQLite INTEGER: the largest bound. */
#define ARENA_BENCH_INT_MAX ((uint64_t)INT64_MAX)

/* bench's commands, for a row's `in` (subcommands.c has the commands). */
enum {
    ARENA_IN_RUN = 1u << 0,
    ARENA_IN_LIST = 1u << 1,
    ARENA_IN_EXPORT = 1u << 2,
    ARENA_IN_REPLAY = 1u << 3,
    ARENA_IN_OLD = 1u << 4, /* the old spellings, which bench takes without a command */
    ARENA_IN_STATS = 1u << 5,
    ARENA_IN_PLOT = 1u << 6,
    ARENA_IN_MERGE = 1u << 7,
};

enum arena_opt_kind {
    ARENA_OPT_FLAG,    /* no value: the int field becomes 1 */
    ARENA_OPT_UINT,    /* decimal digits, min..max: an unsigned field of any width */
    ARENA_OPT_POW2,    /* a power of two, min..max: the same */
    ARENA_OPT_BYTES,   /* digits, then B, KiB, MiB or GiB (1 KiB = 1024 B), min..max
                          bytes: a uint64_t field */
    ARENA_OPT_SECONDS, /* a decimal number of seconds in (0, max]: a double field */
    ARENA_OPT_CHOICE,  /* one of the names name_of gives: an enum or int field,
                          the name's index */
    ARENA_OPT_TEXT,    /* a non-empty text, kept as a pointer into argv: const char * */
    ARENA_OPT_CUSTOM,  /* the row's parse function does it all */
};

struct arena_opt;

/* A CUSTOM row's reader: value (NULL for a row without arg) into the struct
 * at base. ARENA_OK, or an error status with one line in err that starts
 * with the option's name. */
typedef int arena_opt_parse_fn(void *base, const struct arena_opt *o, const char *value,
                               char *err, size_t errlen);

struct arena_opt {
    const char *name;         /* "--alignment"; a name ending in '*' takes every
                                 argument that starts with it, whole, as its value */
    const char *alias;        /* another spelling ("-h"), not shown; or NULL */
    enum arena_opt_kind kind;
    const char *arg;          /* the value's name in the help ("N", "PATH"); NULL: the
                                 row takes no value (FLAG, a CUSTOM flag), or for a
                                 CHOICE its names a|b|c */
    uint64_t min, max;        /* UINT, POW2, BYTES: the bounds; SECONDS: max */
    const char *(*name_of)(size_t i); /* CHOICE: the name of value i, NULL past the last;
                                         CUSTOM: the names it takes, shown in the help */
    const char *values;       /* TEXT, CUSTOM: what the value is, in words */
    const char *def;          /* read as if given when the option is not; NULL none */
    const char *unset;        /* def NULL: what holds without the option, for the help */
    size_t off, size;         /* the field: ARENA_OPT_AT(type, member) */
    size_t seen;              /* ARENA_OPT_SEEN(type, member): an int set to 1 when the
                                 option is given (not by its default); 0: none */
    arena_opt_parse_fn *parse; /* CUSTOM */
    unsigned in;              /* the commands that take it: a mask the table's owner
                                 defines */
    const char *now;          /* an old spelling kept working: what to write now
                                 ("bench list"); shown apart from the options */
    const char *gone;         /* an old spelling no longer taken: giving it fails
                                 with one line naming what to write now; not in
                                 the help */
    const char *help;         /* what it does: plain text, one paragraph */
    const char *see;          /* the docs page that says more ("shipping.md#the-plan-as-c") */
};

#define ARENA_OPT_AT(type, member) \
    .off = offsetof(type, member), .size = sizeof(((type *)0)->member)
#define ARENA_OPT_SEEN(type, member) .seen = offsetof(type, member) + 1

/* The rows a command reads into one struct: a command may read several
 * tables (bench stats: its own and the selection's of filters.c). */
struct arena_opt_table {
    const struct arena_opt *rows;
    size_t n;
    void *base; /* the struct the rows' offsets point into; NULL for printing */
};

#define ARENA_OPT_HELP 1 /* arena_opt_parse met --help or -h */
/* What a command's entry point returns when it met --help: the command
 * table (bench/subcommands.c) prints the help, so no command calls back
 * into the table. */
#define ARENA_BENCH_HELP_ASKED (-1)
/* --db's default, for every command that writes or reads results. */
#define ARENA_BENCH_DB_DEFAULT "results/arenabench.sqlite"

/* Reads argv[first..argc) against the rows of t[0..nt) whose `in` meets
 * mask, then reads the default of every such row not given. Arguments
 * that are not options go to pos[] (pointers into argv, at most max_pos;
 * *n_pos counts them); one more is an error, "unexpected argument 'x'"
 * followed by hint. Returns ARENA_OK, ARENA_OPT_HELP as soon as --help or
 * -h is met (nothing after it is read), or ARENA_EINVAL (ARENA_ENOMEM) with
 * one line in err naming the option: an unknown option, a missing value, a
 * value that looks like an option (a name starting with -- is written ./--x),
 * a value outside its kind or bounds. */
int arena_opt_parse(int argc, char **argv, int first, const struct arena_opt_table *t,
                    size_t nt, unsigned mask, const char **pos, size_t max_pos, size_t *n_pos,
                    const char *hint, char *err, size_t errlen);

/* Reads one value into row o of the struct at base, as the parser does
 * (for a row's default, or a caller that splits an old spelling). */
int arena_opt_read(void *base, const struct arena_opt *o, const char *value, char *err,
                   size_t errlen);

/* The rows of t that mask takes, as --help lines: "  --name ARG" and the
 * help wrapped beside it, then "(values; default)" — the options (now NULL)
 * or, with old set, the old spellings and what to write now. */
void arena_opt_help(FILE *out, const struct arena_opt_table *t, size_t nt, unsigned mask,
                    int old);
/* The same rows as a Markdown table: | option | value | default | meaning |
 * (with in_names, the names of the `in` bits by position, a column
 * | commands | after the option), or with old set | old spelling | the
 * same as |. */
void arena_opt_markdown(FILE *out, const struct arena_opt_table *t, size_t nt, unsigned mask,
                        int old, const char *const *in_names);

/* head, then text wrapped at 79 columns, its lines from column col (a head
 * that reaches it puts the text on the next line). */
void arena_opt_wrapped(FILE *out, const char *head, int col, const char *text);

/* The value and default columns of a row, as both printers show them. */
void arena_opt_value_text(const struct arena_opt *o, char *buf, size_t len);
void arena_opt_default_text(const struct arena_opt *o, char *buf, size_t len);

#endif
