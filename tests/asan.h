/* asan.h — whether this test is built with AddressSanitizer (the CI's
 * build-san), for the cases that must behave otherwise under it: an
 * address-space limit (RLIMIT_AS) does not suit its shadow memory, and its
 * handler reports a fault and exits 1 instead of dying of the signal. */
#ifndef ARENA_TESTS_ASAN_H
#define ARENA_TESTS_ASAN_H

#if defined(__SANITIZE_ADDRESS__) /* gcc */
#define TD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) /* clang */
#define TD_UNDER_ASAN 1
#endif
#endif

/* Skips a Criterion test that sets an address-space limit. */
#ifdef TD_UNDER_ASAN
#define TD_SKIP_UNDER_ASAN() cr_skip_test("an address-space limit does not suit AddressSanitizer")
#else
#define TD_SKIP_UNDER_ASAN() ((void)0)
#endif

#endif
