// The size threshold through the collector: what counts in a body's size, what makes
// a body unbounded, and that it applies to --filter selections only.
#include "collecting.hpp"

namespace perf::tool {
namespace {

using FunctionSize = Collecting;

selection everything_under(unsigned threshold) {
  selection chosen;
  EXPECT_EQ(llvm::toString(chosen.add_filter(".*")), "");
  chosen.set_size_threshold(threshold);
  return chosen;
}

TEST_F(FunctionSize, CountsWhatTheBodySpellsNotWhatIsFree) {
  // a(): return, member; b(): return, call, callee, argument (the literal and the
  // enumerator are free); c(): a declaration, a multiplication and its operand x (2.0
  // is free), a return and the variable (the parentheses and conversions are free).
  const collected c = collect(
      "enum color { red };\n"
      "struct s { int v; int a() const { return (v); } };\n"
      "int g(int, color);\n"
      "int b(int x) { return g(x, red) + 0 * 1; }\n"
      "double c(int x) { double y = x * 2.0; return y; }\n",
      "-std=c++17", everything_under(100));
  const names expected = {"2 s::a: below the size threshold: size 2, threshold 100",
                          "4 b: below the size threshold: size 6, threshold 100",
                          "5 c: below the size threshold: size 5, threshold 100"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_TRUE(c.edits.replacements.empty());
}

TEST_F(FunctionSize, AConstructorsMemberInitialisersCount) {
  // x + 1 and its operand x, then x: 3, though the body is empty.
  const std::string code = "struct s { s(int x) : a(x + 1), b(x) {} int a, b; };\n";
  EXPECT_EQ(collect(code, "-std=c++17", everything_under(3)).selected, names{"1 s::s"});
  EXPECT_EQ(collect(code, "-std=c++17", everything_under(4)).selected,
            names{"1 s::s: below the size threshold: size 3, threshold 4"});
}

TEST_F(FunctionSize, LoopsGotosAndSelfCallsAreNeverLeftOut) {
  const collected c = collect(
      "int loop(int n) { while (n) --n; return n; }\n"
      "int range(const int (&v)[2]) { int s = 0; for (int x : v) s += x; return s; }\n"
      "int jump(int n) { again: if (--n) goto again; return n; }\n"
      "int self(int n) { return n ? self(n - 1) : 0; }\n"
      "int flat(int n) { return n; }\n",
      "-std=c++17", everything_under(100));
  const names expected = {"1 loop", "2 range", "3 jump", "4 self",
                          "5 flat: below the size threshold: size 2, threshold 100"};
  EXPECT_EQ(c.selected, expected);
}

TEST_F(FunctionSize, MarkedFunctionsAndAThresholdOfZeroLeaveNothingOut) {
  const std::string code = "[[perf::measure]] int marked() { return 1; }\nint tiny() { return 2; }\n";
  EXPECT_EQ(collect(code, "-std=c++17", everything_under(100)).selected,
            names({"1 marked", "2 tiny: below the size threshold: size 1, threshold 100"}));
  EXPECT_EQ(collect(code, "-std=c++17", everything_under(0)).selected, names({"1 marked", "2 tiny"}));
}

TEST_F(FunctionSize, AStatementAnEarlierRunInsertedIsNotWeighed) {
  // Weighed with the statement's three nodes, tiny() would reach the threshold.
  const std::string definition = "#define PERF_INSTRUMENT(name) int perf_scope = 0; (void)perf_scope\n";
  const collected c =
      collect(definition + "int tiny() { PERF_INSTRUMENT(\"tiny\"); return 2; }\n", "-std=c++17", everything_under(2));
  EXPECT_EQ(c.selected, names{"2 tiny: below the size threshold: size 1, threshold 2"});
  EXPECT_EQ(c.rewritten(), definition + "int tiny() { return 2; }\n");  // and the statement is taken out
}

}  // namespace
}  // namespace perf::tool
