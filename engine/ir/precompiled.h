// The headers most engine files include, parsed once per engine library instead of once per file: its precompiled
// header (see the top-level CMakeLists.txt for when they are on). Sources still include what they use; this list
// only decides what is parsed ahead. Files of the base room skip it (base may not include the IR).
#pragma once

#include "base/precompiled_std.h"
#include "base/status.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/tensor.h"
