// A library in the project's tree, but a system header (-isystem): never edited.
#pragma once
[[perf::measure]] inline int vendor_version() { return 3; }
