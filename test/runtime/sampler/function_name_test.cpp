#include "sampler/function_name.hpp"

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

TEST(FunctionName, AMangledNameIsDemangled) {
  EXPECT_EQ(function_name("_Z5parsePKc"), "parse(char const*)");
  EXPECT_EQ(function_name("_ZN4logs4scanEv"), "logs::scan()");
}

TEST(FunctionName, TheOptimizersCopiesAreTheFunctionTheyWereMadeFrom) {
  EXPECT_EQ(function_name("_Z5parsePKc.constprop.0"), "parse(char const*)");
  EXPECT_EQ(function_name("_ZN4logs4scanEv.cold"), "logs::scan()");
  EXPECT_EQ(function_name("_ZN4logs4scanEv.part.0.isra.0"), "logs::scan()");
  EXPECT_EQ(function_name("main.cold"), "main");
  EXPECT_EQ(function_name("handler.part.0"), "handler");
  EXPECT_EQ(function_name("deflate_slow.lto_priv.0"), "deflate_slow");
}

TEST(FunctionName, AnyOtherNameIsKeptAsItIs) {
  EXPECT_EQ(function_name("main"), "main");
  EXPECT_EQ(function_name("_int_malloc"), "_int_malloc");
  EXPECT_EQ(function_name(""), "");
  EXPECT_EQ(function_name(".annobin_init.c"), ".annobin_init.c");
  EXPECT_EQ(function_name("0x7f.x"), "0x7f.x");
  EXPECT_EQ(function_name("main."), "main.");  // nothing after the dot: not a suffix the optimizer adds
}

}  // namespace
}  // namespace perf::runtime
