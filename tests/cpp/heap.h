// Bytes the allocator holds now, for the tests that bound what a model keeps: ASan's allocator
// keeps its own count (mallinfo2 sees none of it).
#pragma once

#include <malloc.h>

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_TEST_ASAN 1
#endif
#ifdef ATTN_TEST_ASAN
#include <sanitizer/allocator_interface.h>
inline std::size_t heap_bytes() { return __sanitizer_get_current_allocated_bytes(); }
#else
inline std::size_t heap_bytes() { return mallinfo2().uordblks + mallinfo2().hblkhd; }
#endif
