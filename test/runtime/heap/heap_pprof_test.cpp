// The heap profile's pprof encoding, read by pprof itself: a made-up profile whose
// stacks are real return addresses in this program, so that they symbolize to the
// functions below, and whose estimates come out exactly.
#include "heap/heap_pprof.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "go_pprof.hpp"
#include "sampler/profile_formats.hpp"

// Each function returns the return address of its call to `return_address`: the
// place a stack walk finds in that function's frame.
namespace orders {
[[gnu::noinline]] uintptr_t return_address() { return reinterpret_cast<uintptr_t>(__builtin_return_address(0)); }
// The asm after each call keeps it from becoming a jump (a tail call would return
// into the caller's caller).
[[gnu::noinline]] uintptr_t parse_order() {
  const uintptr_t at = return_address();
  asm volatile("" ::: "memory");
  return at;
}
[[gnu::noinline]] uintptr_t log_line() {
  const uintptr_t at = return_address();
  asm volatile("" ::: "memory");
  return at;
}
[[gnu::noinline]] uintptr_t cache_entry() {
  const uintptr_t at = return_address();
  asm volatile("" ::: "memory");
  return at;
}
[[gnu::noinline]] uintptr_t serve() {
  const uintptr_t at = return_address();
  asm volatile("" ::: "memory");
  return at;
}
}  // namespace orders

namespace perf::runtime {
namespace {

using perf::testing::go_tool_pprof;
using perf::testing::pprof_top_rows;
using perf::testing::probe_result;

heap_site site(std::vector<uintptr_t> frames, double allocated_objects, double allocated_bytes, double live_objects,
               double live_bytes) {
  heap_site s;
  s.frames = std::move(frames);
  s.allocated_objects = allocated_objects;
  s.allocated_bytes = allocated_bytes;
  s.live_objects = live_objects;
  s.live_bytes = live_bytes;
  s.samples = 10;
  return s;
}

// parse_order allocates the most, cache_entry keeps the most; log_line is in between
// on both. Every stack is called from serve.
heap_profile made_up_profile() {
  heap_profile p;
  p.sample_bytes = 524288;
  p.sites.push_back(site({orders::parse_order(), orders::serve()}, 81920, 10485760, 16, 2048));
  p.sites.push_back(site({orders::log_line(), orders::serve()}, 9000.4, 1048576.6, 100, 12800));
  p.sites.push_back(site({orders::cache_entry(), orders::serve()}, 2048, 524288, 2048, 524288));
  return p;
}

class HeapPprof : public perf::testing::ProbeTest {
 protected:
  // `p` written for `view` as PERF_HEAP_PROFILE writes it, then `go tool pprof ARGS` on it.
  probe_result pprof(const heap_profile& p, heap_pprof_view view, const std::string& args) {
    const std::filesystem::path path = dir / "heap.pb.gz";
    std::ofstream(path, std::ios::binary) << gzip(encode_heap_pprof(p, view));
    return go_tool_pprof(args + " " + path.string(), dir);
  }
};

// "Type: X" and the -top rows as "name flat" lines: what the tests compare.
std::string type_and_rows(const probe_result& r) {
  const size_t type = r.output.find("Type: ");
  std::string out =
      type == std::string::npos ? "no type\n" : r.output.substr(type, r.output.find('\n', type) - type + 1);
  for (const auto& row : pprof_top_rows(r.output)) out += row.name + " " + row.flat + "\n";
  return out;
}

// Every node listed (-nodefraction=0), bytes as bytes (-unit=B; counts stay counts
// without it).
constexpr const char* top = "-top -nodefraction=0 -unit=B";
constexpr const char* top_counts = "-top -nodefraction=0";

TEST_F(HeapPprof, AllocSpaceListsTheSitesByTheBytesTheyAllocated) {
  const probe_result r =
      pprof(made_up_profile(), heap_pprof_view::heap, std::string(top) + " -sample_index=alloc_space");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(type_and_rows(r),
            "Type: alloc_space\n"
            "orders::parse_order 10485760B\n"
            "orders::log_line 1048577B\n"
            "orders::cache_entry 524288B\n"
            "orders::serve 0\n")
      << r.output;
}

TEST_F(HeapPprof, InuseSpaceListsTheSitesByTheirLiveBytes) {
  const probe_result r =
      pprof(made_up_profile(), heap_pprof_view::allocs, std::string(top) + " -sample_index=inuse_space");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(type_and_rows(r),
            "Type: inuse_space\n"
            "orders::cache_entry 524288B\n"
            "orders::log_line 12800B\n"
            "orders::parse_order 2048B\n"
            "orders::serve 0\n")
      << r.output;
}

TEST_F(HeapPprof, TheObjectCountsAreTheEstimatedAllocationsAndLiveBlocks) {
  const probe_result allocated =
      pprof(made_up_profile(), heap_pprof_view::heap, std::string(top_counts) + " -sample_index=alloc_objects");
  ASSERT_EQ(allocated.status, 0) << allocated.output;
  EXPECT_EQ(type_and_rows(allocated),
            "Type: alloc_objects\n"
            "orders::parse_order 81920\n"
            "orders::log_line 9000\n"
            "orders::cache_entry 2048\n"
            "orders::serve 0\n")
      << allocated.output;
  const probe_result live =
      pprof(made_up_profile(), heap_pprof_view::heap, std::string(top_counts) + " -sample_index=inuse_objects");
  ASSERT_EQ(live.status, 0) << live.output;
  EXPECT_EQ(type_and_rows(live),
            "Type: inuse_objects\n"
            "orders::cache_entry 2048\n"
            "orders::log_line 100\n"
            "orders::parse_order 16\n"
            "orders::serve 0\n")
      << live.output;
}

// As Go serves them: /debug/pprof/heap shows the live bytes unless told otherwise,
// /debug/pprof/allocs the bytes allocated.
TEST_F(HeapPprof, TheViewsDifferInTheirDefaultSampleTypeOnly) {
  const probe_result heap = pprof(made_up_profile(), heap_pprof_view::heap, top);
  EXPECT_EQ(type_and_rows(heap).rfind("Type: inuse_space\norders::cache_entry 524288B\n", 0), 0u) << heap.output;
  const probe_result allocs = pprof(made_up_profile(), heap_pprof_view::allocs, top);
  EXPECT_EQ(type_and_rows(allocs).rfind("Type: alloc_space\norders::parse_order 10485760B\n", 0), 0u) << allocs.output;
  EXPECT_EQ(encode_heap_pprof(made_up_profile(), heap_pprof_view::heap).size(),
            encode_heap_pprof(made_up_profile(), heap_pprof_view::allocs).size());
}

// The sample types in Go's order, the period, and each sample's mean size as Go's
// "bytes" label.
TEST_F(HeapPprof, SampleTypesPeriodAndSizeLabelAreGos) {
  const probe_result r = pprof(made_up_profile(), heap_pprof_view::heap, "-raw");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("PeriodType: space bytes\nPeriod: 524288\nSamples:\n"
                          "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes[dflt]\n"),
            std::string::npos)
      << r.output;
  for (const char* size : {"bytes:[128]\n", "bytes:[117]\n", "bytes:[256]\n"})
    EXPECT_NE(r.output.find(size), std::string::npos) << size << r.output;
}

// Samples the site table had no room for make the estimates low, and a live set
// thinned makes the inuse_* estimates rest on fewer samples: pprof says both above its
// report.
TEST_F(HeapPprof, WhatTheSamplersTablesLeftOutIsSaidAboveTheReport) {
  heap_profile p = made_up_profile();
  p.samples_beyond_sites = 12;
  p.live_set_thinnings = 2;
  const probe_result r = pprof(p, heap_pprof_view::heap, top);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\nperf: 12 sampled allocations are in no sample: the site table was full\n"
                          "perf: inuse_* estimated from 1 in 4 sampled blocks still live: the live set was full\n"
                          "Type: inuse_space\n"),
            std::string::npos)
      << r.output;
  const probe_result none_left_out = pprof(made_up_profile(), heap_pprof_view::heap, top);
  EXPECT_EQ(none_left_out.output.find("perf: "), std::string::npos) << none_left_out.output;
}

// Sampling on, nothing sampled yet: an empty profile that pprof reads.
TEST_F(HeapPprof, AProfileWithoutSitesIsRead) {
  heap_profile empty;
  empty.sample_bytes = 524288;
  const probe_result r = pprof(empty, heap_pprof_view::allocs, top);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(type_and_rows(r), "Type: alloc_space\n") << r.output;
}

}  // namespace
}  // namespace perf::runtime
