// The names the report shows by default, one construct each.
#include "collecting.hpp"

namespace perf::tool {
namespace {

using FunctionLabel = Collecting;

TEST_F(FunctionLabel, NamespacesClassesAndOperators) {
  EXPECT_EQ(selected_in("namespace app { namespace { struct cart {\n"
                        "  [[perf::measure]] cart() {}\n"
                        "  [[perf::measure]] ~cart() {}\n"
                        "  [[perf::measure]] cart& operator+=(int) { return *this; }\n"
                        "  [[perf::measure]] explicit operator bool() const { return true; }\n"
                        "}; } }\n"
                        "extern \"C\" { [[perf::measure]] int c_entry() { return 0; } }\n"),
            (names{"2 app::(anonymous namespace)::cart::cart", "3 app::(anonymous namespace)::cart::~cart",
                   "4 app::(anonymous namespace)::cart::operator+=",
                   "5 app::(anonymous namespace)::cart::operator bool", "7 c_entry"}));
}

TEST_F(FunctionLabel, TemplatesShowTheirParametersAndSpecialisationsTheirArguments) {
  EXPECT_EQ(
      selected_in(
          "template <class T, int N, class... Rest> [[perf::measure]] T larger(T a, T) { return a; }\n"
          "template <> [[perf::measure]] const char* larger<const char*, 1>(const char* a, const char*) { return a; }\n"
          "template <class T> struct box {\n"
          "  [[perf::measure]] ~box() {}\n"
          "  template <class U> [[perf::measure]] U as() const { return U(); }\n"
          "  template <class U> [[perf::measure]] operator U() const { return U(); }\n"
          "};\n"
          "template <> [[perf::measure]] box<char>::~box() {}\n"
          "template <class T> struct box<T*> { [[perf::measure]] void f() {} };\n"),
      (names{"1 larger<T, N, Rest...>", "2 larger<const char *, 1>", "4 box<T>::~box", "5 box<T>::as<U>",
             "6 box<T>::operator U", "8 box<char>::~box", "9 box<T *>::f"}));
}

TEST_F(FunctionLabel, LambdasAreNamedAfterWhereTheyStand) {
  EXPECT_EQ(
      selected_in(
          "namespace ns { auto global = [] [[perf::measure]] (int x) { return x; }; }\n"
          "struct holder { int (*member)(int) = [] [[perf::measure]] (int x) { return x; }; };\n"
          "template <class T> int f(T t) {\n"
          "  auto outer = [] [[perf::measure]] (auto y) { return [] [[perf::measure]] () { return 1; }() + y; };\n"
          "  return outer(t);\n"
          "}\n",
          "-std=c++20"),
      (names{"1 ns::(lambda at line 1)", "2 holder::(lambda at line 2)", "4 f<T>::(lambda at line 4)",
             "4 f<T>::(lambda at line 4)::(lambda at line 4)"}));
}

}  // namespace
}  // namespace perf::tool
