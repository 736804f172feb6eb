#include "sampler/code_owner.hpp"

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

TEST(CodeOwner, TheOutermostScopeOfAMangledName) {
  // void perf::detail::end<true>(perf::detail::thread_state&, perf::detail::frame&)
  EXPECT_EQ(outermost_scope("_ZN4perf6detail3endILb1EEEvRNS0_12thread_stateERNS0_5frameE"), "perf");
  EXPECT_EQ(outermost_scope("_ZNK4perf7runtime6widget4sizeEv"), "perf");      // a const member function
  EXPECT_EQ(outermost_scope("_ZZN4perf6detail4openEvENKUlvE_clEv"), "perf");  // a lambda inside perf::detail::open
  EXPECT_EQ(outermost_scope("_ZSt4sortIPiEvT_S1_"), "std");
  EXPECT_EQ(outermost_scope("_ZNKSt6vectorIiSaIiEE4sizeEv"), "std");
  EXPECT_EQ(outermost_scope("_ZNSaIcED1Ev"), "std");  // std::allocator<char>::~allocator()
  EXPECT_EQ(outermost_scope("_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv"), "__gnu_cxx");
  EXPECT_EQ(outermost_scope("_ZN12_GLOBAL__N_14workEv"), "_GLOBAL__N_1");
  EXPECT_EQ(outermost_scope("_ZN4logsL10next_fieldERSt17basic_string_viewIcSt11char_traitsIcEE"), "logs");
  EXPECT_EQ(outermost_scope("_Z4mainv"), "");              // the global namespace
  EXPECT_EQ(outermost_scope("_ZZ4mainENKUliE_clEi"), "");  // a lambda inside main
  EXPECT_EQ(outermost_scope("_int_malloc"), "");
  EXPECT_EQ(outermost_scope("_ZN4pe"), "");  // cut short
}

constexpr const char* program = "/build/app";

TEST(CodeOwner, PerfsFunctionsAreTheRuntimesWhereverTheyLie) {
  // A probe instantiated in the program's own module, and the shared runtime's code.
  EXPECT_EQ(owner_of("_ZN4perf6detail3endILb1EEEvRNS0_12thread_stateERNS0_5frameE",
                     "/opt/perf/include/perf/measure.hpp", program),
            code_owner::runtime);
  EXPECT_EQ(owner_of("malloc", "/src/runtime/alloc/interpose/malloc.cpp", "/opt/perf/lib/libperfalloc.so.0"),
            code_owner::runtime);
  EXPECT_EQ(owner_of("pthread_create", "", "/opt/perf/lib/libperfrt.so.0"), code_owner::runtime);
}

TEST(CodeOwner, LibrariesAreNeverTheProgramsOwnCode) {
  EXPECT_EQ(owner_of("_int_malloc", "./malloc/malloc.c", "/lib/x86_64-linux-gnu/libc.so.6"), code_owner::library);
  EXPECT_EQ(owner_of("_Znwm", "", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"), code_owner::library);
  EXPECT_EQ(owner_of("__vdso_clock_gettime", "", "linux-vdso.so.1"), code_owner::library);
  EXPECT_EQ(owner_of("f", "/src/f.cpp", ""), code_owner::library);  // in no module: unloaded, or JIT code
  // libstdc++ inlined into the program: by namespace, or by its header.
  EXPECT_EQ(owner_of("_ZSt16__introsort_loopIPiliEvT_S1_T0_T1_", "/usr/include/c++/12/bits/stl_algo.h", program),
            code_owner::library);
  EXPECT_EQ(owner_of("__memcpy_chk", "/usr/include/x86_64-linux-gnu/bits/string_fortified.h", program),
            code_owner::library);
  EXPECT_EQ(owner_of("__asan_memcpy", "", program), code_owner::library);
  EXPECT_EQ(owner_of("_ZN11__sanitizer14internal_memcpyEPvPKvm", "", program), code_owner::library);
}

TEST(CodeOwner, TheRestIsTheProgramsOwn) {
  EXPECT_EQ(owner_of("_ZN4logs10parse_lineESt17basic_string_viewIcSt11char_traitsIcEE", "/src/parse.cpp", program),
            code_owner::program);
  EXPECT_EQ(owner_of("generate_lines", "/src/main.cpp", program), code_owner::program);  // no linkage name
  EXPECT_EQ(owner_of("_ZZ4mainENKUliE_clEi", "/src/main.cpp", "/usr/local/lib/libapp.so"), code_owner::program);
  EXPECT_EQ(owner_of("_ZN11performance5tableEv", "/src/performance.cpp", "/build/libperformance.so"),
            code_owner::program);  // not perf's, nor its library
}

TEST(CodeOwner, AnUnnamedReturnAddressIsNoFunctionsToChargeAnUnnamedInstructionIsItsModules) {
  EXPECT_EQ(owner_of_unnamed(program, false), code_owner::program);  // a stripped program
  EXPECT_EQ(owner_of_unnamed(program, true), code_owner::library);   // e.g. a vtable entry a broken chain read
  EXPECT_EQ(owner_of_unnamed("/usr/lib/x86_64-linux-gnu/libc.so.6", false), code_owner::library);
  EXPECT_EQ(owner_of_unnamed("/opt/perf/lib/libperfrt.so.0", false), code_owner::runtime);
  EXPECT_EQ(owner_of_unnamed("", false), code_owner::library);  // in no module
}

}  // namespace
}  // namespace perf::runtime
