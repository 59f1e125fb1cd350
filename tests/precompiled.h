// What the test files parse first: QtTest (7.6 s of a 19 s test file) and the standard library's common headers, not
// the engine's (a test may name things of its own `flowscope`). tests/CMakeLists.txt compiles it once per set of Qt
// modules the tests link (QtTest adds GUI helpers when QtGui is linked), and the tests of a set share it.
#pragma once

#include <QtTest>

#include "base/precompiled_std.h"
