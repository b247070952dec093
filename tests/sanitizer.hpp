// Whether the tests (and so the lbmc they run) were built with
// AddressSanitizer, which reserves terabytes of address space for its
// shadow: a sanitized lbmc cannot start under `ulimit -v`, so the checks that
// limit it are skipped.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif
