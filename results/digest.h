/* digest.h — SHA-256 of bytes as text: the identity of a cmd: planner (its
 * command), stored with its results (results.command_sha256) and given to
 * the rows a migration brings forward. */
#ifndef ARENA_DIGEST_H
#define ARENA_DIGEST_H

#include <stddef.h>

/* 64 lowercase hex digits and a NUL into hex. */
void arena_sha256_hex(const void *data, size_t len, char hex[65]);

#endif
