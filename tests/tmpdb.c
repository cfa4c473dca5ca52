/* tmpdb.c — see tmpdb.h. */
#include "tests/tmpdb.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char td_dir[64];

void td_make_dir(void)
{
    strcpy(td_dir, "/tmp/arena-test-XXXXXX");
    cr_assert(mkdtemp(td_dir), "mkdtemp");
}

void td_remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", td_dir); /* mkdtemp's name has no quote */
    cr_expect_eq(system(cmd), 0, "%s", cmd);
}

void td_path(char *buf, size_t len, const char *name)
{
    int n = snprintf(buf, len, "%s/%s", td_dir, name);
    cr_assert(n >= 0 && (size_t)n < len, "path of %s too long", name);
}

char *td_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, (cap *= 2) + 1);
            if (!grown) free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

sqlite3 *td_db_open(const char *path, int readonly)
{
    sqlite3 *db = NULL;
    int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    cr_assert_eq(sqlite3_open_v2(path, &db, flags, NULL), SQLITE_OK, "%s", path);
    sqlite3_busy_timeout(db, 10000);
    return db;
}

int64_t td_db_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql,
                 sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

size_t td_csv_record(const char **p, char **field, size_t max)
{
    size_t n = 0;
    const char *c = *p;
    for (;;) {
        char buf[1024];
        size_t len = 0;
        if (*c == '"') {
            for (c++; *c && !(*c == '"' && c[1] != '"'); c++) {
                if (*c == '"') c++;
                if (len < sizeof buf - 1) buf[len++] = *c;
            }
            cr_assert(*c == '"', "unterminated quoted field");
            c++;
        } else {
            for (; *c && *c != ',' && *c != '\n' && *c != '\r'; c++)
                if (len < sizeof buf - 1) buf[len++] = *c;
        }
        buf[len] = '\0';
        if (n < max) field[n] = strdup(buf);
        n++;
        if (*c == ',') {
            c++;
            continue;
        }
        if (*c == '\r') c++;
        if (*c == '\n') c++;
        break;
    }
    *p = c;
    return n;
}

int64_t td_file_int(const char *path, const char *sql)
{
    sqlite3 *db = td_db_open(path, 1);
    int64_t v = td_db_int(db, sql);
    sqlite3_close(db);
    return v;
}

void td_write(const char *name, const char *text, char *path, size_t len)
{
    td_path(path, len, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "%s", path);
}

void td_sha256(const char *path, char hex[65])
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sha256sum < '%s'", path);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "%s", cmd);
    cr_assert_eq(fscanf(p, "%64s", hex), 1, "%s", cmd);
    pclose(p);
}

void td_sha256_text(const char *text, char hex[65])
{
    char path[200];
    td_write("sha256.txt", text, path, sizeof path);
    td_sha256(path, hex);
}
