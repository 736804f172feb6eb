#pragma once
[[perf::measure]] constexpr int limit() { return 4; }
