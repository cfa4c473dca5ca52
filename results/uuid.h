/* uuid.h — run identities (RFC 9562 text form, 36 characters, lowercase):
 * random ones for new runs, name-based ones for runs written before schema
 * version 8. Internal to results/. */
#ifndef ARENA_UUID_H
#define ARENA_UUID_H

#include <stddef.h>

#define ARENA_UUID_LEN 36 /* characters, without the terminating NUL */

/* A version 4 UUID from 122 random bits of /dev/urandom. ARENA_OK, or
 * ARENA_EIO when the random bytes cannot be read (out is then ""). */
int arena_uuid_random(char out[ARENA_UUID_LEN + 1]);

/* A version 8 UUID (RFC 9562's custom layout) whose 122 bits are a 128-bit
 * hash of name[0..len): the same name always gives the same UUID, and
 * distinct names collide with odds of about 2^-122 per pair. */
void arena_uuid_from_name(const void *name, size_t len, char out[ARENA_UUID_LEN + 1]);

#endif
