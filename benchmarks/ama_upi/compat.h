// Forced into every ama source by benchmarks/puyo_vs_ama.py: what ama takes from MinGW/MSVC headers and g++ on
// Linux lacks (ama is built on Windows).
#pragma once
#include <cstddef>
#ifndef _countof
#define _countof(array) (sizeof(array) / sizeof((array)[0]))
#endif
