// A unit with a class of its own holding a type from its anonymous namespace: fine
// in a main file, warned about (-Wsubobject-linkage) in a header.
namespace {
struct hidden { int value; };
}  // namespace
struct holder { hidden inside; };
int twice(int x) { int unused; holder h{{x}}; return 2 * h.inside.value; }
