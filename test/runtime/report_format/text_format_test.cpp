#include "report_format/text_format.hpp"

#include <gtest/gtest.h>

namespace perf::report_format {
namespace {

TEST(ElidedSignature, DropsTheReturnTypeTemplateArgumentsAndParameters) {
  EXPECT_EQ(elided_signature("void perf::detail::end<true>(perf::detail::frame&)"), "perf::detail::end<...>(...)");
  EXPECT_EQ(elided_signature("std::vector<int, std::allocator<int> > ns::box<int>::take(unsigned long) const"),
            "ns::box<...>::take(...)");
  EXPECT_EQ(elided_signature("(anonymous namespace)::three_quarters(unsigned long)"),
            "(anonymous namespace)::three_quarters(...)");
  EXPECT_EQ(elided_signature("logs::next_field(char const*, void (*)(int))"), "logs::next_field(...)");
  EXPECT_EQ(elided_signature("(anonymous namespace)::heavy_thread_work()"),
            "(anonymous namespace)::heavy_thread_work()");
}

TEST(ElidedSignature, LeavesWhatIsNotASignatureAsItIs) {
  for (const char* name :
       {"main", "libc.so.6+0x1f2e0", "app+0x2180 (PLT)", "0x7f00deadbeef", "ns::f()::{lambda(int)#1}::_FUN",
        "ns::box::operator<(ns::box const&) const", "(anonymous namespace)::table"})
    EXPECT_EQ(elided_signature(name), name);
}

TEST(FormatCountOf, NamesOneInTheSingularAndAnyOtherCountInThePlural) {
  EXPECT_EQ(format_count_of(1, "allocation"), "1 allocation");
  EXPECT_EQ(format_count_of(0, "allocation"), "0 allocations");
  EXPECT_EQ(format_count_of(1240, "byte"), "1,240 bytes");
  EXPECT_EQ(thread_title(0, "worker", 1, true), "1 exited thread (worker)");
  EXPECT_EQ(thread_title(0, "worker", 9936, true), "9,936 exited threads (worker)");
}

}  // namespace
}  // namespace perf::report_format
