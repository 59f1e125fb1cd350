// Nesting of trace events on each thread: an event inside another node event of its thread is not counted again.
#pragma once

#include "profile/imported_profile.h"

namespace flowscope::import {

/// For node events: marks those that lie inside another node event of the same thread (inTables = false, parent =
/// the outermost one); events that start inside one and end after it are left top-level, with one warning.
void markNestedEvents(ImportedProfile* profile);

}  // namespace flowscope::import
