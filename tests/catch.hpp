// Lets the tests build on Catch2 v2 (Debian 12: one header) and v3 (split headers).
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
